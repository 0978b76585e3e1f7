# shellcheck shell=sh
# KTAP, the format of the kernel's own test results
# (Documentation/dev-tools/ktap.rst), the one emitter of the workbook:
# sourced by the guest's /wb/lib.sh (as /wb/ktap.sh) for the labs'
# checkers and by tests/lib.sh for the harness's own tests. It only
# prints; it never runs anything of its own, so it is safe on both sides.
#
#   KTAP version 1
#   1..3
#   ok 1 a check that passed
#   not ok 2 a check that failed
#   # expected: what the check wanted
#   # seen: what it got
#   ok 3 a check that could not run # SKIP why
#   ok 4 a check worth two points
#   # points: 2
#   # Totals: pass:2 fail:1 xfail:0 xpass:0 skip:1 error:0
#
# The version line comes first and the plan right after it, as the spec
# wants; a caller that cannot know its count up front gives no plan (the
# spec allows that) and the version line is printed with the first
# result. The last line is kselftest's count of the results.
#
# Every variable and helper is KTAP_/ktap_ prefixed: the callers are
# plain scripts that source this file, and must keep their own names.

KTAP_N=0
KTAP_FAILED=0
KTAP_SKIPPED=0
KTAP_PLAN=
KTAP_STARTED=
KTAP_POINTS=

# The version line, once, before anything else of the report.
ktap_header() {
	if [ -z "$KTAP_STARTED" ]; then
		KTAP_STARTED=1
		echo "KTAP version 1"
	fi
}

# ktap_plan N: N results follow. A plan is only valid before the first
# result; a late one is kept for ktap_done's count but printed as a
# diagnostic, so that the report stays valid KTAP.
ktap_plan() {
	ktap_header
	KTAP_PLAN=$1
	if [ "$KTAP_N" -eq 0 ]; then
		echo "1..$1"
	else
		echo "# plan of $1 results given after result $KTAP_N"
	fi
}

# ktap_diag TEXT: each line of TEXT as a diagnostic line.
ktap_diag() {
	printf '%s\n' "$1" | sed 's/^/# /'
}

# ktap_result ok|"not ok" DESCRIPTION [DIRECTIVE]: the one place a result
# line is printed and numbered. printf, not echo: a description may hold
# a backslash, which dash's and busybox's echo would interpret.
ktap_result() {
	ktap_header
	KTAP_N=$((KTAP_N + 1))
	printf '%s %s %s%s\n' "$1" "$KTAP_N" "$2" "${3:+ # $3}"
	[ "${KTAP_POINTS:-1}" = 1 ] || echo "# points: $KTAP_POINTS"
	KTAP_POINTS=
}

# ktap_points N: the next result is worth N points in make grade (a
# result is worth one without), said right after its line as
# "# points: N". The weight stands where the check is made, so that a
# check added before it shifts nothing.
ktap_points() {
	KTAP_POINTS=$1
}

ktap_ok() {
	ktap_result ok "$*"
}

# ktap_not_ok DESCRIPTION [DIAGNOSTIC...]: a failure, each further
# argument printed after it as diagnostic lines.
ktap_not_ok() {
	KTAP_FAILED=$((KTAP_FAILED + 1))
	ktap_result "not ok" "$1"
	shift
	for ktap_d; do
		ktap_diag "$ktap_d"
	done
}

# ktap_fail DESCRIPTION EXPECTED SEEN. The diagnostics follow the result
# line (the spec allows them anywhere): that is where vm/lab.sh's summary
# of a failed check, and the labs' READMEs, look for them.
ktap_fail() {
	KTAP_FAILED=$((KTAP_FAILED + 1))
	ktap_result "not ok" "$1"
	printf '%s\n' "$2" | sed 's/^/# expected: /'
	printf '%s\n' "${3:-(nothing)}" | sed 's/^/# seen: /'
}

# ktap_skip DESCRIPTION REASON: the check could not run; it counts as
# neither a pass nor a failure.
ktap_skip() {
	KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	ktap_result ok "$1" "SKIP${2:+ $2}"
}

# ktap_eq DESCRIPTION EXPECTED SEEN
ktap_eq() {
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "$2" "$3"
	fi
}

# ktap_match DESCRIPTION EXTENDED-REGEX SEEN
ktap_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "a line matching /$2/" "$3"
	fi
}

# ktap_expect DESCRIPTION ACTUAL ERE WRONG: one result of a tour's
# checker. It passes when ACTUAL matches the extended regular expression
# ERE. In a tour's negative run (KTAP_NEGATIVE=1: the guest's library
# sets it from wb.negative=1 on the kernel command line, a host-side
# tour from its variant) WRONG, an expectation the demo must not meet,
# is used instead, so that every result of the tour is seen to fail
# once: no assertion is vacuous.
ktap_expect() {
	ktap_w=$3
	[ "${KTAP_NEGATIVE:-0}" != 1 ] || ktap_w=$4
	if printf '%s\n' "$2" | grep -Eq -- "$ktap_w"; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "matching /$ktap_w/" "$(printf '%s' "$2" | head -n 5)"
	fi
}

# ktap_true DESCRIPTION EXPECTED-IN-WORDS COMMAND...: the command
# succeeds; if not, what it printed is what was seen.
ktap_true() {
	ktap_d=$1 ktap_e=$2
	shift 2
	if ktap_out=$("$@" 2>&1); then
		ktap_ok "$ktap_d"
	else
		ktap_fail "$ktap_d" "$ktap_e" "$ktap_out"
	fi
}

# Close the report with kselftest's totals line. The status says
# whether everything passed and, when there was a plan, whether as many
# results as planned were reported.
ktap_done() {
	ktap_header
	ktap_rc=0
	if [ -n "$KTAP_PLAN" ] && [ "$KTAP_N" -ne "$KTAP_PLAN" ]; then
		echo "# Planned tests != run tests ($KTAP_PLAN != $KTAP_N)"
		ktap_rc=1
	fi
	[ "$KTAP_FAILED" -eq 0 ] || ktap_rc=1
	echo "# Totals: pass:$((KTAP_N - KTAP_FAILED - KTAP_SKIPPED)) fail:$KTAP_FAILED xfail:0 xpass:0 skip:$KTAP_SKIPPED error:0"
	return "$ktap_rc"
}
