#!/bin/sh
# bpf-license checker (KTAP). Self-contained: it loads what it checks.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=bpf-license" >&2; exit 1; }
. /wb/lib.sh

refusal='cannot call GPL-restricted function from non-GPL compatible program'

# result PROG LICENSE: licload's line for that load.
result() {
	printf '%s\n' "$out" | grep -F "$1 license \"$2\": " | head -n 1
}

# verifier_log PROG LICENSE: the log licload printed after that refusal.
verifier_log() {
	printf '%s\n' "$out" | awk -v head="$1 license \"$2\": refused" -v pre="$1   | " '
		index($0, head) == 1 { on = 1; next }
		on && index($0, pre) == 1 { print substr($0, length(pre) + 1); next }
		{ on = 0 }'
}

ktap_plan 15
rmmod licmod_prop licmod_gpl licmod 2>/dev/null

# ---- BPF: the verifier and the license string ----
out=$(/build/licload /build/helpers.bpf.o GPL Proprietary "Dual BSD/GPL" GPL-2.0 2>&1)
ktap_eq "with_printk (bpf_trace_printk) loads as GPL" \
	'with_printk license "GPL": loaded, gpl_compatible=1' "$(result with_printk GPL)"
ktap_eq "with_printk is refused as Proprietary with EINVAL" \
	'with_printk license "Proprietary": refused, errno 22 (Invalid argument)' \
	"$(result with_printk Proprietary)"
ktap_eq "the verifier's last word on with_printk as Proprietary" \
	"$refusal" "$(verifier_log with_printk Proprietary | grep -v '^processed ' | tail -n 1)"
ktap_eq "with_printk loads as Dual BSD/GPL" \
	'with_printk license "Dual BSD/GPL": loaded, gpl_compatible=1' \
	"$(result with_printk "Dual BSD/GPL")"
ktap_eq "with_printk is refused as GPL-2.0, which is not one of the accepted strings" \
	'with_printk license "GPL-2.0": refused, errno 22 (Invalid argument)' \
	"$(result with_printk GPL-2.0)"
ktap_eq "with_clock (bpf_ktime_get_ns, bpf_get_prandom_u32) loads as GPL" \
	'with_clock license "GPL": loaded, gpl_compatible=1' "$(result with_clock GPL)"
ktap_eq "with_clock loads as Proprietary, not GPL-compatible" \
	'with_clock license "Proprietary": loaded, gpl_compatible=0' \
	"$(result with_clock Proprietary)"

# ---- modules: the loader and the license string ----
before=$(cat /proc/sys/kernel/tainted)
ktap_true "licmod (Proprietary, EXPORT_SYMBOL only) loads" "insmod succeeds" \
	insmod /build/licmod.ko
mask=$(cat /proc/sys/kernel/tainted)
ktap_eq "the kernel mask has TAINT_PROPRIETARY_MODULE (bit 0)" \
	"1 (mask before: $before)" "$((mask & 1)) (mask before: $before)"
ktap_eq "licmod carries P and O in /sys/module/licmod/taint" \
	PO "$(cat /sys/module/licmod/taint 2>&1)"
ktap_match "the kernel log says which license tainted it" \
	"^(\[ *[0-9.]+\] )?licmod(_prop)?: module license 'Proprietary' taints kernel\.$" \
	"$(dmesg | grep "module license 'Proprietary' taints kernel")"
pt=$(cat /proc/tainted 2>/dev/null)
if [ -z "$pt" ]; then
	ktap_skip "/proc/tainted lists bit 0 with its letter P" \
		"/proc/tainted is empty: it is lab 0's exercise (lab0-taint)"
else
	ktap_match "/proc/tainted lists bit 0 with its letter P" '^0 P( |$)' "$pt"
fi
ktap_true "licmod_gpl (GPL, ktime_get) loads" "insmod succeeds" \
	insmod /build/licmod_gpl.ko
rc=0
err=$(insmod /build/licmod_prop.ko 2>&1) || rc=$?
ktap_match "licmod_prop (Proprietary, ktime_get) is refused: unknown symbol (ENOENT)" \
	'Unknown symbol in module' "status $rc: $err"
ktap_match "the kernel log names the GPL-only symbol it would not resolve" \
	'licmod_prop: Unknown symbol ktime_get \(err -2\)$' \
	"$(dmesg | grep 'licmod_prop: Unknown symbol' | tail -n 1)"
ktap_done
