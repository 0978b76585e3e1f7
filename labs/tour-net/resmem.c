// SPDX-License-Identifier: GPL-2.0
/*
 * resmem: ask the kernel to keep BYTES of memory charged to one TCP
 * socket with SO_RESERVE_MEM (5.16), and show where the charge went.
 *
 *   resmem BYTES
 *
 * It prints the memory cgroup it runs in, the "sock" line of that
 * cgroup's memory.stat (cgroup v2 mounted on /sys/fs/cgroup) before the
 * request, the answer to setsockopt(), what getsockopt() and SO_MEMINFO
 * then report for the socket, and the "sock" line again while the socket
 * is open and after it is closed. Exit status: 0 when the reservation was
 * accepted, 1 when the kernel refused it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/sock_diag.h>

#ifndef SO_RESERVE_MEM
#define SO_RESERVE_MEM 73	/* include/uapi/asm-generic/socket.h in 6.1 */
#endif

#define CGROOT "/sys/fs/cgroup"

static char cgpath[512];

/* The process's cgroup v2 path, from its "0::" line of /proc/self/cgroup. */
static void find_cgroup(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "r");

	strcpy(cgpath, "?");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(cgpath, sizeof(cgpath), "%s", line + 3);
	}
	fclose(f);
}

/* Print the "sock" value of the cgroup's memory.stat, in bytes. */
static void show_sock(const char *when)
{
	char name[600], line[256];
	long long val = -1;
	FILE *f;

	snprintf(name, sizeof(name), CGROOT "%s/memory.stat",
		 strcmp(cgpath, "/") ? cgpath : "");
	f = fopen(name, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "sock %lld", &val) == 1)
				break;
		fclose(f);
	}
	if (val < 0)
		printf("memory.stat sock %s: (no memory.stat here)\n", when);
	else
		printf("memory.stat sock %s: %lld\n", when, val);
}

static const char *errname(int err)
{
	switch (err) {
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case ENOPROTOOPT: return "ENOPROTOOPT";
	default: return "?";
	}
}

int main(int argc, char **argv)
{
	__u32 mem[SK_MEMINFO_VARS];
	socklen_t len;
	int fd, val, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: resmem BYTES\n");
		return 2;
	}
	val = atoi(argv[1]);
	find_cgroup();
	printf("cgroup: %s\n", cgpath);
	show_sock("before");

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	ret = setsockopt(fd, SOL_SOCKET, SO_RESERVE_MEM, &val, sizeof(val));
	if (ret)
		printf("setsockopt(SO_RESERVE_MEM, %d): %s (%s)\n", val,
		       errname(errno), strerror(errno));
	else
		printf("setsockopt(SO_RESERVE_MEM, %d): 0\n", val);

	len = sizeof(val);
	if (getsockopt(fd, SOL_SOCKET, SO_RESERVE_MEM, &val, &len) == 0)
		printf("getsockopt(SO_RESERVE_MEM): %d\n", val);
	len = sizeof(mem);
	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) == 0)
		printf("SO_MEMINFO forward_alloc: %u\n", mem[SK_MEMINFO_FWD_ALLOC]);
	show_sock("while open");
	close(fd);
	show_sock("after close");
	return ret ? 1 : 0;
}
