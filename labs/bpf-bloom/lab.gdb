# The Bloom-filter map under gdb: what bloom_map_alloc() decided for the
# first filter run.sh creates, and the first peek.
#
# run.sh starts with "bloom demo": a filter for 1000 values of 4 bytes,
# map_extra 3. n * k = 3000, / 5 * 7 = 4200 bits, rounded up to 8192:
# nr_hash_funcs 3, bitset_mask 0x1fff. The breakpoint is on the function
# and "finish" runs it to its return: the value it returns is the new
# map, whose fields are read from the structure itself. No line number
# of kernel/bpf/bloom_filter.c is named, so the same commands work on
# the skeleton, on the student's file and on the worked solution.
#
# The first peek is the demo's "peek 42": bloom_map_peek_elem() gets the
# value to test (the user's 42, copied in by map_lookup_elem()).
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

break bloom_map_alloc
break bloom_map_peek_elem
wb-continue
wb-finish
set $bloom = (struct bpf_bloom_filter *) $
print $bloom->nr_hash_funcs
print/x $bloom->bitset_mask
print $bloom->map.max_entries
print $bloom->map.map_extra
wb-continue
print *(unsigned int *)value
print ((struct bpf_bloom_filter *)map)->nr_hash_funcs
print/x ((struct bpf_bloom_filter *)map)->bitset_mask
backtrace 3
delete
# expect: Breakpoint 1, bloom_map_alloc
# expect: Value returned is \$1 = \(struct bpf_map \*\) 0x
# expect: ^\$2 = 3$
# expect: ^\$3 = 0x1fff$
# expect: ^\$4 = 1000$
# expect: ^\$5 = 3$
# expect: Breakpoint 2, bloom_map_peek_elem
# expect: ^\$6 = 42$
# expect: ^\$7 = 3$
# expect: ^\$8 = 0x1fff$
# expect: map_lookup_elem
