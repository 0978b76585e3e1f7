// SPDX-License-Identifier: GPL-2.0
/*
 * Two kprobe programs for the licensing lab. licload loads each of them
 * under several licenses; neither needs to be attached to show what the
 * verifier decides, since the decision is taken at BPF_PROG_LOAD time.
 *
 * with_printk calls bpf_trace_printk(), whose prototype in
 * kernel/trace/bpf_trace.c has .gpl_only = true.
 * with_clock calls bpf_ktime_get_ns() and bpf_get_prandom_u32(), whose
 * prototypes in kernel/bpf/helpers.c have .gpl_only = false.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

/* In .bss: libbpf turns it into a map and patches the program's access. */
__u64 last_ns;
__u32 last_rand;

SEC("kprobe/do_nanosleep")
int with_printk(struct pt_regs *ctx)
{
	/* TODO 3: bpf_printk() the pid (bpf_get_current_pid_tgid() >> 32) */

	return 0;
}

SEC("kprobe/do_nanosleep")
int with_clock(struct pt_regs *ctx)
{
	last_ns = bpf_ktime_get_ns();
	last_rand = bpf_get_prandom_u32();
	return 0;
}

/* What libbpf passes for every program of this object on its own load. */
char LICENSE[] SEC("license") = "GPL";
