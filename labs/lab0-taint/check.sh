#!/bin/sh
# Lab 0 checker (KTAP). Self-contained: it loads the module itself.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=lab0-taint" >&2; exit 1; }
. /wb/lib.sh

# The checker's own table, independent of the kernel's and the student's.
letters=PFSRMBUDAWCIOELKXTN
scope=mkkkkkkkkkmkmmkmmmm

# expected_lines MASK [SCOPE]: what /proc/tainted (or taintdecode) must say.
expected_lines() {
	bit=0
	while [ $bit -lt 19 ]; do
		if [ $(($1 >> bit & 1)) = 1 ]; then
			l=$(printf %s "$letters" | cut -c$((bit + 1)))
			if [ -n "${2:-}" ]; then
				s=kernel
				[ "$(printf %s "$scope" | cut -c$((bit + 1)))" = m ] && s=module
				echo "$bit $l $s"
			else
				echo "$bit $l"
			fi
		fi
		bit=$((bit + 1))
	done
}

ktap_plan 8
rmmod taintmod 2>/dev/null

ktap_true "/proc/tainted exists and is readable" "a readable /proc/tainted" \
	cat /proc/tainted

out=$(insmod /build/taintmod.ko flag=19 2>&1)
rc=$?
rmmod taintmod 2>/dev/null
msg=$(dmesg | grep 'taintmod: flag=19' | tail -n 1)
ktap_points 2
if [ $rc -ne 0 ] && printf %s "$out" | grep -q 'Invalid param'; then
	ktap_ok "taintmod refuses flag=19 with EINVAL"
else
	ktap_fail "taintmod refuses flag=19 with EINVAL" \
		"insmod fails with 'Invalid parameters'" "status $rc: $out"
fi
ktap_match "the refusal names the flag in the kernel log" \
	'taintmod: flag=19 is not a taint bit' "$msg"

before=$(cat /proc/sys/kernel/tainted)
ktap_true "taintmod loads with flag=6" "insmod succeeds" \
	insmod /build/taintmod.ko flag=6
mask=$(cat /proc/sys/kernel/tainted)
ktap_points 2
ktap_eq "the mask gained TAINT_USER (bit 6) and TAINT_OOT_MODULE (bit 12)" \
	"$((before | 64 | 4096))" "$mask"
ktap_points 3
ktap_eq "/proc/tainted lists each set flag with its letter and scope" \
	"$(expected_lines "$mask" scope)" "$(cat /proc/tainted 2>&1)"
ktap_match "the module carries the out-of-tree flag" '^O' \
	"$(cat /sys/module/taintmod/taint 2>&1)"
ktap_points 3
ktap_eq "taintdecode decodes the mask like the checker does" \
	"$(expected_lines "$mask")" "$(/build/taintdecode 2>&1)"
ktap_done
