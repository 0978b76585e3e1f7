#!/bin/sh
# A kernel for another architecture, from the workbook's tree: the same
# Debian package and series as the x86 kernel, with no lab's file in it,
# cross-compiled by Debian's gcc-*-linux-gnu into a build folder of its
# own. Its configuration is allnoconfig and the fragments named, merged
# with the tree's merge_config.sh; an option that did not stick stops
# the build. Used by the tours whose guests are not x86 (tour-arch).
#
#   vm/xkernel.sh NAME ARCH TARGETS FRAGMENT...
#
# NAME names the build folder ($WB_CACHE/xkernel/NAME, printed on
# stdout when the build is there), ARCH is the kernel's name for the
# architecture (arm64, mips, parisc, riscv), TARGETS what make builds
# ("Image modules", say). A build whose inputs did not change is used
# as it is; a tree file newer than it makes make run again, and make
# rebuilds only what changed. The labs' own files do not count: every
# cross kernel is built after vm/kernel.sh --pristine has put the tree's
# own versions back, so one newer than the build has the content it was
# built from (an x86 lab's run put its version in, this run took it out).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 4 ] || wb_die "usage: vm/xkernel.sh NAME ARCH TARGETS FRAGMENT..."
name=$1 arch=$2 targets=$3
shift 3
for f; do
	[ -f "$f" ] || wb_die "config fragment $f is missing"
done
cross=$(wb_cross "$arch")
wb_need_cache
wb_need_cmds make:make flex:flex bison:bison bc:bc perl:perl ccache:ccache
dir=$WB_CACHE/xkernel/$name
log=$dir.log
mkdir -p "$dir"

# The tree as vm/kernel.sh makes it, under its lock for the whole build:
# an x86 lab that puts its files into the tree waits until this is done.
wb_klock
"$WB_ROOT/vm/kernel.sh" --pristine || exit 1

xmake() {
	make -C "$WB_KSRC" O="$dir" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$WB_JOBS" KBUILD_BUILD_TIMESTAMP=workbook \
		KBUILD_BUILD_USER=workbook KBUILD_BUILD_HOST=workbook "$@"
}

export CCACHE_DIR="${CCACHE_DIR:-$WB_CACHE/ccache}" CCACHE_DEPEND=1
key=$( {
	cat "$WB_KSTATE/debian-version" "$WB_KSTATE/series.applied" "$@"
	echo "$arch $targets, recipe 1"
} | sha256sum | cut -c1-32)
newer=$(find "$WB_KSRC" -newer "$dir/.wb-built" -type f -print 2>/dev/null |
	sed "s#^$WB_KSRC/##" | grep -vxF -f "$WB_KSTATE/base.want" | head -n 1) || :
if [ "$(cat "$dir/.wb-key" 2>/dev/null)" = "$key" ] && [ -f "$dir/.wb-built" ] && [ -z "$newer" ]; then
	wb_say "$arch kernel ($name) is up to date: $dir"
	echo "$dir"
	exit 0
fi
rm -f "$dir/.wb-built"
if [ "$(cat "$dir/.wb-config" 2>/dev/null)" != "$key" ]; then
	wb_step "configuring the $arch kernel: allnoconfig + $(echo "$@" | sed "s#$WB_ROOT/##g")"
	xmake -s allnoconfig >"$log" 2>&1 || { cat "$log" >&2; wb_die "allnoconfig failed for $arch"; }
	"$WB_KSRC/scripts/kconfig/merge_config.sh" -m -O "$dir" "$dir/.config" "$@" >>"$log" 2>&1 ||
		{ cat "$log" >&2; wb_die "merge_config.sh failed for $arch"; }
	xmake -s olddefconfig >>"$log" 2>&1
	missing=$(wb_config_missing "$dir/.config" "$@")
	if [ -n "$missing" ]; then
		wb_say "error: these options of the $arch kernel did not stick (a dependency is missing or they are misspelled):"
		printf '%s\n' "$missing" >&2
		exit 1
	fi
	echo "$key" >"$dir/.wb-config"
fi
start=$(date +%s)
wb_step "building the $arch kernel ($name): $targets (-j$WB_JOBS, log: $log)"
# shellcheck disable=SC2086 # TARGETS is a list of words
if ! xmake $targets >>"$log" 2>&1; then
	wb_disk_full "$log" "the $arch kernel build" || tail -n 30 "$log" >&2
	wb_die "the $arch kernel did not build (log: $log)"
fi
echo "$key" >"$dir/.wb-key"
touch "$dir/.wb-built"
wb_say "$arch kernel built in $(($(date +%s) - start)) s: $dir"
echo "$dir"
