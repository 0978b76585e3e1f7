// SPDX-License-Identifier: GPL-2.0
/*
 * bpfcall: the two bpf() commands that kernel.unprivileged_bpf_disabled
 * guards, made directly with the system call (no libbpf), by whoever
 * runs this program:
 *
 *   BPF_MAP_CREATE  an array map of one 4-byte entry
 *   BPF_PROG_LOAD   a socket filter of two instructions, "r0 = 0; exit",
 *                   the one program type (with cgroup skb) that 6.1 still
 *                   lets a user without CAP_BPF load when the sysctl is 0
 *
 * It first prints who it runs as: the uid and the effective capability
 * set from /proc/self/status.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EINVAL:
		return "EINVAL";
	}
	return strerror(e);
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static void report(const char *what, int fd)
{
	if (fd < 0) {
		printf("%s: refused, %s\n", what, errname(errno));
	} else {
		printf("%s: ok\n", what);
		close(fd);
	}
}

int main(void)
{
	struct bpf_insn prog[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char line[128], caps[32] = "?";
	union bpf_attr attr;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %31s", caps) == 1)
			break;
	if (f)
		fclose(f);
	printf("uid %u, CapEff %s\n", getuid(), caps);

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	report("BPF_MAP_CREATE (array)", sys_bpf(BPF_MAP_CREATE, &attr));

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	report("BPF_PROG_LOAD (socket filter)", sys_bpf(BPF_PROG_LOAD, &attr));
	return 0;
}
