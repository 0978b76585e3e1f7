// SPDX-License-Identifier: GPL-2.0
/*
 * licload: load every program of a BPF object once per license given on
 * the command line, and say what the kernel decided.
 *
 *   licload OBJECT LICENSE...
 *
 * libbpf opens and loads the object first, under the license of its
 * "license" section: that load creates the maps and leaves each
 * program's instructions relocated (map file descriptors in place, CO-RE
 * offsets fixed). licload then hands exactly those instructions to
 * BPF_PROG_LOAD again, once per LICENSE, so that the license string is
 * the only thing that changes between two loads of a program.
 *
 * For each load it prints one line:
 *   PROG license "LICENSE": loaded, gpl_compatible=N
 *   PROG license "LICENSE": refused, errno N (text)
 * and, after a refusal, the verifier's log, each line prefixed with "| ".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static char log_buf[1 << 16];

/*
 * Load PROG's instructions under LICENSE, with the verifier's log (level
 * 1) in log_buf. Returns the new program's fd, or a negative errno.
 */
static int load_as(const struct bpf_program *prog, const char *license)
{
	int fd = -EOPNOTSUPP;

	log_buf[0] = '\0';
	/* TODO 1: bpf_prog_load() PROG's insns as LICENSE, with a level 1 log in log_buf */
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .log_buf = log_buf,
		    .log_size = sizeof(log_buf),
		    .log_level = 1);
	fd = bpf_prog_load(bpf_program__type(prog), bpf_program__name(prog),
			   license, bpf_program__insns(prog),
			   bpf_program__insn_cnt(prog), &opts);

	return fd;
}

/*
 * What the kernel recorded about the license of the program behind FD:
 * 1 or 0, or -1 if it could not be asked.
 */
static int gpl_flag(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int flag = -1;

	/* TODO 2: read gpl_compatible from bpf_obj_get_info_by_fd()'s bpf_prog_info */
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		flag = info.gpl_compatible;

	return flag;
}

static void print_log(const char *name)
{
	char *line, *save = NULL;

	for (line = strtok_r(log_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("%s   | %s\n", name, line);
}

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	int err, fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OBJECT LICENSE...\n", argv[0]);
		return 2;
	}
	/* Only our own messages: libbpf's would mix with the verifier's. */
	libbpf_set_print(NULL);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "licload: cannot open %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "licload: libbpf cannot load %s: %s\n",
			argv[1], strerror(-err));
		bpf_object__close(obj);
		return 1;
	}

	bpf_object__for_each_program(prog, obj) {
		const char *name = bpf_program__name(prog);

		for (i = 2; i < argc; i++) {
			fd = load_as(prog, argv[i]);
			if (fd < 0) {
				printf("%s license \"%s\": refused, errno %d (%s)\n",
				       name, argv[i], -fd, strerror(-fd));
				print_log(name);
				continue;
			}
			printf("%s license \"%s\": loaded, gpl_compatible=%d\n",
			       name, argv[i], gpl_flag(fd));
			close(fd);
		}
	}
	bpf_object__close(obj);
	return 0;
}
