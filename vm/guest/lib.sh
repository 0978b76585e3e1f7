# shellcheck shell=sh
# Guest-side helpers, at /wb/lib.sh inside the workbook VM. Every lab
# script sources it first; sourcing it anywhere else stops the script,
# so that no lab step ever touches the host's kernel.

if ! grep -q 'wb\.vm=kernel-workbook' /proc/cmdline 2>/dev/null; then
	echo "refusing to run: this is not the workbook VM (no wb.vm marker in /proc/cmdline). Use: make lab LAB=<name>" >&2
	exit 1
fi

# wb_param NAME: the value of NAME=value on the kernel command line.
wb_param() {
	sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline
}

# Show a command before running it, as the student would type it.
wb_run() {
	echo "# $*"
	"$@"
}

# ---- KTAP (Documentation/dev-tools/ktap.rst) --------------------------

KTAP_N=0
KTAP_FAILED=0
KTAP_PLAN=0

ktap_plan() {
	KTAP_PLAN=$1
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_ok() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $*"
}

# ktap_fail DESCRIPTION EXPECTED SEEN
ktap_fail() {
	KTAP_N=$((KTAP_N + 1))
	KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_N $1"
	printf '%s\n' "$2" | sed 's/^/# expected: /'
	printf '%s\n' "${3:-(nothing)}" | sed 's/^/# seen: /'
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1))
	echo "ok $KTAP_N $1 # SKIP $2"
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

# ktap_true DESCRIPTION EXPECTED-IN-WORDS COMMAND...
ktap_true() {
	d=$1 e=$2
	shift 2
	if out=$("$@" 2>&1); then
		ktap_ok "$d"
	else
		ktap_fail "$d" "$e" "$out"
	fi
}

# Close the report: the number of results must match the plan. The
# status says whether everything passed.
ktap_done() {
	if [ "$KTAP_N" -ne "$KTAP_PLAN" ]; then
		echo "# planned $KTAP_PLAN results, reported $KTAP_N"
		return 1
	fi
	echo "# $((KTAP_N - KTAP_FAILED)) passed, $KTAP_FAILED failed"
	[ "$KTAP_FAILED" -eq 0 ]
}
