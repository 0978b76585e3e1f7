#!/bin/sh
# make kernel: Debian's linux-source-6.1, the workbook's patch series and
# config fragments, and the labs' kernel files, built into bzImage, vmlinux,
# modules and the gdb helpers. The tree and the build live in $WB_CACHE.
#
#   vm/kernel.sh [LAB VARIANT]
#
# Every lab's kernel files go into the tree as the student left them,
# except LAB's, which come from VARIANT (student, solution or skeleton).
#
#   vm/kernel.sh --tree      only the tree (for make book), no build
set -eu
. "$(dirname "$0")/lib.sh"

TREE_ONLY=0
if [ "${1:-}" = --tree ]; then
	TREE_ONLY=1
	shift
fi
LAB=${1:-}
VARIANT=${2:-student}
TARBALL=${WB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

wb_need_cache
wb_need_cmds make:make gcc:gcc flex:flex bison:bison bc:bc perl:perl \
	ccache:ccache pahole:dwarves lz4:lz4 patch:patch xz:xz-utils dpkg-query:dpkg \
	flock:util-linux
# vm/lab.sh holds the lock already and says so with WB_KLOCKED=1.
[ "${WB_KLOCKED:-0}" = 1 ] || wb_klock

# ---- the package ------------------------------------------------------

if [ ! -f "$TARBALL" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		wb_die "$TARBALL is missing; install it with: sudo apt-get install linux-source-6.1"
	fi
	wb_step "installing Debian's linux-source-6.1"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-source-6.1 >&2 ||
		wb_die "apt-get could not install linux-source-6.1"
fi
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
base=$(cat "$WB_KERNEL_DIR/BASE")
printf '%s\n' "$version" >"$WB_KSTATE/debian-version"
if [ "$version" = "$base" ]; then
	wb_say "linux-source-6.1 $version (the series was made on this version)"
else
	wb_say "warning: linux-source-6.1 is $version; the series was made on $base. Carrying on: a patch that no longer applies will say so."
fi

# ---- what the tree should hold ----------------------------------------

series=$WB_KSTATE/series.want
: >"$series"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$WB_KERNEL_DIR/series" |
	while read -r p; do
		f=$WB_KERNEL_DIR/patches/$p
		[ -f "$f" ] || wb_die "kernel/series names $p, which is not in kernel/patches/"
		printf '%s %s\n' "$(sha256sum <"$f" | cut -c1-16)" "$p"
	done >"$series"

# The labs' kernel files, "source destination" lines: the workbook's
# labs as their students left them, except LAB, from VARIANT (and from
# $WB_LABS, which a test may point elsewhere).
overlay=$WB_KSTATE/overlay.want
: >"$overlay"
extra=
[ "$WB_LABS" != "$WB_ROOT/labs" ] && extra=$WB_LABS/$LAB/lab.mk
for mk in "$WB_ROOT"/labs/*/lab.mk $extra; do
	[ -f "$mk" ] || continue
	dir=${mk%/lab.mk}
	lab=${dir##*/}
	if [ "$lab" = "$LAB" ] && [ "$dir" != "$WB_LABS/$LAB" ]; then
		continue
	fi
	wb_lab_files "$dir" | while read -r path kind dest; do
		[ "$kind" = tree ] || continue
		if [ "$lab" = "$LAB" ]; then
			src=$(wb_variant_file "$lab" "$VARIANT" "$path")
		else
			src=$dir/$path
		fi
		[ -f "$src" ] || wb_die "lab $lab: $src is missing"
		printf '%s %s\n' "$src" "${dest:-$path}"
	done >>"$overlay"
done

fragments=$(ls "$WB_KERNEL_DIR"/configs/*.config)

fingerprint() {
	{
		printf '%s\n' "$version"
		cat "$series"
		# shellcheck disable=SC2086
		cat $fragments
		while read -r src dest; do
			printf '%s %s\n' "$dest" "$(sha256sum <"$src")"
		done <"$overlay"
		cat "$0" "$(dirname "$0")/lib.sh"
	} | sha256sum | cut -c1-32
}
want=$(fingerprint)

# Nothing changed since the last good build, and nobody edited the tree
# behind our back: say so and stop.
if [ "${FORCE:-0}" = 0 ] && [ -f "$WB_KSTATE/built" ] &&
	[ "$(cat "$WB_KSTATE/built")" = "$want" ] &&
	[ -f "$WB_KBUILD/arch/x86/boot/bzImage" ] &&
	[ -z "$(find "$WB_KSRC" -newer "$WB_KSTATE/built" -type f -print 2>/dev/null | head -n 1)" ]; then
	wb_say "kernel is up to date ($WB_KBUILD, nothing to do)"
	exit 0
fi

# ---- the tree ---------------------------------------------------------

# Files of the tree that differ from the package: after a fresh
# extraction they get a new mtime, so that objects built from the old
# content are rebuilt even though tar restores older mtimes.
touched=$WB_KSTATE/touched

patch_files() {
	sed -n -e 's#^+++ b/##p' -e 's#^--- a/##p' "$1" | sort -u
}

extract() {
	wb_step "extracting $TARBALL into $WB_KSRC (about 20 s)"
	rm -rf "$WB_KSRC.new"
	mkdir -p "$WB_KSRC.new"
	tar -xJf "$TARBALL" -C "$WB_KSRC.new" --strip-components=1 ||
		wb_die "could not extract $TARBALL into $WB_KSRC.new (disk full? see df -h $WB_CACHE)"
	if [ -f "$touched" ]; then
		# A file that a patch adds is not in the package: skip it without
		# letting the loop's status (and set -e) end the script.
		(cd "$WB_KSRC.new" && sort -u "$touched" | while read -r f; do
			[ ! -e "$f" ] || touch "$f"
		done)
	fi
	rm -rf "$WB_KSRC"
	mv "$WB_KSRC.new" "$WB_KSRC"
	: >"$WB_KSTATE/series.applied"
	: >"$WB_KSTATE/overlay.applied"
}

# Print hunk N of FILE in a patch.
show_hunk() {
	awk -v file="$2" -v n="$3" '
		/^\+\+\+ b\// { cur = substr($0, 7); k = 0; show = 0; next }
		/^diff --git / { show = 0 }
		/^@@/ && cur == file { k++; show = (k == n) }
		show { print "    " $0 }' "$1"
}

apply_patch() {
	p=$1
	f=$WB_KERNEL_DIR/patches/$p
	if ! out=$(patch -d "$WB_KSRC" -p1 -N --dry-run --batch <"$f" 2>&1); then
		wb_say "error: kernel/patches/$p does not apply to linux-source-6.1 $version:"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		printf '%s\n' "$out" | awk '
			/^checking file / { file = $3 }
			/^Hunk #[0-9]+ FAILED/ { sub(/^#/, "", $2); print file, $2 }' |
			while read -r file n; do
				wb_say "  failing hunk #$n of $file:"
				show_hunk "$f" "$file" "$n" >&2
			done
		exit 1
	fi
	patch -d "$WB_KSRC" -p1 -N --batch -s <"$f" >/dev/null
	patch_files "$f" >>"$touched"
}

if [ ! -f "$WB_KSRC/Makefile" ] || [ ! -f "$WB_KSTATE/series.applied" ]; then
	extract
fi
# The patches applied so far must be the start of the series, and every
# file overlaid so far must still be overlaid; otherwise start over from
# the package, since undoing is less reliable than extracting again.
n_applied=$(wc -l <"$WB_KSTATE/series.applied")
if [ "$(head -n "$n_applied" "$series")" != "$(cat "$WB_KSTATE/series.applied")" ]; then
	wb_say "the series changed: starting again from a pristine tree"
	extract
	n_applied=0
fi
cut -d' ' -f2 "$WB_KSTATE/overlay.applied" | while read -r dest; do
	grep -q " $dest\$" "$overlay" || echo "$dest"
done >"$WB_KSTATE/overlay.dropped"
if [ -s "$WB_KSTATE/overlay.dropped" ]; then
	wb_say "lab files left the tree ($(tr '\n' ' ' <"$WB_KSTATE/overlay.dropped")): starting again from a pristine tree"
	extract
	n_applied=0
fi
tail -n +"$((n_applied + 1))" "$series" | while read -r _ p; do
	wb_step "applying $p"
	apply_patch "$p"
	grep " $p\$" "$series" >>"$WB_KSTATE/series.applied"
done

# Lab files: copied only when their content differs, so that make sees a
# new mtime exactly where something changed.
while read -r src dest; do
	if ! cmp -s "$src" "$WB_KSRC/$dest"; then
		wb_say "lab file $src -> $dest"
		mkdir -p "$(dirname "$WB_KSRC/$dest")"
		cp "$src" "$WB_KSRC/$dest"
	fi
	echo "$dest" >>"$touched"
done <"$overlay"
cp "$overlay" "$WB_KSTATE/overlay.applied"
[ ! -f "$touched" ] || sort -u "$touched" -o "$touched"
[ "$TREE_ONLY" = 1 ] && exit 0

# ---- configuration ----------------------------------------------------

kmake() {
	make -C "$WB_KSRC" O="$WB_KBUILD" -j"$WB_JOBS" \
		CC="ccache gcc" KBUILD_BUILD_TIMESTAMP=workbook \
		KBUILD_BUILD_USER=workbook KBUILD_BUILD_HOST=workbook "$@"
}

# shellcheck disable=SC2086
cfg_want=$( (cat $fragments; cat "$series") | sha256sum | cut -c1-32)
if [ ! -f "$WB_KBUILD/.config" ] || [ "$(cat "$WB_KSTATE/config" 2>/dev/null)" != "$cfg_want" ]; then
	wb_step "configuring: allnoconfig + $(echo "$fragments" | sed 's#.*/##' | tr '\n' ' ')"
	mkdir -p "$WB_KBUILD"
	kmake -s allnoconfig >/dev/null
	# shellcheck disable=SC2086
	"$WB_KSRC/scripts/kconfig/merge_config.sh" -m -O "$WB_KBUILD" \
		"$WB_KBUILD/.config" $fragments >"$WB_KSTATE/merge.log" 2>&1 ||
		{ cat "$WB_KSTATE/merge.log" >&2; wb_die "merge_config.sh failed"; }
	kmake -s olddefconfig >>"$WB_KSTATE/merge.log" 2>&1
	# Every option a fragment asks for must be in the final .config.
	# shellcheck disable=SC2086
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 n/p' $fragments |
		while read -r sym val; do
			got=$(sed -n "s/^$sym=//p" "$WB_KBUILD/.config")
			[ "$val" = n ] && [ -z "$got" ] && continue
			[ "$got" = "$val" ] && continue
			printf '  %s: requested %s, got %s\n' "$sym" "$val" "${got:-n}"
		done >"$WB_KSTATE/config.missing"
	if [ -s "$WB_KSTATE/config.missing" ]; then
		wb_say "error: these options did not stick (a dependency is missing or they are misspelled):"
		cat "$WB_KSTATE/config.missing" >&2
		rm -f "$WB_KSTATE/config"
		exit 1
	fi
	echo "$cfg_want" >"$WB_KSTATE/config"
fi

# ---- build ------------------------------------------------------------

# Depend mode: on a miss ccache compiles once and takes the headers from
# the compiler's own -MD output instead of running the preprocessor too.
export CCACHE_DIR="${CCACHE_DIR:-$WB_CACHE/ccache}" CCACHE_DEPEND=1
log=$WB_KSTATE/build.log
wb_step "building bzImage, vmlinux, modules, gdb scripts and UAPI headers (-j$WB_JOBS, log: $log)"
start=$(date +%s)
rc=0
{ kmake bzImage modules scripts_gdb headers 2>&1 || echo "WB-MAKE-FAILED $?"; } |
	tee "$log" | awk '
		/^  [A-Z]/ { n++; if (n % 250 == 0) { printf "    %5d steps, now %s\n", n, $2; fflush() } }
		/^WB-MAKE-FAILED/ { failed = 1 }
		END { exit failed }' >&2 || rc=1
if [ "$rc" != 0 ]; then
	wb_say "error: the kernel build failed. The compiler said:"
	grep -E -B2 -A6 'error:|Error [0-9]' "$log" | grep -v '^WB-MAKE-FAILED' | head -n 60 >&2
	# Name the student's copy when the error is in a lab file.
	while read -r src dest; do
		if grep -q "^[^ ]*$dest:[0-9]*:[0-9]*: error" "$log"; then
			wb_say "the error is in $dest, which comes from $src"
		fi
	done <"$overlay"
	exit 1
fi
kmake -s modules_install INSTALL_MOD_PATH="$WB_KMODROOT" >/dev/null
echo "$want" >"$WB_KSTATE/built"
wb_say "kernel built in $(($(date +%s) - start)) s: $WB_KBUILD/arch/x86/boot/bzImage"
