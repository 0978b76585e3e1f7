#!/bin/sh
# make check: every test of the workbook as one KTAP report
# (Documentation/dev-tools/ktap.rst), ending with the line
# "N passed, N failed". Exit status 0 only if nothing failed.
#
#   tests/run.sh              the harness's tests (the fast ones first),
#                             then every lab
#   tests/run.sh --fast       the fast ones only (make check-fast): no
#                             extracted tree, no kernel, no VM
#   tests/run.sh --lab NAME   one lab only (solution passes, skeleton fails)
#
# In a student repository (make student-repo) the harness's tests are
# those that need no solution, and a lab's check is its skeleton's alone
# (tests/check-lab.sh).
#
# Each unit (a tests/f-*.sh or t-*.sh script, or tests/check-lab.sh for
# one lab)
# is a subtest: its own KTAP, indented by two spaces, then the unit's
# result line. The units are known before any runs, so the plan comes
# first; a unit's own plan is kept when the unit prints it first (see
# t_plan). A unit that knows no count up front has no plan, which KTAP
# allows; its "# Subtest: NAME" line is what lets a parser find where
# it ends. The lines are passed on as they come, so that a long unit
# (a kernel build, a lab's boots) shows its progress.
#
# The final count is of the units' own results ("ok" with or without
# SKIP counts as passed), plus one failure for a unit that failed
# without saying so: it exited non-zero with no "not ok" line, reported
# another number of results than it planned, or none at all.
set -u
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
export WB_ROOT
cd "$WB_ROOT" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case ${1:-} in
--lab)
	tests=
	labs=${2:?usage: tests/run.sh [--fast | --lab NAME]}
	;;
--fast)
	tests=$(printf '%s\n' tests/f-*.sh)
	labs=
	;;
*)
	tests=$(printf '%s\n' tests/f-*.sh tests/t-*.sh)
	labs=$(. vm/lib.sh && wb_lab_names)
	;;
esac
units=0
for u in $tests $labs; do
	units=$((units + 1))
done

passed=0 failed=0 skipped=0 u=0

# is_number WORD
is_number() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
}

# relay NAME: a unit's output on stdin, printed line by line as its
# subtest, each line as it comes. A shell loop, not awk: Debian's mawk
# reads a pipe in blocks, which would hold a unit's progress back until
# it ends. The counts go to $tmp/state: results, failures, skips,
# results past the plan, and the plan ("-" for none).
relay() {
	n=0 nok=0 skip=0 over=0 plan=- started='' planning=''
	while IFS= read -r line || [ -n "$line" ]; do
		if [ -z "$started" ]; then
			# The subtest opens with the unit's first line. The
			# unit's own version line is replaced by this one, and
			# its plan counts only before any other line.
			printf '  KTAP version 1\n  # Subtest: %s\n' "$1"
			started=1 planning=1
			case $line in
			"KTAP version "*) continue ;;
			esac
		fi
		if [ -n "$planning" ] && is_number "${line#1..}" && [ "$line" != "${line#1..}" ]; then
			plan=${line#1..} planning=''
			printf '  %s\n' "$line"
			continue
		fi
		planning=''
		result='' rest=''
		case $line in
		"ok "[0-9]*) result=ok rest=${line#ok } ;;
		"not ok "[0-9]*) result="not ok" rest=${line#not ok } ;;
		"KTAP version "*)
			# The emitter's own, printed with its first result
			# when there was no plan: the subtest is already open.
			continue
			;;
		'#'*)
			printf '  %s\n' "$line"
			continue
			;;
		'')
			echo "  #"
			continue
			;;
		*)
			# Anything else (a build's progress, an error message)
			# becomes a diagnostic, so that it is never read as a
			# result.
			printf '  # %s\n' "$line"
			continue
			;;
		esac
		num=${rest%% *}
		if ! is_number "$num"; then
			printf '  # %s\n' "$line"
			continue
		fi
		if [ "$plan" != - ] && [ "$n" -ge "$plan" ]; then
			# A result past the plan would make the report invalid:
			# it is kept as a diagnostic, and the unit fails for it.
			over=$((over + 1))
			printf '  # past the plan: %s\n' "$line"
			continue
		fi
		n=$((n + 1))
		[ "$result" = ok ] || nok=$((nok + 1))
		case $rest in
		*" # SKIP" | *" # SKIP "*) skip=$((skip + 1)) ;;
		esac
		printf '  %s %s%s\n' "$result" "$n" "${rest#"$num"}"
	done
	if [ -z "$started" ]; then
		printf '  KTAP version 1\n  # Subtest: %s\n' "$1"
	fi
	echo "$n $nok $skip $over $plan" >"$tmp/state"
}

# unit NAME COMMAND...: run one unit and print it as subtest u+1.
unit() {
	name=$1
	shift
	u=$((u + 1))
	start=$(date +%s)
	echo 1 >"$tmp/rc"
	{
		"$@" 2>&1 </dev/null
		echo "$?" >"$tmp/rc"
	} | relay "$name"
	read -r n nok skip over plan <"$tmp/state"
	rc=$(cat "$tmp/rc")
	why=
	if [ "$rc" != 0 ] && [ "$nok" = 0 ]; then
		why="exited with status $rc without a failed result"
	fi
	if [ "$plan" != - ] && [ $((n + over)) != "$plan" ]; then
		why="${why:+$why, }reported $((n + over)) of $plan planned results"
	elif [ "$n" = 0 ]; then
		why="${why:+$why, }reported no results"
	fi
	extra=0
	if [ -n "$why" ]; then
		# As a result of its own while the unit's plan has room for
		# one, so that the subtest's count says it failed; past the
		# plan, as a diagnostic, and counted here all the same.
		if [ "$plan" = - ] || [ "$n" -lt "$plan" ]; then
			n=$((n + 1))
			nok=$((nok + 1))
			echo "  not ok $n $name: $why"
		else
			echo "  # $name: $why"
			extra=1
		fi
	fi
	passed=$((passed + n - nok))
	failed=$((failed + nok + extra))
	skipped=$((skipped + skip))
	echo "# $name: $(($(date +%s) - start)) s"
	if [ "$nok" = 0 ] && [ "$extra" = 0 ]; then
		echo "ok $u $name"
	else
		echo "not ok $u $name"
	fi
}

echo "KTAP version 1"
echo "1..$units"
for t in $tests; do
	unit "${t#tests/}" sh "$t"
done
for l in $labs; do
	unit "lab $l" sh tests/check-lab.sh "$l"
done
echo "# Totals: pass:$((passed - skipped)) fail:$failed xfail:0 xpass:0 skip:$skipped error:0"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
