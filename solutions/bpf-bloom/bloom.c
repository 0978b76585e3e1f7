// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: the Bloom-filter lab's user-space side, with libbpf.
 *
 *   bloom create KEY_SIZE VALUE_SIZE MAX_ENTRIES MAP_EXTRA
 *                       create one filter and say what the kernel answered
 *   bloom demo          push and peek from user space
 *   bloom bits N K      the bitset the kernel allocates for N values, K hashes
 *   bloom sizes         the kernel's sizing (read by a BPF program) next to ours
 *   bloom prog          push and peek from BPF programs (bloom.bpf.o)
 *   bloom fp PROBES     false positives against theory, k = 1..15
 *   bloom bench RUNS    lookup time, filter against hash map
 *
 * bpftool 7.1 can neither set map_extra nor pass the value a peek needs,
 * hence this program.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define OBJ "/build/bloom.bpf.o"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The filters of the table and the benchmark are sized for SIZE values. */
#define SIZE 10000
/* Pushed values are 0, 1, 2, ...; probes start here, far from them. */
#define PROBE_BASE 0x80000000u

static void die(const char *what)
{
	fprintf(stderr, "bloom: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * A Bloom filter of MAX_ENTRIES values of VALUE_SIZE bytes, with the
 * number of hashes in MAP_EXTRA. A file descriptor, or -1 with errno set.
 */
static int bloom_create(__u32 key_size, __u32 value_size, __u32 max_entries,
			__u64 map_extra)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);

	/* TODO 1: pass map_extra (the number of hashes) to the kernel in opts */
	opts.map_extra = map_extra;

	return bpf_map_create(BPF_MAP_TYPE_BLOOM_FILTER, "bloom", key_size,
			      value_size, max_entries, &opts);
}

/* Push VALUE into the filter FD: 0, or -1 with errno set. */
static int push(int fd, __u32 value)
{
	/* TODO 2: a push is an update without a key, with flags BPF_ANY */
	if (bpf_map_update_elem(fd, NULL, &value, BPF_ANY))
		return -1;

	return 0;
}

/* Peek VALUE: 0 (probably pushed), or -1 with errno ENOENT (never pushed). */
static int peek(int fd, __u32 value)
{
	/* TODO 3: a peek is a lookup without a key: the value goes in, not out */
	if (bpf_map_lookup_elem(fd, NULL, &value))
		return -1;

	return 0;
}

/*
 * The number of bits the kernel allocates for N values and K hashes
 * (K = 0 meaning its default, 5), computed as bloom_map_alloc() does.
 */
static __u64 kernel_bits(__u32 n, __u32 k)
{
	__u64 bits = 64;

	if (k == 0)
		k = 5;
	/* TODO 4: n * k, divided by 5, times 7, each step in a u32; a power of two */
	if ((__u64)n * k > UINT32_MAX ||
	    (__u64)(n * k / 5) * 7 > UINT32_MAX ||
	    n * k / 5 * 7 > (1u << 31))
		return 1ull << 32;
	while (bits < n * k / 5 * 7)
		bits <<= 1;

	return bits;
}

/* The expected false-positive rate, (1 - e^(-kn/m))^k. */
static double theory(double n, double k, double m)
{
	return pow(1 - exp(-k * n / m), k);
}

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "?";
	}
}

static void show_map_extra(int fd)
{
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "map_type", 8) || !strncmp(line, "max_entries", 11) ||
		    !strncmp(line, "map_extra", 9))
			printf("  fdinfo %s", line);
	fclose(f);
}

static int cmd_create(int argc, char **argv)
{
	int fd;

	if (argc != 6) {
		fprintf(stderr, "usage: bloom create KEY_SIZE VALUE_SIZE MAX_ENTRIES MAP_EXTRA\n");
		return 2;
	}
	fd = bloom_create(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
			  strtoul(argv[4], NULL, 0), strtoull(argv[5], NULL, 0));
	if (fd < 0) {
		printf("create key_size %s value_size %s max_entries %s map_extra %s: %s (%s)\n",
		       argv[2], argv[3], argv[4], argv[5], errname(errno), strerror(errno));
		return 1;
	}
	printf("create key_size %s value_size %s max_entries %s map_extra %s: ok\n",
	       argv[2], argv[3], argv[4], argv[5]);
	show_map_extra(fd);
	close(fd);
	return 0;
}

