# Core kernel: the BPF Bloom-filter map. The exercise sizes the bitset and
# writes the hashing loops of kernel/bpf/bloom_filter.c (built in: an edit
# relinks vmlinux); bloom.c and bloom.bpf.c drive filters from user space
# and from BPF programs; the tree's own selftest grades the map.
CHAPTER := 02
TITLE := The BPF Bloom-filter map: sizing, hashing and false positives
TIMEOUT := 900
FILES := kernel/bpf/bloom_filter.c:tree bloom.c:prog bloom.bpf.c:bpf
LDLIBS := -lbpf -lelf -lz -lm
HOSTBUILD := build-selftest.sh
