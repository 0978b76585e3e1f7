#!/bin/sh
# bpf-license, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=bpf-license" >&2; exit 1; }
. /wb/lib.sh

obj=/build/helpers.bpf.o

echo "== 1. The license the object declares"
wb_run llvm-objdump -s -j license "$obj"

echo "== 2. The same two programs as GPL and as Proprietary"
wb_run /build/licload "$obj" GPL Proprietary

echo "== 3. Only six exact strings count as GPL-compatible"
wb_run /build/licload "$obj" "Dual BSD/GPL" GPL-2.0

echo "== 4. The taint mask before any module"
wb_run cat /proc/sys/kernel/tainted

echo "== 5. What modpost said when licmod_prop.ko was built on the host"
wb_run cat /build/modpost.log
wb_run modinfo -F license /build/licmod.ko /build/licmod_gpl.ko /build/licmod_prop.ko

echo "== 6. Proprietary, only EXPORT_SYMBOL symbols: it loads and taints"
wb_run insmod /build/licmod.ko || :
wb_run cat /proc/sys/kernel/tainted
wb_run cat /sys/module/licmod/taint || :
wb_run cat /proc/tainted || :

echo "== 7. GPL, with ktime_get() (EXPORT_SYMBOL_GPL): it loads"
wb_run insmod /build/licmod_gpl.ko || :
wb_run cat /sys/module/licmod_gpl/taint || :

echo "== 8. Proprietary, with ktime_get(): the loader refuses it"
wb_run insmod /build/licmod_prop.ko || :
echo "# dmesg | grep licmod"
dmesg | grep licmod || :