static int cmd_demo(void)
{
	static const __u32 pushed[] = { 42, 1000, 31337 };
	static const __u32 probes[] = { 42, 1000, 31337, 7, 43, 99999 };
	unsigned int i;
	int fd;

	fd = bloom_create(0, sizeof(__u32), 1000, 3);
	if (fd < 0)
		die("create");
	printf("a filter for 1000 values of 4 bytes, 3 hashes: fd %d, %llu bits\n",
	       fd, (unsigned long long)kernel_bits(1000, 3));
	show_map_extra(fd);
	for (i = 0; i < ARRAY_SIZE(pushed); i++) {
		if (push(fd, pushed[i]))
			die("push");
		printf("push %u\n", pushed[i]);
	}
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (peek(fd, probes[i]) == 0)
			printf("peek %u: probably pushed\n", probes[i]);
		else
			printf("peek %u: %s (%s)\n", probes[i],
			       errno == ENOENT ? "never pushed" : strerror(errno),
			       errname(errno));
	}
	if (bpf_map_update_elem(fd, NULL, &pushed[0], BPF_EXIST))
		printf("push with flags BPF_EXIST: %s (%s)\n", errname(errno), strerror(errno));
	if (bpf_map_delete_elem(fd, NULL))
		printf("delete: %s (%s)\n", errname(errno), strerror(errno));
	close(fd);
	return 0;
}

/* ---- the BPF programs ---------------------------------------------- */

struct lab_range {
	__u32 first;
	__u32 step;
	__u32 count;
};

static struct bpf_object *obj;
static int args_fd, filters_fd, set_fd;

static int prog_fd(const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, name);

	if (!p) {
		errno = ENOENT;
		die(name);
	}
	return bpf_program__fd(p);
}

static void open_obj(void)
{
	obj = bpf_object__open_file(OBJ, NULL);
	if (!obj)
		die("open " OBJ);
	if (bpf_object__load(obj))
		die("load " OBJ);
	args_fd = bpf_object__find_map_fd_by_name(obj, "args");
	filters_fd = bpf_object__find_map_fd_by_name(obj, "filters");
	set_fd = bpf_object__find_map_fd_by_name(obj, "set");
	if (args_fd < 0 || filters_fd < 0 || set_fd < 0)
		die("maps of " OBJ);
}

/* Put the filter FD in slot 0 of "filters", where the programs find it. */
static void use_filter(int fd)
{
	__u32 key = 0;

	if (bpf_map_update_elem(filters_fd, &key, &fd, BPF_ANY))
		die("filters");
}

/*
 * Run program NAME over FIRST, FIRST + STEP, ... (COUNT values), REPEAT
 * times: what it found, and the mean time of one run in *NS.
 */
static long run(const char *name, __u32 first, __u32 step, __u32 count,
		int repeat, __u32 *ns)
{
	struct lab_range r = { first, step, count };
	char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = repeat);
	__u32 key = 0;

	if (bpf_map_update_elem(args_fd, &key, &r, BPF_ANY))
		die("args");
	if (bpf_prog_test_run_opts(prog_fd(name), &opts))
		die(name);
	if (ns)
		*ns = opts.duration;
	return (int)opts.retval;
}

static int cmd_prog(void)
{
	__u32 n = 1000, k = 3, probes = 100000;
	long found;
	int fd;

	open_obj();
	fd = bloom_create(0, sizeof(__u32), n, k);
	if (fd < 0)
		die("create");
	use_filter(fd);
	printf("a filter for %u values, %u hashes: %llu bits\n", n, k,
	       (unsigned long long)kernel_bits(n, k));
	found = run("push_range", 0, 1, n, 1, NULL);
	printf("push_range: bpf_map_push_elem() accepted %ld of the values 0..%u\n",
	       found, n - 1);
	found = run("peek_range", 0, 1, n, 1, NULL);
	printf("peek_range 0..%u: %ld probably pushed (no false negatives)\n", n - 1, found);
	found = run("peek_range", PROBE_BASE, 1, probes, 1, NULL);
	printf("peek_range over %u values never pushed: %ld positives, %.5f; theory %.5f\n",
	       probes, found, (double)found / probes,
	       theory(n, k, kernel_bits(n, k)));
	/* From user space, the same filter gives the same answers. */
	printf("user-space peek 999: %s; peek %u: %s\n",
	       peek(fd, 999) ? "never pushed" : "probably pushed",
	       PROBE_BASE, peek(fd, PROBE_BASE) ? "never pushed" : "probably pushed");
	close(fd);
	bpf_object__close(obj);
	return 0;
}

struct lab_sizing {
	__u32 max_entries;
	__u32 map_extra;
	__u32 nr_hash_funcs;
	__u32 bitset_mask;
	__u32 created;
};

/*
 * Create filters of several sizes while the BPF program "sized" watches
 * bloom_map_alloc(): the kernel's bitset next to kernel_bits().
 */
