#!/bin/sh
# Host side, run by vm/lab.sh as: sh labs/bpf-bloom/build-selftest.sh BUILD_DIR
# with WB_KSRC, WB_LAB_CACHE and WB_JOBS set. It only compiles.
#
# The tree's BPF selftest for the Bloom-filter map,
# tools/testing/selftests/bpf/prog_tests/bloom_filter_map.c, needs the
# whole selftests/bpf Makefile (hundreds of BPF programs, bpftool, a test
# module) to be built the usual way. This builds only what that one test
# needs, from the tree: its libbpf (static), the test's BPF program and
# skeleton, and test_progs with a list of tests that holds only
# bloom_filter_map. The result, BUILD_DIR/test_progs, runs in the guest
# as: ./test_progs -t bloom_filter_map
#
# Nothing here depends on the lab's kernel build (the BPF program uses the
# tree's UAPI header, not vmlinux.h), so the work is kept in the lab's
# cache ($WB_LAB_CACHE/selftest-bpf) and redone only when the tree or this
# script changes.
set -eu
out=${1:?usage: build-selftest.sh BUILD_DIR}
: "${WB_KSRC:?}" "${WB_LAB_CACHE:?}" "${WB_ROOT:?}"
# shellcheck source=../../vm/lib.sh
. "$WB_ROOT/vm/lib.sh"
st=$WB_KSRC/tools/testing/selftests/bpf
c=$WB_LAB_CACHE/selftest-bpf

# What the result depends on: this script and the sources it compiles.
stamp=$(
	{
		cat "$0"
		cat "$st/test_progs.c" "$st/test_progs.h" "$st/testing_helpers.c" \
			"$st/trace_helpers.c" "$st/cgroup_helpers.c" \
			"$st/prog_tests/bloom_filter_map.c" "$st/progs/bloom_filter_map.c"
		find "$WB_KSRC/tools/lib/bpf" -name '*.[ch]' -exec cat {} +
	} | sha256sum | cut -c1-16
)
if [ -x "$c/test_progs" ] && [ "$(cat "$c/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "selftest: test_progs is up to date ($c)"
	cp "$c/test_progs" "$out/test_progs"
	exit 0
fi
rm -rf "$c"
mkdir -p "$c/libbpf" "$c/root" "$c/gen/prog_tests" "$c/bpf" "$c/obj"

# 1. The tree's libbpf, static, and its headers (with the generated
#    bpf_helper_defs.h) under $c/root/include/bpf.
echo "selftest: libbpf from $WB_KSRC/tools/lib/bpf"
make -s -C "$WB_KSRC/tools/lib/bpf" OUTPUT="$c/libbpf/" \
	DESTDIR="$c/root" prefix= -j"$WB_JOBS" "$c/libbpf/libbpf.a" install_headers
inc=$c/root/include

# 2. The test's BPF program, compiled the way the selftests compile
#    theirs, and its libbpf skeleton (host bpftool).
echo "selftest: progs/bloom_filter_map.c"
# shellcheck disable=SC2046
clang $(wb_bpf_cflags) -mcpu=v3 -Werror -Wno-compare-distinct-pointer-types \
	-I "$inc" -I "$st" -I "$WB_KSRC/tools/include/uapi" -idirafter /usr/include \
	-c "$st/progs/bloom_filter_map.c" -o "$c/bpf/bloom_filter_map.bpf.o"
bpftool gen object "$c/bpf/bloom_filter_map.linked.o" "$c/bpf/bloom_filter_map.bpf.o"
bpftool gen skeleton "$c/bpf/bloom_filter_map.linked.o" name bloom_filter_map \
	>"$c/bpf/bloom_filter_map.skel.h"

# 3. test_progs knows its tests from prog_tests/tests.h, which the
#    selftests' Makefile generates from every prog_tests/*.c: here it
#    names one test. Our gen/ folder comes first on the include path.
echo 'DEFINE_TEST(bloom_filter_map)' >"$c/gen/prog_tests/tests.h"

# 4. test_progs, the test, and the helpers test_progs.c calls. The
#    tree's tools/include comes after libbpf's headers, as in the
#    selftests' Makefile; -I bpf finds the skeleton.
echo "selftest: test_progs with bloom_filter_map only"
for f in test_progs.c testing_helpers.c trace_helpers.c cgroup_helpers.c \
	prog_tests/bloom_filter_map.c; do
	gcc -g -O0 -rdynamic -Wall -Wno-unused-result -I "$c/gen" -I "$c/bpf" -I "$st" \
		-I "$inc" -I "$WB_KSRC/tools/include" -I "$WB_KSRC/tools/include/uapi" \
		-I "$c/libbpf" -c "$st/$f" -o "$c/obj/$(basename "$f" .c).o"
done
gcc -g -rdynamic -o "$c/test_progs" "$c"/obj/*.o "$c/libbpf/libbpf.a" \
	-lelf -lz -lrt -lpthread
echo "$stamp" >"$c/stamp"
cp "$c/test_progs" "$out/test_progs"
echo "selftest: $out/test_progs"
