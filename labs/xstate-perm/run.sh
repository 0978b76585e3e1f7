#!/bin/sh
# xstate permissions: the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=xstate-perm" >&2; exit 1; }
. /wb/lib.sh

echo "== 1. What the kernel found at boot: the XSAVE layout and the signal frame"
echo "# dmesg | grep -E 'x86/fpu: |sigframe'"
dmesg | grep -E 'x86/fpu: |sigframe' | sed 's/^\[[ 0-9.]*\] //'
echo "# grep -o -w -E 'xsave|xsaveopt|xsavec|xsaves|pku|ospke|avx512f|amx_tile|xfd' /proc/cpuinfo | sort -u"
grep -o -w -E 'xsave|xsaveopt|xsavec|xsaves|pku|ospke|avx512f|amx_tile|xfd' /proc/cpuinfo | sort -u

echo "== 2. The same layout from user space: XCR0, CPUID leaf 0xD, AT_MINSIGSTKSZ"
wb_run /build/xfeatures || :

echo "== 3. Ask for the AMX tile data, then for components that are no facility"
for n in 18 2 19 1048576; do
	wb_run /build/xfeatures request $n | grep -E '^#|^ARCH_REQ|^ARCH_GET_XCOMP_PERM' || :
done

echo "== 4. The selftest: every answer of the API, from threads and a child too"
wb_run /build/xstate_perm || :
