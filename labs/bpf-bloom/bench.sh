#!/bin/sh
# The Bloom-filter map against a hash map: lookup time for the same
# values, for several numbers of hashes. Run by make bench in the guest
# (solution kernel); writes /build/bench.rst and /build/bench.tsv.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=bpf-bloom" >&2; exit 1; }
. /wb/lib.sh

runs=7
tsv=/build/bench.tsv
/build/bloom bench $runs >$tsv

# For each k and each case (values present, values absent): the ratio of
# the hash map's lookup time to the filter's, net of the loop's own time
# (walk_range), per run; then the median, min and max over the runs.
# Above 1, the filter answers faster than the hash map.
ratios() {
	awk -v col_h="$1" -v col_b="$2" '
		!/^#/ { hn = $col_h - $3; bn = $col_b - $3
			if (bn > 0) print $1, hn / bn }' $tsv |
		sort -k1,1n -k2,2g |
		awk '{ v[$1, ++n[$1]] = $2 }
		END {
			for (k = 1; k <= 15; k++) {
				if (!n[k]) continue
				c = n[k]
				med = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
				printf "%d %.2f %.2f %.2f\n", k, med, v[k, 1], v[k, c]
			}
		}'
}
ratios 4 5 >/tmp/present
ratios 6 7 >/tmp/absent

{
	cat <<TXT
Lookup time of the Bloom filter against a hash map holding the same
10000 values (4-byte keys), measured in the guest with
\`\`BPF_PROG_TEST_RUN\`\`: a tc program looks up 4096 values with
\`\`bpf_loop()\`\`, 20 times per run, first values that are in both maps,
then values in neither. The time of the same loop without a lookup is
subtracted, and the table gives the hash map's time divided by the
filter's: above 1 the filter answers faster. Median of $runs runs, with
the smallest and largest ratio in brackets. The guest runs under TCG
(software emulation of the JIT-compiled code), so only ratios mean
anything.

.. list-table::
   :header-rows: 1

   * - hashes (k)
     - values present: hash / filter
     - values absent: hash / filter
TXT
	join /tmp/present /tmp/absent | while read -r k pm pmin pmax am amin amax; do
		printf '   * - %s\n     - %s (%s-%s)\n     - %s (%s-%s)\n' \
			"$k" "$pm" "$pmin" "$pmax" "$am" "$amin" "$amax"
	done
} >/build/bench.rst
cat /build/bench.rst
