#!/bin/sh
# What can be checked without booting: shell style, skeletons, patches,
# lab folders, and guest scripts refusing to run on the host.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- shell ----
scripts=$(cd "$WB_ROOT" && ls vm/*.sh vm/guest/init vm/guest/*.sh tests/*.sh \
	labs/*/*.sh tests/fixtures/labs/*/*.sh .ci/run 2>/dev/null)
# shellcheck disable=SC2086
if out=$(cd "$WB_ROOT" && shellcheck $scripts 2>&1); then
	t_ok "every shell script is shellcheck-clean ($(echo "$scripts" | wc -l) scripts)"
else
	t_fail "every shell script is shellcheck-clean" "$out"
fi
bad=$(cd "$WB_ROOT" && for s in $scripts; do
	# Files that are only sourced say so on their first line.
	head -n 1 "$s" | grep -q '^# shellcheck shell=sh' && continue
	grep -q '^set -[a-z]*e[a-z]*u\|^set -u' "$s" || echo "$s"
done)
if [ -z "$bad" ]; then
	t_ok "every script runs with set -u (and -e where it does not collect failures)"
else
	t_fail "every script runs with set -u (and -e where it does not collect failures)" "missing in: $bad"
fi

# ---- labs ----
for lab in $(wb_lab_names); do
	d=$WB_LABS/$lab
	missing=
	# A tour with GUESTS (guests of other architectures) has no files
	# for the workbook VM: its steps are steps/*, its checks its GUESTS
	# script's.
	guests=$(wb_manifest "$lab" GUESTS)
	keys="CHAPTER TITLE TIMEOUT FILES" files="README.rst run.sh check.sh lab.gdb"
	[ -z "$guests" ] || keys="CHAPTER TITLE TIMEOUT GUESTS" files="README.rst $guests steps lab.gdb"
	for k in $keys; do
		[ -n "$(wb_manifest "$lab" "$k")" ] || missing="$missing lab.mk:$k"
	done
	for f in $files; do
		[ -e "$d/$f" ] || missing="$missing $f"
	done
	grep -q '^# expect: ' "$d/lab.gdb" 2>/dev/null || missing="$missing lab.gdb:expect"
	if wb_lab_is_tour "$lab"; then
		# A tour has nothing to solve; its README shows real runs.
		# The lab's page includes the README, so the path is the book's:
		# /labs/LAB/transcript*.
		grep -q "literalinclude:: /labs/$lab/transcript" "$d/README.rst" 2>/dev/null ||
			missing="$missing README.rst:transcript"
		gone=$(sed -n "s#.*literalinclude:: /labs/$lab/\(transcript[^ ]*\).*#\1#p" "$d/README.rst" 2>/dev/null |
			while read -r f; do [ -s "$d/$f" ] || echo "$f"; done)
		[ -z "$gone" ] || missing="$missing $gone"
		what="tour $lab has a manifest, steps, checker, gdb script and transcripts"
	elif wb_lab_shipped "$lab"; then
		# A student repository's lab: its skeleton, no solution.
		what="lab $lab has a manifest, steps, checker, gdb script and skeleton"
	else
		[ -f "$WB_SOLUTIONS/$lab/solution.rst" ] || missing="$missing solutions/$lab/solution.rst"
		what="lab $lab has a manifest, steps, checker, gdb script and worked solution"
	fi
	# A lab's page has the gdb commands to type: a "Debugging" section
	# that names make gdb and how to replay the lab's lab.gdb.
	if ! wb_lab_is_tour "$lab"; then
		dbg=$(awk '/^[-=~^]+$/ && prev != "" { sec = prev; prev = ""; next }
			sec == "Debugging" { print }
			{ prev = $0 }' "$d/README.rst" 2>/dev/null | tr -s '\n ' '  ')
		case $dbg in
		*"make gdb"*"lab.gdb"* | *"lab.gdb"*"make gdb"*) ;;
		*) missing="$missing README.rst:Debugging" ;;
		esac
		what="$what, and a Debugging section"
	fi
	if [ -z "$missing" ]; then
		t_ok "$what"
	else
		t_fail "$what" "missing:$missing"
	fi

	# A lab's drgn script: Python that compiles, with expectations that
	# an unrelated output does not meet, read at one wb_drgn_point of
	# the steps, and shown on the lab's page.
	if [ -f "$d/lab.drgn" ]; then
		bad=
		python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$d/lab.drgn" \
			2>"$tmp/drgn.err" || bad="$bad compile:$(tail -n 1 "$tmp/drgn.err")"
		[ "$(grep -c '^[[:space:]]*wb_drgn_point' "$d/run.sh")" = 1 ] || bad="$bad run.sh:wb_drgn_point"
		echo "an output that is not the lab's" >"$tmp/drgn.log"
		t_expects "-" "$d/lab.drgn" "$tmp/drgn.log" | grep -q '^not ok' || bad="$bad expect"
		grep -q "SCRIPT=labs/$lab/lab.drgn" "$d/README.rst" || bad="$bad README.rst:SCRIPT"
		if [ -z "$bad" ]; then
			t_ok "lab $lab: its lab.drgn compiles, has expectations, one drgn point, and its page shows it"
		else
			t_fail "lab $lab: its lab.drgn compiles, has expectations, one drgn point, and its page shows it" \
				"wrong:$bad"
		fi
	fi

	tracked=$(wb_lab_own_files "$lab" | while read -r path _k; do
		git -C "$WB_ROOT" ls-files --error-unmatch "labs/$lab/$path" >/dev/null 2>&1 && echo "$path"
	done)
	rm -rf "$tmp/skel"
	if [ -z "$tracked" ] && "$WB_ROOT/vm/skel.sh" "$lab" skeleton "$tmp/skel" 2>"$tmp/skel.err"; then
		t_ok "lab $lab: its student files are generated, none is stored"
	else
		t_fail "lab $lab: its student files are generated, none is stored" \
			"tracked: $tracked" "$(cat "$tmp/skel.err")"
	fi
	# The skeleton keeps every marker of the solution.
	todo=$(wb_lab_own_files "$lab" | while read -r path _k; do
		grep -q 'TODO [0-9]*:' "$tmp/skel/$path" 2>/dev/null || echo "$path"
	done)
	if [ -z "$todo" ]; then
		t_ok "lab $lab: every student file has TODO steps"
	else
		t_fail "lab $lab: every student file has TODO steps" "no TODO marker in: $todo"
	fi

	# Guest-side scripts refuse to run here. PATH is empty, so that even a
	# script that forgot its guard could not reach insmod or ip.
	for s in run.sh check.sh bench.sh; do
		[ -f "$d/$s" ] || continue
		rc=0
		out=$(env -i PATH=/nonexistent /bin/sh "$d/$s" 2>&1) || rc=$?
		if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q 'workbook VM'; then
			t_ok "lab $lab: $s refuses to run outside the workbook VM"
		else
			t_fail "lab $lab: $s refuses to run outside the workbook VM" "status $rc: $out"
		fi
	done
done
# tour-arch's init, built for this machine instead of a guest, refuses
# too: it is not process 1 here, and its steps load modules and write
# sysctls.
rc=0
if gcc -O2 -o "$tmp/xinit" "$WB_LABS/tour-arch/xinit.c" 2>"$tmp/xinit.err"; then
	out=$(env -i PATH=/nonexistent "$tmp/xinit" 2>&1) || rc=$?
	if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q 'refusing to run'; then
		t_ok "tour-arch: xinit refuses to run unless it is a guest's init"
	else
		t_fail "tour-arch: xinit refuses to run unless it is a guest's init" "status $rc: $out"
	fi
else
	t_fail "tour-arch: xinit refuses to run unless it is a guest's init" "it does not build: $(cat "$tmp/xinit.err")"
fi
rc=0
out=$(env -i PATH=/usr/bin:/bin /bin/sh -c ". '$WB_ROOT/vm/guest/lib.sh'; echo still-here" 2>&1) || rc=$?
if [ "$rc" != 0 ] && ! printf '%s' "$out" | grep -q still-here; then
	t_ok "the guest library stops any script that sources it on the host"
else
	t_fail "the guest library stops any script that sources it on the host" "$out"
fi

# Regenerating never loses a student's edit.
mkdir -p "$tmp/labs"
cp -r "$WB_LABS/lab0-taint" "$tmp/labs/"
WB_LABS=$tmp/labs "$WB_ROOT/vm/skel.sh" lab0-taint student 2>/dev/null
echo "/* my work */" >>"$tmp/labs/lab0-taint/taintmod.c"
out=$(WB_LABS=$tmp/labs "$WB_ROOT/vm/skel.sh" --regenerate lab0-taint 2>&1)
kept=$(find "$WB_CACHE/backup/lab0-taint" -newer "$tmp/labs/lab0-taint/lab.mk" -name taintmod.c 2>/dev/null | head -n 1)
if [ -n "$kept" ] && grep -q 'my work' "$kept" && printf '%s' "$out" | grep -q "$kept"; then
	t_ok "regenerating a skeleton keeps the student's edited copy and says where"
else
	t_fail "regenerating a skeleton keeps the student's edited copy and says where" "$out"
fi

# ---- grading ----
# While the checker runs, the student's programs run beside it (as root):
# a checker reads every helper it sources before it runs the first of
# them (docs/grading.rst, what the grader does not guarantee).
late=$(for f in "$WB_LABS"/*/check.sh; do
	awk -v f="${f#"$WB_ROOT"/}" '
		/^[[:space:]]*\. / && ran { print f ":" NR ": " $0 }
		/\/build\// && !/^[[:space:]]*#/ { ran = 1 }' "$f"
done)
t_status "every checker sources its helpers before it runs a program of the lab" "" "$late"
# wb_jail shows a build nothing of the host but /usr and what it names:
# not the cache, not a home folder, not the checkout.
if command -v bwrap >/dev/null 2>&1; then
	mkdir -p "$tmp/jail/rw"
	echo secret >"$tmp/jail/hidden"
	out=$(wb_jail 10 "" "$tmp/jail/rw" sh -c "cat $tmp/jail/hidden; ls $WB_ROOT $HOME $WB_CACHE; echo w >$tmp/jail/rw/f; cat $tmp/jail/rw/f" 2>&1)
	case $out in
	*secret* | *Makefile*) t_fail "a sandboxed build sees only /usr and its folders" "no host file" "$out" ;;
	*w) t_ok "a sandboxed build sees only /usr and its folders, and writes its own" ;;
	*) t_fail "a sandboxed build sees only /usr and its folders, and writes its own" "w" "$out" ;;
	esac
	rc=0
	wb_jail 1 "" "" sleep 10 2>/dev/null || rc=$?
	t_status "a sandboxed build past its limit is stopped (status 124)" 124 "$rc"
else
	t_fail "a sandboxed build sees only /usr and its folders" "bwrap" "not installed: apt-get install bubblewrap"
fi

# ---- gdb commands of the workbook ----
# wb-hits counts what gdb counts, less the stops that wb-continue went
# past as repeats of the previous one (here one is declared by hand on a
# host program, as wb-continue declares it). gdb runs sleep(1) under
# ptrace, which some containers forbid: the check then cannot run.
out=$(gdb -q -nx -batch -ex "source $WB_ROOT/vm/workbook.gdb" -ex "file /bin/sleep" \
	-ex "break nanosleep" -ex "break exit" -ex "run 0" -ex "wb-hits nanosleep exit" \
	-ex "python wb_stop_repeated()" -ex "wb-hits nanosleep exit" -ex kill 2>&1)
hits=$(printf '%s\n' "$out" | grep '^hits: ' | paste -sd/)
if [ "$hits" = "hits: nanosleep 1, exit 0/hits: nanosleep 0, exit 0" ]; then
	t_ok "wb-hits gives gdb's hit counts less the repeats wb-continue skipped"
elif printf '%s\n' "$out" | grep -q 'ptrace: Operation not permitted'; then
	ktap_skip "wb-hits gives gdb's hit counts less the repeats wb-continue skipped" \
		"gdb may not ptrace a program here"
else
	t_fail "wb-hits gives gdb's hit counts less the repeats wb-continue skipped" \
		"expected: hits: nanosleep 1, exit 0/hits: nanosleep 0, exit 0" "seen: $out"
fi

# ---- the kernel series ----
tree=$WB_KSRC
wb_series "$WB_KERNEL_DIR/series" >"$tmp/series"

# check_patch FILE NAME: git format-patch shape, then checkpatch --strict.
check_patch() {
	f=$1 p=$2
	miss=
	grep -q '^From 0\{40\} ' "$f" || miss="$miss From-line"
	grep -q '^Subject: \[PATCH' "$f" || miss="$miss Subject"
	grep -q '^Signed-off-by: ' "$f" || miss="$miss Signed-off-by"
	body=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { exit } s' "$f" | grep -vc '^\(Signed-off-by\|$\)')
	[ "$body" -ge 2 ] || miss="$miss body"
	if [ -z "$miss" ]; then
		t_ok "$p is a git format-patch with a subject, a body and Signed-off-by"
	else
		t_fail "$p is a git format-patch with a subject, a body and Signed-off-by" "missing:$miss"
	fi
	if [ -x "$tree/scripts/checkpatch.pl" ]; then
		if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict -q "$f" 2>&1); then
			t_ok "$p passes checkpatch.pl --strict"
		else
			t_fail "$p passes checkpatch.pl --strict" "$out"
		fi
	else
		t_fail "$p passes checkpatch.pl --strict" "no tree in $tree: run make kernel first"
	fi
}

while read -r p; do
	check_patch "$WB_KERNEL_DIR/patches/$p" "$p"
done <"$tmp/series"

# Every lab's exercise patch: format-patch shape, checkpatch --strict.
for lab in $(wb_lab_names); do
	for f in $(wb_lab_patches "$lab"); do
		check_patch "$f" "solutions/$lab/${f##*/}"
	done
done

# Drift: a tree file the exercise patch touches, changed away from the
# patch's hunks, keeps its change and is reported; changed inside a
# hunk, the patch stops with the file and the hunk. In a student
# repository, the same for a shipped skeleton that cuts lines from the
# tree (vm/skel.sh, ship): moved lines are found and reported, changed
# ones stop it.
# drift LAB VARIANT PATH INSIDE BESIDE-RE INSIDE-RE WHAT UNIT: the lab's
# VARIANT, made from a copy of the tree's files with a line added at the
# top of PATH, keeps that line and its TODO markers and says BESIDE-RE;
# with the sed command INSIDE run on the copy too, it stops and says
# INSIDE-RE. WHAT and UNIT name the exercise and what the stop names.
drift() {
	local f
	rm -rf "$tmp/base"
	{
		wb_lab_own_files "$1" | awk '$2 == "tree" { print $1 }'
		for f in $(wb_lab_patches "$1"); do wb_patch_files "$f"; done
	} | sort -u | while read -r f; do
		[ -f "$WB_KBASE/$f" ] || continue
		mkdir -p "$(dirname "$tmp/base/$f")"
		cp "$WB_KBASE/$f" "$tmp/base/$f"
	done
	sed -i '1a /* a change Debian made */' "$tmp/base/$3"
	rc=0
	out=$(WB_KBASE=$tmp/base "$WB_ROOT/vm/skel.sh" "$1" "$2" "$tmp/drift" 2>&1) || rc=$?
	if [ "$rc" = 0 ] && grep -q 'a change Debian made' "$tmp/drift/$3" &&
		grep -q 'TODO [0-9]*:' "$tmp/drift/$3" && printf '%s' "$out" | grep -q -- "$5"; then
		t_ok "a tree change beside $7 is kept and reported as drift"
	else
		t_fail "a tree change beside $7 is kept and reported as drift" "status $rc: $out"
	fi
	sed -i "$4" "$tmp/base/$3"
	rc=0
	out=$(WB_KBASE=$tmp/base "$WB_ROOT/vm/skel.sh" "$1" "$2" "$tmp/drift2" 2>&1) || rc=$?
	if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q -- "$6"; then
		t_ok "a tree change inside $7 stops it, naming the file and the $8"
	else
		t_fail "a tree change inside $7 stops it, naming the file and the $8" "status $rc: $out"
	fi
}
cuts=$(grep -l '^cut ' "$WB_SKELETONS"/*/skeleton.patch 2>/dev/null | head -n 1)
clab=$(basename "$(dirname "$cuts")")
if [ -n "$cuts" ] && wb_lab_shipped "$clab"; then
	# "cut PATH FIRST COUNT SUM"; the line added on top moves it by one.
	# shellcheck disable=SC2046
	set -- $(grep -m 1 '^cut ' "$cuts")
	drift "$clab" skeleton "$2" "$(($3 + 1))s/\$/ \/* and one inside *\//" \
		"tree moved under skeletons/$clab/skeleton.patch: the $4 lines of $2" \
		"the $4 lines of $2 from line $3 .* the tree changed inside the exercise" \
		"a shipped skeleton's cut lines" lines
elif [ -f "$WB_KBASE/drivers/scsi/scsi_debug.c" ]; then
	drift ia-ranges solution drivers/scsi/scsi_debug.c \
		's/if (is_disk && sdebug_cpr_ranges > 0)/if (is_disk \&\& sdebug_cpr_ranges > 1)/' \
		'tree moved under' 'failing hunk #[0-9]* of drivers/scsi/scsi_debug.c' "the exercise" hunk
else
	t_fail "the drift tests have a tree" "no $WB_KBASE/drivers/scsi/scsi_debug.c: run make kernel first"
fi

# Every figure of the book says in words what it shows: each graphviz,
# figure, image and data-plot directive has an :alt: option among the
# lines before its first blank line (its options, captions included).
# shellcheck disable=SC2016 # the $ are awk's
out=$(cd "$WB_ROOT" && find index.rst chapters docs labs solutions -name '*.rst' \
	-not -path '*/_build/*' 2>/dev/null | sort | xargs awk '
	function close_fig() { if (fig) { n++; if (!alt) print at }; fig = 0 }
	FNR == 1 { close_fig() }
	fig && /^[[:space:]]*$/ { close_fig(); next }
	fig && $1 == ":alt:" { alt = 1 }
	fig { next }
	/^[[:space:]]*\.\. (graphviz|figure|image|data-plot)::/ { fig = 1; alt = 0; at = FILENAME ":" FNR }
	END { close_fig(); print "figures", n + 0 }')
figures=$(printf '%s\n' "$out" | sed -n 's/^figures //p')
# shellcheck disable=SC2046 # one word per figure without its text
set -- $(printf '%s\n' "$out" | grep -v '^figures ')
if [ "$figures" -gt 0 ] && [ $# = 0 ]; then
	t_ok "every one of the book's $figures figures has alt text"
else
	t_fail "every one of the book's figures has alt text" "$figures figures, without :alt: at: $*"
fi

# No upstream file stored whole: of the tracked lines, under 5% are found
# in the tree file of the same name (vm/upstream-share.sh says how).
if share=$("$WB_ROOT/vm/upstream-share.sh" 2>&1) &&
	awk -v p="${share##* }" 'BEGIN { exit !(p < 5) }'; then
	t_ok "tracked lines that are upstream copies: ${share##* }% (under 5%)"
else
	t_fail "tracked lines that are upstream copies: under 5%" "seen: $share" \
		"the files with upstream lines: vm/upstream-share.sh -v"
fi
t_done
