#!/bin/sh
# The futex_waitv() calls that bpftrace times (tour.sh, futex_hist): one
# whose expected value is stale, which must not sleep, then four that
# nobody wakes, with deadlines 48, 96, 192 and 384 ms ahead: each half
# way into one of the histogram's power-of-two buckets (32, 64, 128 and
# 256 ms), because bpftrace's clock starts at the system call's entry,
# a little after the program computed the deadline.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-core" >&2; exit 1; }
/build/waitv stale 4 1
for ms in 48 96 192 384; do
	/build/waitv timeout 4 "$ms"
done
