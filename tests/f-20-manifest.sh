#!/bin/sh
# A lab's manifest (lab.mk) is read once and checked whole, with no
# kernel: every lab of the course passes, and each kind of mistake an
# author makes is an error that names the file and the line.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

bad=
for d in "$WB_LABS"/*/ "$WB_ROOT"/tests/fixtures/labs/*/; do
	wb_lab_check "${d%/}" >>"$tmp/real.err" 2>&1 || bad="$bad ${d%/}"
done
if [ -z "$bad" ]; then
	t_ok "every lab's and fixture's lab.mk is valid"
else
	t_fail "every lab's and fixture's lab.mk is valid" "invalid:$bad" "$(cat "$tmp/real.err")"
fi

# manifest NAME LINE...: labs/NAME/lab.mk, a good one with LINE... after.
manifest() {
	local name
	name=$1
	shift
	mkdir -p "$tmp/labs/$name"
	printf '%s\n' '# a lab' 'CHAPTER := 02' 'TITLE := A lab' 'TIMEOUT := 60' 'FILES := a.c:module' \
		"$@" >"$tmp/labs/$name/lab.mk"
}
# t_check DESCRIPTION NAME REGEX: wb_lab_check fails on it and says REGEX.
t_check() {
	if wb_lab_check "$tmp/labs/$2" >"$tmp/$2.err" 2>&1; then
		t_fail "$1" "an error" "accepted"
	else
		t_grep "$1" "$3" "$tmp/$2.err"
	fi
}
manifest good 'KIND := tour' 'DEVICES := cdrom'
if wb_lab_check "$tmp/labs/good" >"$tmp/good.err" 2>&1; then
	t_ok "a manifest with every required key is accepted"
else
	t_fail "a manifest with every required key is accepted" "$(cat "$tmp/good.err")"
fi
manifest misspelt 'POINT := 1 2'
t_check "a misspelt key is an error, with the file and line" misspelt \
	"labs/misspelt/lab.mk:6: unknown key POINT"
manifest twice 'TIMEOUT := 90'
t_check "a key set twice is an error" twice "lab.mk:6: TIMEOUT is set twice \(first on line 4\)"
manifest kind 'FILES := b.c:modul'
t_check "a FILES entry of an unknown kind is an error" kind 'FILES entry "b.c:modul" is not path:kind'
manifest points 'POINTS := 1 2'
t_check "POINTS, gone, says where a check's points are given now" points 'POINTS is gone: .*ktap_points'
manifest timeout 'TIMEOUT := soon'
t_check "a TIMEOUT that is not a number is an error" timeout 'TIMEOUT is a number of seconds'
manifest host 'HOSTBUILD := build.sh'
t_check "a HOSTBUILD the lab folder lacks is an error" host 'HOSTBUILD names build.sh'
manifest guests 'GUESTS := guests.sh'
: >"$tmp/labs/guests/guests.sh"
t_check "GUESTS in a lab that is not a tour is an error" guests 'lab.mk:6: GUESTS is for a tour'
manifest line 'TITLE = ok' 'this is not a setting'
t_check "a line that is no setting is an error" line 'lab.mk:7: not a line of the form KEY := value'
mkdir -p "$tmp/labs/notitle"
printf '%s\n' 'CHAPTER := 02' 'TIMEOUT := 60' 'FILES := a.c:module' >"$tmp/labs/notitle/lab.mk"
t_check "a missing TITLE is an error" notitle 'lab.mk: TITLE is missing'

# The harness stops there, before any build: make lab says why, status 2.
rc=0
WB_LABS=$tmp/labs "$WB_ROOT/vm/lab.sh" misspelt run >"$tmp/lab.out" 2>&1 </dev/null || rc=$?
t_status "make lab on a lab whose manifest is wrong ends with status 2" 2 "$rc"
t_grep "and names the line" 'lab.mk:6: unknown key POINT' "$tmp/lab.out"
t_done