static int cmd_sizes(void)
{
	static const __u32 cases[][2] = {
		{ 1, 1 }, { 7, 1 }, { 10, 4 }, { 12, 5 }, { 100, 0 }, { 1000, 3 },
		{ 1000, 5 }, { 1000, 15 }, { 10000, 15 }, { 1u << 23, 1 },
	};
	struct lab_sizing s;
	struct bpf_link *link;
	unsigned int i;
	__u32 key = 0;
	int fd, sfd;

	open_obj();
	sfd = bpf_object__find_map_fd_by_name(obj, "sizing");
	link = bpf_program__attach(bpf_object__find_program_by_name(obj, "sized"));
	if (sfd < 0 || !link)
		die("attach sized to bloom_map_alloc");
	printf("%-9s %-9s | %-8s %-10s %-10s | %-10s\n", "n", "map_extra",
	       "kernel k", "mask", "bits", "kernel_bits");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		__u32 n = cases[i][0], k = cases[i][1];
		__u64 ours = kernel_bits(n, k);

		fd = bloom_create(0, sizeof(__u32), n, k);
		if (fd < 0)
			die("create");
		if (bpf_map_lookup_elem(sfd, &key, &s))
			die("sizing");
		printf("%-9u %-9u | %-8u %#-10x %-10llu | %-10llu %s\n", s.max_entries,
		       s.map_extra, s.nr_hash_funcs, s.bitset_mask,
		       (unsigned long long)s.bitset_mask + 1, (unsigned long long)ours,
		       ours == (__u64)s.bitset_mask + 1 ? "same" : "DIFFERENT");
		close(fd);
	}
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return 0;
}

/*
 * One row per k: the bitset m the kernel allocates for SIZE values, then
 * for n = SIZE/2 .. 4 SIZE values pushed, theory and measurement over
 * PROBES values that were never pushed.
 */
static int cmd_fp(__u32 probes)
{
	static const __u32 loads[] = { SIZE / 2, SIZE, 2 * SIZE, 4 * SIZE };
	unsigned int i;
	__u32 k;

	open_obj();
	printf("# k m n theory measured positives probes\n");
	for (k = 1; k <= 15; k++) {
		__u64 m = kernel_bits(SIZE, k);

		for (i = 0; i < ARRAY_SIZE(loads); i++) {
			__u32 n = loads[i];
			long pos;
			int fd;

			fd = bloom_create(0, sizeof(__u32), SIZE, k);
			if (fd < 0)
				die("create");
			use_filter(fd);
			if (run("push_range", 0, 1, n, 1, NULL) != n)
				die("push_range");
			pos = run("peek_range", PROBE_BASE, 1, probes, 1, NULL);
			printf("%u %llu %u %.6g %.6g %ld %u\n", k, (unsigned long long)m, n,
			       theory(n, k, m), (double)pos / probes, pos, probes);
			fflush(stdout);
			close(fd);
		}
	}
	bpf_object__close(obj);
	return 0;
}

/*
 * The filter and the hash map hold the same SIZE values; each run looks
 * up LOOKUPS values present in both, then LOOKUPS values in neither, in
 * either one, and walks the same loop with no lookup at all (the loop's
 * own cost). One line per hash count and run:
 * k run walk hash-present bloom-present hash-absent bloom-absent (ns per run).
 */
static int cmd_bench(int runs)
{
	static const __u32 ks[] = { 1, 2, 3, 5, 8, 12, 15 };
	const __u32 lookups = 4096;
	const int repeat = 20;
	__u32 i, one = 1, t[5];
	unsigned int j;
	int r, fd;

	open_obj();
	for (i = 0; i < SIZE; i++)
		if (bpf_map_update_elem(set_fd, &i, &one, BPF_ANY))
			die("set");
	printf("# k run walk hash-present bloom-present hash-absent bloom-absent\n");
	for (j = 0; j < ARRAY_SIZE(ks); j++) {
		fd = bloom_create(0, sizeof(__u32), SIZE, ks[j]);
		if (fd < 0)
			die("create");
		use_filter(fd);
		if (run("push_range", 0, 1, SIZE, 1, NULL) != SIZE)
			die("push_range");
		for (r = 1; r <= runs; r++) {
			run("walk_range", 0, 1, lookups, repeat, &t[0]);
			if (run("find_range", 0, 1, lookups, repeat, &t[1]) != lookups ||
			    run("peek_range", 0, 1, lookups, repeat, &t[2]) != lookups)
				die("a present value was not found");
			run("find_range", PROBE_BASE, 1, lookups, repeat, &t[3]);
			run("peek_range", PROBE_BASE, 1, lookups, repeat, &t[4]);
			printf("%u %d %u %u %u %u %u\n", ks[j], r, t[0], t[1], t[2], t[3], t[4]);
			fflush(stdout);
		}
		close(fd);
	}
	bpf_object__close(obj);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "create"))
		return cmd_create(argc, argv);
	if (!strcmp(cmd, "demo"))
		return cmd_demo();
	if (!strcmp(cmd, "bits") && argc == 4) {
		printf("%llu\n", (unsigned long long)kernel_bits(strtoul(argv[2], NULL, 0),
								 strtoul(argv[3], NULL, 0)));
		return 0;
	}
	if (!strcmp(cmd, "sizes"))
		return cmd_sizes();
	if (!strcmp(cmd, "prog"))
		return cmd_prog();
	if (!strcmp(cmd, "fp"))
		return cmd_fp(argc > 2 ? strtoul(argv[2], NULL, 0) : 1 << 18);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(argc > 2 ? atoi(argv[2]) : 5);
	fprintf(stderr, "usage: bloom create|demo|bits N K|sizes|prog|fp [PROBES]|bench [RUNS]\n");
	return 2;
}
