# shellcheck shell=sh
# Helpers for the harness's own tests (tests/t-*.sh, tests/check-lab.sh).
# Each test prints KTAP through vm/ktap.sh, the emitter the labs'
# checkers use in the guest: "ok N description" or "not ok N description"
# and, on failure, what was expected and what was seen. tests/run.sh
# nests each test's report in its own. A test that knows how many
# results it prints says so first with t_plan; one that does not (its
# count depends on the labs and patches it finds) prints no plan, which
# KTAP allows.
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
export WB_ROOT
. "$WB_ROOT/vm/lib.sh"
. "$WB_ROOT/vm/ktap.sh"

# t_plan N: N results follow; call it before printing anything else.
t_plan() {
	ktap_plan "$1"
}

t_ok() {
	ktap_ok "$@"
}

# t_fail DESCRIPTION [DETAILS...]
t_fail() {
	ktap_not_ok "$@"
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

# t_expects DESCRIPTION SCRIPT LOG: every "# expect:" line of SCRIPT (a
# lab's lab.gdb or lab.drgn), an extended regular expression, matches a
# line of LOG, what the script printed; a script without one, or an
# empty LOG, fails.
t_expects() {
	t_missing=$(sed -n 's/^# expect: //p' "$2" | while read -r t_re; do
		tr -d '\r' <"$3" 2>/dev/null | grep -Eq -- "$t_re" || echo "$t_re"
	done)
	if ! grep -q '^# expect: ' "$2"; then
		t_fail "$1" "$2 has no \"# expect:\" line"
	elif [ -z "$t_missing" ] && [ -s "$3" ]; then
		t_ok "$1"
	else
		t_fail "$1"
		printf '%s\n' "$t_missing" | sed 's/^/# missing: /'
		echo "# printed (last 20 lines of $3):"
		tail -n 20 "$3" 2>/dev/null | sed 's/^/#   /'
	fi
}

# t_no_leftovers DESCRIPTION RUNDIR: no process a run started outlives
# it. What a boot may leave running is vm/lib.sh's list, WB_PIDFILES,
# each as RUNDIR/NAME.pid, so that a new one is checked here too.
t_no_leftovers() {
	t_left=
	for t_name in $WB_PIDFILES; do
		t_pidfile=$2/$t_name.pid
		[ -f "$t_pidfile" ] || continue
		t_pid=$(cat "$t_pidfile")
		if [ -n "$t_pid" ] && kill -0 "$t_pid" 2>/dev/null; then
			t_left="$t_left $t_name=$t_pid"
		fi
	done
	if [ -z "$t_left" ]; then
		t_ok "$1"
	else
		t_fail "$1" "still running:$t_left"
	fi
}

# The totals line; the status is 0 only if nothing failed (and, with a
# plan, as many results as planned were printed).
t_done() {
	ktap_done
}
