#!/bin/sh
# Lab 0, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=lab0-taint" >&2; exit 1; }
. /wb/lib.sh

echo "== 1. The mask as the kernel has always shown it"
wb_run cat /proc/sys/kernel/tainted

echo "== 2. The same mask, one flag per line, from the patched kernel"
wb_run cat /proc/tainted || :

echo "== 3. Load the out-of-tree module and ask it to set TAINT_USER (bit 6)"
wb_run insmod /build/taintmod.ko flag=6 || :
wb_run cat /proc/sys/kernel/tainted
wb_run cat /proc/tainted || :
wb_run cat /sys/module/taintmod/taint || :
# make check's drgn script (lab.drgn) reads the kernel here.
wb_drgn_point

echo "== 4. Decode the mask in userspace and compare"
wb_run /build/taintdecode || :

echo "== 5. Unload it (the flags stay), then ask for a flag that does not exist"
wb_run rmmod taintmod || :
wb_run cat /proc/sys/kernel/tainted
wb_run insmod /build/taintmod.ko flag=42 || :
wb_run dmesg | grep taintmod: | tail -n 1
