#!/bin/sh
# The core kernel tour, in the workbook VM: futex_waitv(), tracefs
# handed to a group, bpf_trace_vprintk(), and unprivileged BPF, which it
# leaves locked off for the rest of the boot (the last step). Step 2
# only looks: the emulated PC has no clusters for the scheduler.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-core" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

# noted before anything below can change it
bpf_boot_value >/dev/null

echo "== 1. futex_waitv(): one sleep, several futexes"
echo "# four words, all 0; a second thread wakes word 2 with FUTEX_WAKE"
wb_run /build/waitv wake 4 2
echo "# the most one call takes, FUTEX_WAITV_MAX = 128; the last one is woken"
wb_run /build/waitv wake 128 127
echo "# word 1 no longer holds the expected value: no sleep at all"
wb_run /build/waitv stale 4 1
echo "# nobody wakes: the absolute CLOCK_MONOTONIC deadline, 50 ms ahead, ends the wait"
wb_run /build/waitv timeout 4 50
echo "# the tree's selftest, unmodified (tools/testing/selftests/futex/functional/futex_waitv.c)"
wb_run /build/futex_waitv
echo "# status $?"
echo "# how long each call slept, timed in the kernel by bpftrace: one stale call, four deadlines"
futex_hist

echo "== 2. Clusters: what this emulated PC has to offer the scheduler"
echo "# two vCPUs; which CPUs share a core, an L2 cluster, a package:"
wb_typed "grep . /sys/devices/system/cpu/cpu*/topology/core_cpus_list /sys/devices/system/cpu/cpu*/topology/cluster_cpus_list /sys/devices/system/cpu/cpu*/topology/physical_package_id"
echo "# the scheduling domains the kernel kept for CPU 0 (CONFIG_SCHED_DEBUG):"
wb_typed "grep . /sys/kernel/debug/sched/domains/cpu0/domain*/name"

echo "== 3. tracefs: owner, group, and the \"other\" bits"
users_setup
echo "# two users of this boot (tour.sh adds them to copies of /etc/passwd and /etc/group)"
wb_run id tracer
wb_run id outsider
echo "# as init mounted it:"
wb_run grep tracefs /proc/mounts
wb_typed "stat -c '%a %U:%G %n' $T $T/trace $T/trace_pipe $T/tracing_on $T/events/sched/enable"
echo "# hand it to group tracing (gid 4201); mode= is for the top directory only"
wb_run mount -o remount,gid=4201,mode=0750 "$T"
wb_run grep tracefs /proc/mounts
wb_typed "stat -c '%a %U:%G %n' $T $T/trace $T/trace_pipe $T/tracing_on $T/events/sched/enable"
echo "# a member of the group reads the trace, but may not write a 0640 file:"
wb_typed "setpriv --reuid=tracer --regid=tracing --clear-groups head -n 3 $T/trace"
wb_typed "setpriv --reuid=tracer --regid=tracing --clear-groups sh -c 'echo 0 > $T/tracing_on'"
echo "# anybody else cannot even look inside:"
wb_typed "setpriv --reuid=outsider --regid=outsider --clear-groups head -n 3 $T/trace"
echo "# what is created later takes its parent's owner and group:"
wb_run mkdir "$T/instances/tour"
wb_typed "stat -c '%a %U:%G %n' $T/instances/tour $T/instances/tour/trace"
wb_run rmdir "$T/instances/tour"
echo "# files and directories that give \"other\" any bit, in the whole file system:"
wb_typed "find $T -perm /o=rwx | wc -l"
echo "# root can still chmod; a file's \"other\" bits are no use while the top directory is 0750:"
wb_run chmod o+r "$T/trace"
wb_typed "setpriv --reuid=outsider --regid=outsider --clear-groups head -n 1 $T/trace"
echo "# and with the top directory opened too, 6.1 lets the world in:"
wb_run chmod o+rx "$T"
wb_typed "stat -c '%a %U:%G %n' $T $T/trace"
wb_typed "setpriv --reuid=outsider --regid=outsider --clear-groups head -n 1 $T/trace"
echo "# back as init left it"
tracefs_reset
wb_typed "stat -c '%a %U:%G %n' $T $T/trace"

echo "== 4. bpf_trace_vprintk(): more than three values"
echo "# a kprobe on futex_wait_multiple() prints with bpf_printk(); the trace buffer is emptied first"
wb_typed "echo > $T/trace"
wb_run /build/vprint /build/vprint.bpf.o /build/waitv stale 4 2
wb_typed "grep -o 'bpf_trace_printk: .*' $T/trace"

echo "== 5. Unprivileged BPF: off by default"
echo "# the value this boot started with (CONFIG_BPF_UNPRIV_DEFAULT_OFF=y gives 2):"
wb_run sysctl "$SYSCTL"
wb_typed 'setpriv --reuid=outsider --regid=outsider --clear-groups /build/bpfcall'
echo "# root, with CAP_BPF and CAP_SYS_ADMIN, is not affected:"
wb_run /build/bpfcall
echo "# 2 may be undone: 0 lets every user create maps and load socket filters"
wb_run sysctl -w "$SYSCTL=0"
echo "# setpriv --reuid=outsider --regid=outsider --clear-groups /build/bpfcall"
setpriv --reuid=outsider --regid=outsider --clear-groups /build/bpfcall | tee "$W/unpriv0.out"
echo "# x86 logs a warning here on CPUs whose Spectre v2 mitigation is enhanced IBRS; this one's:"
wb_run cat /sys/devices/system/cpu/vulnerabilities/spectre_v2
wb_typed "dmesg | grep -i 'unprivileged ebpf' || echo '(no warning in the log)'"
wb_run sysctl -w "$SYSCTL=2"
echo "# only root writes it at all (the file is 0644, and writing needs CAP_SYS_ADMIN):"
wb_typed "setpriv --reuid=outsider --regid=outsider --clear-groups sh -c 'echo 0 > /proc/sys/kernel/unprivileged_bpf_disabled'"
echo "# 1 is for good: once set, neither 0 nor 2 is accepted until the next boot"
wb_run sysctl -w "$SYSCTL=1"
wb_run sysctl -w "$SYSCTL=0"
wb_run sysctl -w "$SYSCTL=2"
wb_run sysctl "$SYSCTL"
wb_typed 'setpriv --reuid=outsider --regid=outsider --clear-groups /build/bpfcall'
