// SPDX-License-Identifier: GPL-2.0
/*
 * specstat: what the kernel does about two speculation issues for this
 * process, before and after the process installs a seccomp filter.
 *
 *   specstat            the state, a filter that allows everything, the
 *                       state again
 *   specstat disable    the same, but first ask for the store-bypass
 *                       mitigation with prctl(PR_SET_SPECULATION_CTRL)
 *
 * For each of speculative store bypass (Spectre v4) and indirect branch
 * speculation (Spectre v2 between user tasks) it prints the answer of
 * prctl(PR_GET_SPECULATION_CTRL), decoded, and the matching line of
 * /proc/self/status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void decode(const char *name, int which)
{
	int v = prctl(PR_GET_SPECULATION_CTRL, which, 0, 0, 0);

	printf("  prctl %s: ", name);
	if (v < 0) {
		printf("error %s\n", strerror(errno));
		return;
	}
	if (v == PR_SPEC_NOT_AFFECTED) {
		printf("0 (not affected)\n");
		return;
	}
	printf("%#x (%s%s%s%s%s)\n", v,
	       v & PR_SPEC_PRCTL ? "per-task control" : "no per-task control",
	       v & PR_SPEC_ENABLE ? ", speculation on" : "",
	       v & PR_SPEC_DISABLE ? ", speculation off" : "",
	       v & PR_SPEC_FORCE_DISABLE ? ", forced off" : "",
	       v & PR_SPEC_DISABLE_NOEXEC ? ", off until exec" : "");
}

static void show(const char *when)
{
	static const char *const keys[] = {
		"Seccomp:", "Seccomp_filters:", "Speculation_Store_Bypass:",
		"SpeculationIndirectBranch:",
	};
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	unsigned int i;

	printf("%s:\n", when);
	decode("store bypass", PR_SPEC_STORE_BYPASS);
	decode("indirect branch", PR_SPEC_INDIRECT_BRANCH);
	while (f && fgets(line, sizeof(line), f))
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(line, keys[i], strlen(keys[i])))
				printf("  %s", line);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };

	if (argc > 1 && !strcmp(argv[1], "disable")) {
		if (prctl(PR_SET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS,
			  PR_SPEC_DISABLE, 0, 0))
			printf("PR_SET_SPECULATION_CTRL store bypass off: %s\n",
			       strerror(errno));
		else
			printf("PR_SET_SPECULATION_CTRL store bypass off: done\n");
	}
	show("before seccomp");
	/* A filter needs no_new_privs, or CAP_SYS_ADMIN; set it anyway. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("seccomp");
		return 1;
	}
	show("after a seccomp filter (SECCOMP_RET_ALLOW for every call)");
	return 0;
}
