#!/bin/sh
# The futex_waitv() calls that bpftrace times (tour.sh, futex_hist): one
# whose expected value is stale, which must not sleep, then four that
# nobody wakes, with deadlines 16, 32, 64 and 128 ms ahead, each at the
# start of one of the histogram's power-of-two buckets.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-core" >&2; exit 1; }
/build/waitv stale 4 1
for ms in 16 32 64 128; do
	/build/waitv timeout 4 "$ms"
done
