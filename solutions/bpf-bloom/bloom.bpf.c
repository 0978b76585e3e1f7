// SPDX-License-Identifier: GPL-2.0
/*
 * The Bloom-filter lab, BPF side. bloom.c creates each filter with the
 * size and number of hashes it wants and puts it in slot 0 of "filters";
 * these programs then push and peek ranges of values in that filter, or
 * look the same values up in the hash map "set" for the benchmark.
 *
 * All of them are tc programs, run by bloom.c with BPF_PROG_TEST_RUN on
 * a dummy packet. The range comes in struct lab_range (map "args", key 0);
 * the program's return value is how many values were found.
 *
 * One more, "sized", watches the kernel itself: attached to the exit of
 * bloom_map_alloc(), it reads what the allocation decided for the filter
 * just created, from the kernel's own struct bpf_bloom_filter.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Only the shape matters: an inner map must have the template's type,
 * value size and flags; its size and map_extra are its own.
 */
struct lab_filter {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__type(value, __u32);
	__uint(max_entries, 1);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
	__array(values, struct lab_filter);
} filters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 65536);
} set SEC(".maps");

/* The values first, first + step, ..., count of them. */
struct lab_range {
	__u32 first;
	__u32 step;
	__u32 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct lab_range);
	__uint(max_entries, 1);
} args SEC(".maps");

struct lab_walk {
	void *map;
	__u32 first;
	__u32 step;
	__u32 found;
};

static int push_one(__u32 i, struct lab_walk *w)
{
	__u32 value = w->first + i * w->step;

	/* TODO 1: push value into the filter w->map; count the successes in w->found */
	if (bpf_map_push_elem(w->map, &value, BPF_ANY) == 0)
		w->found++;

	return 0;
}

static int peek_one(__u32 i, struct lab_walk *w)
{
	__u32 value = w->first + i * w->step;

	/* TODO 2: peek value in the filter w->map; count "probably present" in w->found */
	if (bpf_map_peek_elem(w->map, &value) == 0)
		w->found++;

	return 0;
}

static int find_one(__u32 i, struct lab_walk *w)
{
	__u32 value = w->first + i * w->step;

	if (bpf_map_lookup_elem(&set, &value))
		w->found++;
	return 0;
}

static int nothing(__u32 i, struct lab_walk *w)
{
	return 0;
}

/* run(CALLBACK, USE_FILTER): the range from "args", walked by bpf_loop(). */
#define run(cb, use_filter)						\
	({								\
		struct lab_walk w = {};					\
		struct lab_range *r;					\
		__u32 key = 0;						\
		long n = -1;						\
									\
		r = bpf_map_lookup_elem(&args, &key);			\
		if (use_filter)						\
			w.map = bpf_map_lookup_elem(&filters, &key);	\
		if (r && (w.map || !(use_filter))) {			\
			w.first = r->first;				\
			w.step = r->step;				\
			if (bpf_loop(r->count, cb, &w, 0) >= 0)		\
				n = w.found;				\
		}							\
		n;							\
	})

SEC("tc")
int push_range(struct __sk_buff *skb)
{
	return run(push_one, 1);
}

SEC("tc")
int peek_range(struct __sk_buff *skb)
{
	return run(peek_one, 1);
}

SEC("tc")
int find_range(struct __sk_buff *skb)
{
	return run(find_one, 0);
}

SEC("tc")
int walk_range(struct __sk_buff *skb)
{
	return run(nothing, 0);
}

/* What bloom_map_alloc() decided for the last filter it created. */
struct lab_sizing {
	__u32 max_entries;
	__u32 map_extra;
	__u32 nr_hash_funcs;
	__u32 bitset_mask;
	__u32 created;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct lab_sizing);
	__uint(max_entries, 1);
} sizing SEC(".maps");

SEC("fexit/bloom_map_alloc")
int BPF_PROG(sized, union bpf_attr *attr, struct bpf_map *map)
{
	struct bpf_bloom_filter *bloom = (void *)map;
	struct lab_sizing *s;
	__u32 key = 0;

	s = bpf_map_lookup_elem(&sizing, &key);
	/* An error comes back as ERR_PTR(): the last 4095 addresses. */
	if (!s || (unsigned long)map >= (unsigned long)-4095)
		return 0;
	s->max_entries = attr->max_entries;
	s->map_extra = attr->map_extra;
	bpf_probe_read_kernel(&s->nr_hash_funcs, sizeof(s->nr_hash_funcs),
			      &bloom->nr_hash_funcs);
	bpf_probe_read_kernel(&s->bitset_mask, sizeof(s->bitset_mask),
			      &bloom->bitset_mask);
	s->created++;
	return 0;
}
