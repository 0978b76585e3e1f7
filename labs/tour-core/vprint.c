// SPDX-License-Identifier: GPL-2.0
/*
 * vprint: load a BPF object with libbpf, say which helpers each of its
 * programs calls, attach the programs (their SEC() names say where), run
 * a command while they are attached, then detach and exit.
 *
 *   vprint OBJ CMD [ARG...]
 *
 * What the programs print goes to the trace buffer: read it in
 * /sys/kernel/tracing/trace (or trace_pipe) afterwards.
 */
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *helper_name(int id)
{
	switch (id) {
	case BPF_FUNC_trace_printk:
		return "bpf_trace_printk";
	case BPF_FUNC_get_current_pid_tgid:
		return "bpf_get_current_pid_tgid";
	case BPF_FUNC_get_current_comm:
		return "bpf_get_current_comm";
	case BPF_FUNC_probe_read_kernel:
		return "bpf_probe_read_kernel";
	case BPF_FUNC_trace_vprintk:
		return "bpf_trace_vprintk";
	}
	return "helper";
}

/* The helper calls of one program, in the order they first appear. */
static void show_helpers(const struct bpf_program *p)
{
	const struct bpf_insn *insn = bpf_program__insns(p);
	size_t i, j, n = bpf_program__insn_cnt(p);

	printf("%s (%s) calls:", bpf_program__name(p), bpf_program__section_name(p));
	for (i = 0; i < n; i++) {
		if (insn[i].code != (BPF_JMP | BPF_CALL) || insn[i].src_reg != 0)
			continue;
		for (j = 0; j < i; j++)
			if (insn[j].code == (BPF_JMP | BPF_CALL) && insn[j].src_reg == 0 &&
			    insn[j].imm == insn[i].imm)
				break;
		if (j == i)
			printf(" %s(#%d)", helper_name(insn[i].imm), insn[i].imm);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	struct bpf_link *links[8];
	struct bpf_program *p;
	struct bpf_object *obj;
	int nlinks = 0, status, i;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: vprint OBJ CMD [ARG...]\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror("bpf_object__open_file");
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "vprint: the kernel refused %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		show_helpers(p);
		if (nlinks == 8)
			break;
		links[nlinks] = bpf_program__attach(p);
		if (!links[nlinks]) {
			fprintf(stderr, "vprint: cannot attach %s\n", bpf_program__name(p));
			return 1;
		}
		nlinks++;
	}
	printf("attached; running %s\n", argv[2]);
	fflush(stdout);

	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("vprint");
		return 1;
	}
	for (i = 0; i < nlinks; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	printf("detached; %s exited with status %d\n", argv[2],
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
