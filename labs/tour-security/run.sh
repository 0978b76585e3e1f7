#!/bin/sh
# The security tour, in the workbook VM: the audit records of openat2()
# and of an io_uring operation, IMA rules on a file's group, and what a
# seccomp filter does (and no longer does) to speculation mitigations.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-security" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

tour_dirs
rm -f "$W/dir/made"

echo "== 1. openat2(): the OPENAT2 audit record"
echo "# auditnl becomes the audit daemon, adds a rule for its child's openat2() calls,"
echo "# and prints every record of the events that rule produced"
wb_run /build/auditnl openat2 "$W/dir"
wb_typed "stat -c '%a %n' $W/dir/made"
echo "# the same two names through openat(), with a rule for openat(): no OPENAT2 record"
rm -f "$W/dir/made"
wb_run /build/auditnl openat "$W/dir"

echo "== 2. io_uring: an operation audited on its own"
echo "# IORING_OP_OPENAT sent to an io-wq worker (IOSQE_ASYNC); the rule is on the io_uring filter"
wb_run /build/auditnl uring /etc/passwd
echo "# the same request seen by perf, counted at io_uring's tracepoints"
uring_counts

echo "== 3. IMA: rules on a file's group"
securityfs_up
if ima_has_rules; then
	echo "# this boot has the tour's two rules already (the policy cannot be emptied before a reboot)"
else
	echo "# the policy this boot started with (no ima_policy= on the command line: empty)"
	wb_typed "cat $POLICY | grep -c . || true"
	echo "# two rules: group 2001 exactly, and any group above 5000"
	wb_typed "printf '%s\n%s\n' '$RULE_EQ' '$RULE_GT' > $POLICY"
fi
echo "# IMA_READ_POLICY lets root read the policy back:"
wb_run cat "$POLICY"
echo "# three new files, read once each; their groups are 2001, 2002 and 6000"
ima_file in-2001 2001
ima_file in-2002 2002
ima_file in-6000 6000
wb_typed "stat -c '%g %n' $W/ima/in-*"
echo "# the measurement list: which of them IMA measured"
wb_typed "grep $W/ima/ $MEASURED"
echo "# its first entry, as every boot has it (no TPM here, so its PCR value is zeros):"
wb_typed "head -n 1 $MEASURED"

echo "== 4. seccomp and speculation"
echo "# the CPU that QEMU emulates here (-cpu max under TCG), and the controls it has"
echo "# for speculative store bypass (Spectre v4) and indirect branches (Spectre v2):"
wb_typed "grep -m 3 -E '^(vendor_id|cpu family|model)[[:space:]]' /proc/cpuinfo"
wb_typed "grep -m 1 -o -w -E 'ssbd|virt_ssbd|amd_ssbd|ibpb|stibp' /proc/cpuinfo || echo none"
echo "# nothing on the command line picks a mode: both parameters are at auto"
wb_typed "grep -o -E '(spec_store_bypass_disable|spectre_v2_user)=[^ ]*' /proc/cmdline || echo none"
wb_run cat /sys/devices/system/cpu/vulnerabilities/spec_store_bypass
wb_run cat /sys/devices/system/cpu/vulnerabilities/spectre_v2
echo "# a process before and after it installs a seccomp filter:"
wb_run /build/specstat
echo "# asking for the store-bypass mitigation with prctl(), the opt-in that is now the default:"
wb_typed "/build/specstat disable | head -n 1"
