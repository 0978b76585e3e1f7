# The Bloom-filter map under gdb: what bloom_map_alloc() decided for the
# first filter run.sh creates, and the first peek.
#
# run.sh starts with "bloom demo": a filter for 1000 values of 4 bytes,
# map_extra 3. n * k = 3000, / 5 * 7 = 4200 bits, rounded up to 8192:
# nr_hash_funcs 3, bitset_mask 0x1fff. The breakpoint is on a line
# after both fields are stored in the new map: line 171 of the
# solution's kernel/bpf/bloom_filter.c, where the random seed is drawn.
# get_random_u32() is a call the compiler cannot see into, so the stores
# to the map are done before it; the fields are read from the structure
# itself, not from registers that the optimizer may have reused.
#
# The first peek is the demo's "peek 42": bloom_map_peek_elem() gets the
# value to test (the user's 42, copied in by map_lookup_elem()).
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

break kernel/bpf/bloom_filter.c:171
break bloom_map_peek_elem
wb-continue
print bloom->nr_hash_funcs
print/x bloom->bitset_mask
print bloom->map.max_entries
print bloom->map.map_extra
wb-continue
print *(unsigned int *)value
print ((struct bpf_bloom_filter *)map)->nr_hash_funcs
print/x ((struct bpf_bloom_filter *)map)->bitset_mask
backtrace 3
delete
# expect: Breakpoint 1, bloom_map_alloc
# expect: ^\$1 = 3$
# expect: ^\$2 = 0x1fff$
# expect: ^\$3 = 1000$
# expect: ^\$4 = 3$
# expect: Breakpoint 2, bloom_map_peek_elem
# expect: ^\$5 = 42$
# expect: ^\$6 = 3$
# expect: ^\$7 = 0x1fff$
# expect: map_lookup_elem
