#!/bin/sh
# make soak [LAB="name ..."] [N=10]: each lab's check (tests/check-lab.sh:
# solution passes, skeleton fails, gdb sees what it should) N times in a
# row, then a table: passes, median and worst time per lab. A flaky check
# is a failing check: the status is 0 only if every run of every lab
# passed. Each run's output is kept in $WB_CACHE/soak/LAB/RUN.log.
# In a student repository, a lab without its solution is soaked with
# the student's own files instead (tests/check-lab.sh --own): they pass,
# and gdb sees what it should.
set -u
WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
export WB_ROOT
. "$WB_ROOT/vm/lib.sh"

n=${N:-10}
case $n in
'' | *[!0-9]* | 0) wb_die "N must be a number of runs (1 or more), not '$n'" ;;
esac
labs=${*:-$(wb_lab_names)}
for lab in $labs; do
	wb_lab_require "$lab"
done
wb_need_cache
out=$WB_CACHE/soak
table=$(mktemp)
trap 'rm -f "$table"' EXIT
bad=0
for lab in $labs; do
	mkdir -p "$out/$lab"
	pass=0 times=
	own=
	if ! wb_lab_is_tour "$lab" && wb_lab_shipped "$lab"; then
		own=--own
	fi
	i=1
	while [ "$i" -le "$n" ]; do
		start=$(date +%s)
		rc=0
		sh "$WB_ROOT/tests/check-lab.sh" $own "$lab" >"$out/$lab/$i.log" 2>&1 </dev/null || rc=$?
		took=$(($(date +%s) - start))
		times="$times $took"
		if [ "$rc" = 0 ] && [ "$(wb_ktap_count "$out/$lab/$i.log" fail)" = 0 ]; then
			pass=$((pass + 1))
			wb_say "soak $lab: run $i of $n passed in $took s"
		else
			bad=1
			wb_say "soak $lab: run $i of $n FAILED in $took s (log: $out/$lab/$i.log):"
			wb_ktap failures "$out/$lab/$i.log" | head -n 12 | sed 's/^/    /' >&2
		fi
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	printf '%s\n' $times | wb_stats | awk -v lab="$lab" -v pass="$pass" -v n="$n" '
		{ printf "%-16s %3d/%-3d %8.1f %6d\n", lab, pass, n, $1, $3 }' >>"$table"
done
printf '%-16s %7s %8s %6s\n' lab passes median worst
cat "$table"
exit "$bad"
