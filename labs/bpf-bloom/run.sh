#!/bin/sh
# The BPF Bloom-filter map: the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=bpf-bloom" >&2; exit 1; }
. /wb/lib.sh

cd /build

echo "== 1. A filter from user space: create with map_extra, push, peek"
wb_run ./bloom demo

echo "== 2. Bad input: each of these is refused with EINVAL"
echo "# bits of map_extra above 0xF (the low 4 bits are the number of hashes)"
wb_run ./bloom create 0 4 1000 0x10 || :
wb_run ./bloom create 0 4 1000 0x13 || :
echo "# a key: Bloom filters have none"
wb_run ./bloom create 4 4 1000 3 || :
echo "# a value of 0 bytes"
wb_run ./bloom create 0 0 1000 3 || :
echo "# and what is accepted: 15 hashes, or 0 for the default of 5"
wb_run ./bloom create 0 4 1000 15 || :
wb_run ./bloom create 0 4 1000 0 || :

echo "== 3. The bitset the kernel allocates, read from the kernel by a BPF program"
wb_run ./bloom sizes
echo "# the overflow cases, computed as bloom_map_alloc() does (not created: 512 MB)"
for nk in "858993460 5" "613566757 5" "306783379 5" "306783378 5"; do
	# shellcheck disable=SC2086
	echo "# n k = $nk: $(./bloom bits $nk) bits"
done

echo "== 4. Push and peek from BPF programs, run with BPF_PROG_TEST_RUN"
wb_run ./bloom prog

echo "== 5. False positives against (1 - e^(-kn/m))^k, filters sized for 10000 values"
wb_run ./bloom fp 262144 >/tmp/fp.txt
awk '!/^#/ {
	if ($1 != k) { if (k) printf "\n"; k = $1; printf "k=%-2d m=%-7d", $1, $2 }
	printf " | n=%-5d %.5f %.5f", $3, $4, $5
} END { printf "\n" }' /tmp/fp.txt
cp /tmp/fp.txt /build/out/fp.txt 2>/dev/null || :

echo "== 6. The tree's own selftest: prog_tests/bloom_filter_map"
wb_run ./test_progs -t bloom_filter_map || :
