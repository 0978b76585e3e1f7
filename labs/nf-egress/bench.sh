#!/bin/sh
# Netfilter on egress: the cost table (make bench). pktgen sends UDP
# packets through dev_queue_xmit() on dummy0 under five configurations.
# TCG makes the rate drift with the host's load, so every run of a
# configuration is sandwiched between two baseline runs and divided by
# their mean; a round measures the four configurations once each, in an
# order that rotates from round to round. The baseline row shows the
# noise floor: each baseline run divided by the one before it. Writes
# /build/bench.rst and /build/bench.tsv.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=nf-egress" >&2; exit 1; }
. /wb/lib.sh
. /lab/pktgen.sh

ROUNDS=${ROUNDS:-6}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-2}
ROWS="tc_accept tc_drop nft_dev nft_other"
OUT=/build
TSV=$OUT/bench.tsv

label() {
	case $1 in
	baseline) echo "baseline: no tc filter, no egress chain anywhere" ;;
	tc_accept) echo "tc egress filter on dummy0 accepting all" ;;
	tc_drop) echo "tc egress filter on dummy0 dropping all" ;;
	nft_dev) echo "nft egress chain on dummy0 (empty, policy accept)" ;;
	nft_other) echo "nft egress chain on dummy1 only (static key on)" ;;
	esac
}

# What is configured now; setup only undoes that, to keep the commands
# between runs (each one a program started over 9p) few.
CUR=baseline

undo() {
	case $CUR in
	tc_*) tc qdisc del dev dummy0 clsact ;;
	nft_*) nft delete table netdev bench ;;
	esac
	CUR=baseline
}

# setup ROW: configure the kernel for one row.
setup() {
	[ "$1" = "$CUR" ] && return 0
	undo
	case $1 in
	tc_accept | tc_drop)
		verdict=ok
		[ "$1" = tc_drop ] && verdict=drop
		tc qdisc add dev dummy0 clsact
		tc filter add dev dummy0 egress matchall action gact "$verdict"
		;;
	nft_dev | nft_other)
		dev=dummy0
		[ "$1" = nft_other ] && dev=dummy1
		echo "table netdev bench { chain out { type filter hook egress device \"$dev\" priority 0; policy accept; }; }" |
			nft -f -
		;;
	esac
	CUR=$1
}

# measure: one run of SECONDS_PER_RUN seconds. Prints packets per second,
# counting the packets tc dropped (pktgen's errors) as sent, since they
# went through the same path up to the verdict.
measure() {
	pg_start
	sleep "$SECONDS_PER_RUN"
	pg_stop
	pg_result dummy0 | awk '{ printf "%d\n", ($2 + $3) * 1000000 / $1 }'
}

ip link set dummy0 up
ip link add dummy1 type dummy 2>/dev/null || :
ip link set dummy1 up
# The drops log a rate-limited "xmit error"; keep them off the console.
echo 1 >/proc/sys/kernel/printk
pg_setup dummy0 0

: >"$TSV"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# Rotate the order: round r starts with row r (modulo 4), so that
	# no row always runs first or last.
	# shellcheck disable=SC2086
	set -- $ROWS
	i=1
	while [ "$i" -lt "$r" ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	setup baseline
	prev=$(measure)
	for row; do
		setup "$row"
		pps=$(measure)
		setup baseline
		next=$(measure)
		# row pps, its ratio to the mean of the two baselines around
		# it; baseline pps, its ratio to the baseline before it.
		awk -v r="$r" -v row="$row" -v x="$pps" -v a="$prev" -v b="$next" 'BEGIN {
			printf "%s\t%s\t%d\t%.4f\n", r, row, x, 2 * x / (a + b)
			printf "%s\tbaseline\t%d\t%.4f\n", r, b, b / a
		}' >>"$TSV"
		echo "round $r: baseline $prev, $row $pps, baseline $next pps"
		prev=$next
	done
	r=$((r + 1))
done
undo
ip link del dummy1

echo "hooks at the end:"
cat /proc/net/netfilter/nf_netdev_hooks

# The table: per row, the median pps and the median, min and max of
# its ratios.
for row in baseline $ROWS; do
	printf 'label\t%s\t%s\n' "$row" "$(label "$row")"
done >"$OUT/bench.labels"
awk -F '\t' -v rounds="$ROUNDS" -v secs="$SECONDS_PER_RUN" -v rows="baseline $ROWS" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$1 == "label" { name[$2] = $3; next }
	{ k = ++n[$2]; pps[$2, k] = $3; ratio[$2, k] = $4 }
	END {
		print "pktgen (``queue_xmit`` mode, 60-byte UDP packets, one kernel"
		print "thread) on ``dummy0`` in the TCG guest: " rounds " rounds, " secs " s per run."
		print "Each run of a configuration is divided by the mean of the two"
		print "baseline runs just before and after it; the baseline row divides"
		print "each baseline run by the one before it, which shows how much TCG"
		print "alone moves the rate. Median packet rate, then the median, smallest"
		print "and largest ratio. Packets dropped by tc count as sent (pktgen"
		print "reports them as errors). Absolute rates under TCG say nothing about"
		print "real hardware."
		print ""
		print ".. list-table::"
		print "   :header-rows: 1"
		print ""
		print "   * - configuration"
		print "     - runs"
		print "     - median kpps"
		print "     - ratio (median)"
		print "     - min"
		print "     - max"
		m = split(rows, names, " ")
		for (k = 1; k <= m; k++) {
			row = names[k]
			c = n[row]
			for (i = 1; i <= c; i++) {
				p[i] = pps[row, i]
				q[i] = ratio[row, i]
			}
			printf "   * - %s\n", name[row]
			printf "     - %d\n", c
			printf "     - %.0f\n", median(p, c) / 1000
			printf "     - %.3f\n", median(q, c)
			printf "     - %.3f\n", q[1]
			printf "     - %.3f\n", q[c]
		}
	}' "$OUT/bench.labels" "$TSV" >"$OUT/bench.rst"
cat "$OUT/bench.rst"
