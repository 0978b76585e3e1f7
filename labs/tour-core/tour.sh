# shellcheck shell=sh
# What run.sh and check.sh of the core kernel tour share: two test users,
# the tracefs mount options, and the state of unprivileged BPF. Sourced
# after /wb/lib.sh.

W=/tmp/tour-core
T=/sys/kernel/tracing
SYSCTL=kernel.unprivileged_bpf_disabled
mkdir -p "$W"

# futex_hist: the futex_waitv() calls of waits.sh timed by bpftrace, from
# the system call's entry to its return, into a histogram of milliseconds
# (power-of-two buckets). bpftrace runs the script once its probes are
# attached (-c), and prints the histogram when the script ends. The
# command is shown as typed.
futex_hist() {
	wb_typed "bpftrace -c '/bin/sh /lab/waits.sh' -e 'kprobe:__x64_sys_futex_waitv { @start[tid] = nsecs; } kretprobe:__x64_sys_futex_waitv /@start[tid]/ { @ms = hist((nsecs - @start[tid]) / 1000000); delete(@start[tid]); }'"
}

# Two users of this guest only: tracer (uid 4201, group tracing, 4201)
# and outsider (uid 4202, group outsider, 4202). The guest's /etc is the
# host's, read-only, so adduser cannot write to it: copies of passwd and
# group with the two added lines are mounted over the originals, for this
# boot. Programs still run as them by number (setpriv); the names are for
# ls -l and id.
users_setup() {
	grep -q '^tracer:' /etc/passwd && return 0
	cp /etc/passwd "$W/passwd"
	cp /etc/group "$W/group"
	echo 'tracer:x:4201:4201:tracefs group member:/tmp:/bin/sh' >>"$W/passwd"
	echo 'outsider:x:4202:4202:not in group tracing:/tmp:/bin/sh' >>"$W/passwd"
	echo 'tracing:x:4201:' >>"$W/group"
	echo 'outsider:x:4202:' >>"$W/group"
	mount --bind "$W/passwd" /etc/passwd
	mount --bind "$W/group" /etc/group
}

# as_tracer CMD..., as_outsider CMD...: run CMD as that user, with that
# user's group only and no capabilities.
as_tracer() {
	setpriv --reuid=4201 --regid=4201 --clear-groups "$@"
}
as_outsider() {
	setpriv --reuid=4202 --regid=4202 --clear-groups "$@"
}

# tracefs_reset: tracefs as init mounted it: group root, the top
# directory 0700, trace and tracing_on 0640 (what the kernel gave them).
tracefs_reset() {
	mount -o remount,gid=0,mode=0700 "$T"
	chmod 0640 "$T/trace" "$T/tracing_on"
}

# attrs PATH...: "mode group name" of each PATH, one a line.
attrs() {
	stat -c '%a %G %n' "$@"
}

# try CMD...: run CMD, print "ok" or its first error line.
try() {
	if try_err=$("$@" 2>&1 >/dev/null); then
		echo ok
	else
		printf '%s\n' "${try_err:-failed}" | head -n 1
	fi
}

# ---- unprivileged BPF ----

# bpf_boot_value: the value the sysctl had before this tour changed it.
# The first script of the boot to ask (run.sh or check.sh) notes it in
# $W (a tmpfs, so for this boot only); nothing before the tour writes
# the sysctl.
bpf_boot_value() {
	[ -s "$W/unpriv.boot" ] || sysctl -n "$SYSCTL" >"$W/unpriv.boot"
	cat "$W/unpriv.boot"
}

# bpf_open_for_users: set the sysctl to 0, try bpfcall as outsider, set
# it back to 2; the output in $W/unpriv0.out. Only possible before the
# sysctl is 1; run.sh does it and check.sh reuses its output in the same
# boot (after run.sh, the sysctl is stuck at 1).
bpf_open_for_users() {
	sysctl -q -w "$SYSCTL=0" &&
		as_outsider /build/bpfcall >"$W/unpriv0.out" 2>&1
	sysctl -q -w "$SYSCTL=2"
}
