#!/bin/sh
# make check: every test of the workbook, in KTAP, ending with the line
# "N passed, N failed". Exit status 0 only if nothing failed.
#
#   tests/run.sh              the harness's tests, then every lab
#   tests/run.sh --lab NAME   one lab only (solution passes, skeleton fails)
#
# A unit is a script that prints "ok N ..." / "not ok N ..." lines; here
# they are renumbered into one report.
set -u
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
export WB_ROOT
cd "$WB_ROOT" || exit 1

count=$(mktemp)
trap 'rm -f "$count"' EXIT
echo 0 >"$count"

unit() {
	name=$1
	shift
	echo "# ---- $name"
	start=$(date +%s)
	{
		"$@" 2>&1 </dev/null
		echo "WB-UNIT-STATUS $?"
	} | awk -v n="$(cat "$count")" -v cnt="$count" '
		/^WB-UNIT-STATUS / { rc = $2; next }
		/^ok [0-9]+ / { n++; sub(/^ok [0-9]+ /, "ok " n " "); print; fflush(); next }
		/^not ok [0-9]+ / { n++; nok++; sub(/^not ok [0-9]+ /, "not ok " n " "); print; fflush(); next }
		{ print "# " $0; fflush() }
		END {
			if (rc != 0 && !nok) { n++; print "not ok " n " '"$name"' (exit status " rc ")" }
			print n > cnt
		}'
	echo "# $name: $(($(date +%s) - start)) s"
}

echo "KTAP version 1"
report=$(mktemp)
{
	if [ "${1:-}" = --lab ]; then
		unit "lab $2" sh tests/check-lab.sh "$2"
	else
		for t in tests/t-*.sh; do
			unit "${t#tests/}" sh "$t"
		done
		for l in $(. vm/lib.sh && wb_lab_names); do
			unit "lab $l" sh tests/check-lab.sh "$l"
		done
	fi
} | tee "$report"
echo "1..$(cat "$count")"
passed=$(grep -c '^ok ' "$report")
failed=$(grep -c '^not ok ' "$report")
rm -f "$report"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
