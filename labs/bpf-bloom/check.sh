#!/bin/sh
# The BPF Bloom-filter map: the checker (KTAP). It pushes and peeks from
# user space and from BPF programs, tries the bad inputs, compares the
# kernel's bitset with the sizing rule, measures false positives against
# theory, then runs the tree's own selftest.
#
# The tolerance of the false-positive test: a cell counts when theory
# expects at least 400 false positives among its 262144 probes (binomial
# spread under 5 %; the filter's own randomness, a random hash seed and
# a random fill of the bits, adds a few percent at k = 15); the measured
# rate must be within 20 % of theory, relative, which is over 3 standard
# deviations for every counted cell. At least 40 of the 60 cells count.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=bpf-bloom" >&2; exit 1; }
. /wb/lib.sh

cd /build || exit 1
ktap_plan 17

# ---- user space ---------------------------------------------------------

demo=$(./bloom demo 2>&1)
ktap_eq "demo: a filter with map_extra 3 reports it in fdinfo" \
	"  fdinfo map_extra:	0x3" "$(printf '%s\n' "$demo" | grep 'fdinfo map_extra')"
ktap_eq "demo: every pushed value peeks as probably pushed" \
	"peek 42: probably pushed
peek 1000: probably pushed
peek 31337: probably pushed" "$(printf '%s\n' "$demo" | grep -E '^peek (42|1000|31337):')"
ktap_eq "demo: values never pushed peek as ENOENT" \
	"peek 7: never pushed (ENOENT)
peek 43: never pushed (ENOENT)
peek 99999: never pushed (ENOENT)" "$(printf '%s\n' "$demo" | grep -E '^peek (7|43|99999):')"
ktap_match "demo: a push with flags other than BPF_ANY is refused" \
	'^push with flags BPF_EXIST: EINVAL' "$demo"

# ---- bad input ----------------------------------------------------------

# refused DESCRIPTION ARGS: create with ARGS must fail with EINVAL.
refused() {
	d=$1
	shift
	ktap_match "$d" ': EINVAL ' "$(./bloom create "$@" 2>&1)"
}
refused "map_extra 0x10 (a bit above 0xF): EINVAL" 0 4 1000 0x10
refused "map_extra 0x13 (3 hashes, and a bit above 0xF): EINVAL" 0 4 1000 0x13
refused "key_size 4 (not 0): EINVAL" 4 4 1000 3
refused "value_size 0: EINVAL" 0 0 1000 3
accepted=$(./bloom create 0 4 1000 15 2>&1; ./bloom create 0 4 1000 0 2>&1)
ktap_eq "map_extra 15 and map_extra 0 (the default) are accepted" 2 \
	"$(printf '%s\n' "$accepted" | grep -c ': ok$')"

# ---- sizing -------------------------------------------------------------

sizes=$(./bloom sizes 2>&1)
rows=$(printf '%s\n' "$sizes" | grep -c ' same$')
ktap_eq "the kernel's bitset equals n*k/5*7 rounded up to a power of two, >= 64 (10 filters)" \
	10 "$rows"
[ "$rows" = 10 ] || printf '%s\n' "$sizes" | sed 's/^/# /'
ktap_match "the kernel keeps map_extra 0 as 5 hashes" \
	'^100 +0 +\| 5 +0x3ff +1024 ' "$sizes"
ktap_eq "the overflow cases give 2^32 bits; just below 2^31 gives 2^31" \
	"4294967296 4294967296 4294967296 2147483648" \
	"$(./bloom bits 858993460 5) $(./bloom bits 613566757 5) $(./bloom bits 306783379 5) $(./bloom bits 306783378 5)"

# ---- BPF programs -------------------------------------------------------

prog=$(./bloom prog 2>&1)
ktap_match "a BPF program pushes 1000 values with bpf_map_push_elem()" \
	'^push_range: bpf_map_push_elem\(\) accepted 1000 ' "$prog"
ktap_match "a BPF program peeks all 1000 with bpf_map_peek_elem(): no false negatives" \
	'^peek_range 0..999: 1000 probably pushed' "$prog"

# ---- false positives ----------------------------------------------------

fp=/tmp/fp-check.txt
./bloom fp 262144 >$fp 2>&1
verdict=$(awk '
	!/^#/ && NF == 7 {
		cells++
		if ($4 * $7 < 400) next
		counted++
		rel = ($5 - $4) / $4
		if (rel < 0) rel = -rel
		if (rel > worst) { worst = rel; at = sprintf("k=%d n=%d theory %.5f measured %.5f", $1, $3, $4, $5) }
		if (rel > 0.20) bad = bad sprintf(" k=%d,n=%d(%.5f vs %.5f)", $1, $3, $5, $4)
	}
	END {
		printf "%d %d %s\n", cells, counted, bad == "" ? "ok" : "off:" bad
		printf "# worst cell: %s, %.1f %% off\n", at, worst * 100
	}' $fp)
ktap_match "false positives within 20 % of (1 - e^(-kn/m))^k, k = 1..15, n = 5000..40000" \
	'^60 (4[0-9]|5[0-9]|60) ok$' "$(printf '%s\n' "$verdict" | head -n 1)"
printf '%s\n' "$verdict" | sed -n '2p'
ktap_match "k = 15 at n = 40000 (4 times the design load): theory and measurement agree" \
	'^15 [0-9]+ 40000 ' "$(awk '$1 == 15 && $3 == 40000 { r = ($5 - $4) / $4; if (r < 0) r = -r; if (r <= 0.2) print }' $fp)"

# ---- the tree's selftest ------------------------------------------------

out=$(timeout 120 ./test_progs -t bloom_filter_map 2>&1)
rc=$?
ktap_match "the tree's selftest prog_tests/bloom_filter_map passes" \
	'^Summary: 1/0 PASSED, 0 SKIPPED, 0 FAILED' "$out"
printf '%s\n' "$out" | grep -E '^(#|Summary)' | sed 's/^/# test_progs: /'
echo "# test_progs exit status $rc"
ktap_done
