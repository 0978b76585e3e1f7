# shellcheck shell=sh
# lkdtm's debugfs entry and the kernel log of one trigger, for run.sh and
# check.sh (sourced after /wb/lib.sh, so only inside the workbook VM).

# shellcheck disable=SC2034 # used by the scripts that source this file
DIRECT=/sys/kernel/debug/provoke-crash/DIRECT

# klog_of COMMAND...: run the command in a child shell (a BUG may kill
# it; that is said first), then print the kernel log lines it caused:
# those after a numbered mark written to /dev/kmsg just before. The
# number comes from the log itself, because klog_of often runs in a
# command substitution, whose variables do not outlive it.
klog_of() {
	mark=$(($(dmesg | grep -c 'wb-lkdtm mark') + 1))
	echo "wb-lkdtm mark $mark" >/dev/kmsg
	sh -c "$*" >/dev/null 2>&1 || echo "# (the shell that ran it died or failed: status $?)"
	dmesg | sed -n "/wb-lkdtm mark $mark\$/,\$p" | sed 1d
}
