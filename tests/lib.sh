# shellcheck shell=sh
# Helpers for the harness's own tests (tests/t-*.sh). Each test prints
# "ok N description" or "not ok N description" lines and, on failure,
# what was expected and what was seen.
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
export WB_ROOT
. "$WB_ROOT/vm/lib.sh"
T_N=0
T_FAILED=0

t_ok() {
	T_N=$((T_N + 1))
	echo "ok $T_N $*"
}

# t_fail DESCRIPTION [DETAILS...]
t_fail() {
	T_N=$((T_N + 1))
	T_FAILED=$((T_FAILED + 1))
	echo "not ok $T_N $1"
	shift
	for d; do
		printf '%s\n' "$d" | sed 's/^/# /'
	done
}

# t_grep DESCRIPTION EXTENDED-REGEX FILE: the file has a matching line.
t_grep() {
	if grep -Eq -- "$2" "$3"; then
		t_ok "$1"
	else
		t_fail "$1" "expected a line matching /$2/ in:" "$(tail -n 20 "$3")"
	fi
}

# t_status DESCRIPTION EXPECTED SEEN
t_status() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1" "expected exit status $2, seen $3"
	fi
}

# t_nonzero DESCRIPTION STATUS
t_nonzero() {
	if [ "$2" != 0 ]; then
		t_ok "$1"
	else
		t_fail "$1" "expected a non-zero exit status, seen 0"
	fi
}

# No process a run started may outlive it: QEMU, its timeout and gdb.
t_no_leftovers() {
	left=
	for f in "$2"/qemu.pid "$2"/gdb.pid "$2"/timeout.pid; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
			left="$left $(basename "$f" .pid)=$pid"
		fi
	done
	if [ -z "$left" ]; then
		t_ok "$1"
	else
		t_fail "$1" "still running:$left"
	fi
}

t_done() {
	[ "$T_FAILED" = 0 ]
}
