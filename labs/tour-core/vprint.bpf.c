// SPDX-License-Identifier: GPL-2.0
/*
 * vprint: a kprobe on futex_wait_multiple() (kernel/futex/waitwake.c),
 * the function every futex_waitv() call ends up in, that prints what the
 * caller asked for with bpf_printk().
 *
 * bpf_printk() is a macro of libbpf's <bpf/bpf_helpers.h> that counts its
 * arguments: with three values or fewer it calls bpf_trace_printk()
 * (helper 6), with more it packs them into an array of u64 on the stack
 * and calls bpf_trace_vprintk() (helper 177), new in 5.16. The first line
 * below has two values, the second eight: one call of each helper. Both
 * go through the same format checker, bpf_bprintf_prepare(): the third
 * call uses a flag it does not accept, and the fourth prints what the
 * refused call returned.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Both printing helpers are GPL-only. */
char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/futex_wait_multiple")
int BPF_KPROBE(show_waitv, struct futex_vector *vs, unsigned int count)
{
	__u64 val[4] = {}, flags = 0;
	char comm[16];
	unsigned int i;
	long bad;
	int pid;

	pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < 4 && i < count; i++)
		val[i] = BPF_CORE_READ(vs + i, w.val);
	if (count)
		flags = BPF_CORE_READ(vs, w.flags);

	bpf_printk("waitv, 3 or fewer: pid %d, %u futexes", pid, count);
	bpf_printk("waitv, more than 3: %s pid %d, %u futexes, flags 0x%llx, expecting %llu %llu %llu %llu",
		   comm, pid, count, flags, val[0], val[1], val[2], val[3]);
	/* The format checker knows no '#' flag: refused, nothing printed. */
	bad = bpf_printk("waitv, refused: %s %d %u %#llx", comm, pid, count, flags);
	bpf_printk("waitv, the call with %%#llx returned %ld", bad);
	return 0;
}
