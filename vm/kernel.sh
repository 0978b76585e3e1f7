#!/bin/sh
# make kernel: Debian's linux-source-6.1, the workbook's patch series and
# config fragments (the workbook's and every lab's), and one lab's kernel
# files, built into bzImage, vmlinux, modules and the gdb helpers. The
# tree and the build live in $WB_CACHE.
#
#   vm/kernel.sh               the workbook's tree, no lab's files in it
#   vm/kernel.sh LAB VARIANT   LAB's kernel files from VARIANT (student,
#                              solution or skeleton); every other lab's
#                              files are the tree's own
#   vm/kernel.sh --tree        only the tree and the saved copies the
#                              labs' patches apply to, no build
#   vm/kernel.sh --pristine    the same, and no lab's file left in the
#                              tree (what vm/xkernel.sh builds from)
set -eu
. "$(dirname "$0")/lib.sh"

TREE_ONLY=0
case ${1:-} in
--tree) TREE_ONLY=1 && shift ;;
--pristine) TREE_ONLY=2 && shift ;;
esac
LAB=${1:-}
VARIANT=${2:-student}
TARBALL=${WB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

# The state of this run, shared by the steps below (each step's own
# variables are local): the Debian version, the series and the config
# fragments wanted, the lab's files wanted in the tree, and the key of
# the kernel wanted (core: tree, configuration and recipe; want: core
# and the lab files' content).
version='' series=$WB_KSTATE/series.want fragments='' touched=$WB_KSTATE/touched
overlay=$WB_KSTATE/overlay.want sums=$WB_KSTATE/overlay.sums core='' want='' edited=''
fast_kos='' keep=0
kept=$WB_KROOT/kept
keep_max=${WB_KEEP_KERNELS:-24}

# check_package: Debian's linux-source-6.1 installed (as root, installs it),
# and its version against the one the series was made on.
check_package() {
	local base
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
}

# plan_series: the series wanted (sum and name of each patch, in order),
# and the config fragments.
plan_series() {
	local l
	wb_series "$WB_KERNEL_DIR/series" | while read -r p; do
		f=$WB_KERNEL_DIR/patches/$p
		[ -f "$f" ] || wb_die "kernel/series names $p, which is not in kernel/patches/"
		printf '%s %s\n' "$(sha256sum <"$f" | cut -c1-16)" "$p"
	done >"$series"

	# One course, one configuration: the workbook's fragments, then every
	# lab's own (labs/*/kernel.config), in the book's order.
	fragments=$(
		ls "$WB_KERNEL_DIR"/configs/*.config
		[ "${SANITIZE:-0}" = 0 ] || ls "$WB_KERNEL_DIR"/configs/sanitize/*.config
		for l in $(WB_LABS=$WB_ROOT/labs wb_lab_names); do
			[ ! -f "$WB_ROOT/labs/$l/kernel.config" ] || echo "$WB_ROOT/labs/$l/kernel.config"
		done
	)
}

# extract: the package into a new tree. The files of the tree that
# differ from the package ($touched) get a new mtime, so that objects
# built from the old content are rebuilt even though tar restores older
# mtimes.
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
	rm -rf "$WB_KSRC" "$WB_KBASE"
	mv "$WB_KSRC.new" "$WB_KSRC"
	: >"$WB_KSTATE/series.applied"
	: >"$WB_KSTATE/overlay.applied"
}

# prepare_tree: the tree as the package and the series make it.
prepare_tree() {
	local n_applied
	if [ ! -f "$WB_KSRC/Makefile" ] || [ ! -f "$WB_KSTATE/series.applied" ] ||
		[ ! -f "$WB_KSTATE/overlay.applied" ]; then
		extract
	fi
	# The patches applied so far must be the start of the series; otherwise
	# start over from the package, since undoing is less reliable than
	# extracting again.
	n_applied=$(wc -l <"$WB_KSTATE/series.applied")
	if [ "$(head -n "$n_applied" "$series")" != "$(cat "$WB_KSTATE/series.applied")" ]; then
		wb_say "the series changed: starting again from a pristine tree"
		extract
		n_applied=0
	fi
	if [ "$n_applied" -lt "$(wc -l <"$series")" ] && [ -s "$WB_KSTATE/overlay.applied" ]; then
		# A lab's file is in the tree: put the tree's own back first, so that
		# the series applies to the tree and the saved copies stay pristine.
		while read -r _src dest; do
			if [ -f "$WB_KBASE/$dest" ]; then
				cp "$WB_KBASE/$dest" "$WB_KSRC/$dest"
			else
				rm -f "$WB_KSRC/$dest"
			fi
		done <"$WB_KSTATE/overlay.applied"
		: >"$WB_KSTATE/overlay.applied"
		rm -rf "$WB_KBASE"
	fi
	tail -n +"$((n_applied + 1))" "$series" | while read -r _ p; do
		wb_step "applying $p"
		wb_apply_patch "$WB_KSRC" "$WB_KERNEL_DIR/patches/$p" \
			"kernel/patches/$p (on linux-source-6.1 $version)" || exit 1
		wb_patch_files "$WB_KERNEL_DIR/patches/$p" >>"$touched"
		grep " $p\$" "$series" >>"$WB_KSTATE/series.applied"
	done
	# The tree as the package and the series made it: a file newer than this
	# stamp that no lab owns was edited by hand (see hand_edit below). A
	# cache from before the stamp existed takes its tree as it is.
	if [ ! -f "$WB_KSTATE/tree.stamp" ] ||
		[ "$(wc -l <"$WB_KSTATE/series.applied")" != "$n_applied" ]; then
		touch "$WB_KSTATE/tree.stamp"
	fi
}

# The tree's version of every file a lab's exercise patch touches, saved
# before any lab file goes in: the labs' patches apply to these copies,
# and a file is put back from here when its lab is no longer built.
# A lab's tree files (FILES, kind tree) are saved too, for the lab's
# author to start a patch from (vm/labpatch.sh).
# The list is made again only when a patch or a lab.mk changed (one ls
# instead of a parse of every lab), so that a no-op build stays quick.
save_bases() {
	local sol_dirs lab_dirs base_key d p mk f
	sol_dirs=$WB_ROOT/solutions
	[ "$WB_SOLUTIONS" = "$sol_dirs" ] || sol_dirs="$sol_dirs $WB_SOLUTIONS"
	lab_dirs=$WB_ROOT/labs
	[ "$WB_LABS" = "$lab_dirs" ] || lab_dirs="$lab_dirs $WB_LABS"
	# shellcheck disable=SC2086
	base_key=$(for d in $sol_dirs; do ls "$d"/*/*.patch || :; done 2>/dev/null
		for d in $lab_dirs; do ls "$d"/*/lab.mk || :; done 2>/dev/null)
	# shellcheck disable=SC2086
	base_key=$(ls -l --time-style=+%s.%N $base_key 2>/dev/null | sha256sum | cut -c1-32)
	if [ ! -f "$WB_KSTATE/base.want" ] || [ "$(cat "$WB_KSTATE/base.key" 2>/dev/null)" != "$base_key" ]; then
		{
			for d in $sol_dirs; do
				for p in "$d"/*/*.patch; do
					[ -f "$p" ] && wb_patch_files "$p"
				done
			done
			for d in $lab_dirs; do
				for mk in "$d"/*/lab.mk; do
					[ -f "$mk" ] && wb_lab_own_files "${mk%/lab.mk}" |
						awk '$2 == "tree" { print $1 }'
				done
			done
		} | sort -u >"$WB_KSTATE/base.want"
		echo "$base_key" >"$WB_KSTATE/base.key"
	fi
	while read -r f; do
		if [ -f "$WB_KBASE/$f" ] || [ -f "$WB_KBASE/.absent/$f" ]; then
			continue
		fi
		grep -q " $f\$" "$WB_KSTATE/overlay.applied" && continue
		if [ -f "$WB_KSRC/$f" ]; then
			mkdir -p "$(dirname "$WB_KBASE/$f")"
			cp -p "$WB_KSRC/$f" "$WB_KBASE/$f"
		else
			mkdir -p "$(dirname "$WB_KBASE/.absent/$f")"
			: >"$WB_KBASE/.absent/$f"
		fi
	done <"$WB_KSTATE/base.want"
}

# ---- the lab's kernel files -------------------------------------------

# plan_overlay: only LAB's files go into the tree, from VARIANT; every
# other lab's are the tree's own, so that one lab's compile error never
# breaks another.
plan_overlay() {
	local src
	: >"$overlay"
	if [ -n "$LAB" ]; then
		"$WB_ROOT/vm/skel.sh" "$LAB" "$VARIANT" || exit 1
		wb_lab_own_files "$LAB" | while read -r path kind; do
			[ "$kind" = tree ] || continue
			if [ "$VARIANT" = student ]; then
				src=$WB_LABWORK/$LAB/student/tree/$path
			else
				src=$(wb_variant_file "$LAB" "$VARIANT" "$path")
			fi
			[ -f "$src" ] || wb_die "lab $LAB: $src is missing"
			printf '%s %s\n' "$src" "$path"
		done >"$overlay"
	fi
}

# kernel_key: what a build is made from: the tree, the configuration
# and the way it is built (core), and the content of the lab's files in
# it (want).
kernel_key() {
	local src dest
	core=$( {
		printf '%s\n' "$version"
		cat "$series"
		# shellcheck disable=SC2086
		cat $fragments
		# Not this script itself: editing the harness must not cost a
		# build. Bump this when the way the tree is built changes.
		echo "recipe 2: bzImage modules scripts_gdb headers"
	} | sha256sum | cut -c1-32)
	while read -r src dest; do
		printf '%s %s\n' "$dest" "$(sha256sum <"$src" | cut -c1-32)"
	done <"$overlay" | sort >"$sums.want"
	want=$( (echo "$core"; cat "$sums.want") | sha256sum | cut -c1-32)
}

# up_to_date: true when nothing changed since the last good build and
# nobody edited the tree behind our back (edited: the first such file).
up_to_date() {
	edited=$(find "$WB_KSRC" -newer "$WB_KSTATE/built" -type f -print 2>/dev/null | head -n 1) || :
	[ -f "$WB_KSTATE/built" ] || edited=yes
	[ "${FORCE:-0}" = 0 ] && [ -z "$edited" ] &&
		[ "$(cat "$WB_KSTATE/built")" = "$want" ] &&
		[ -f "$WB_KBUILD/arch/x86/boot/bzImage" ]
}

# plan_fast: when only module code changed since the last good build (a
# lab's file that goes into a .ko, put in or taken out), vmlinux stays as
# it is: make builds those modules alone (fast_kos), instead of walking
# the whole tree.
plan_fast() {
	local changed dest ko obj k
	fast_kos=
	if [ "${FORCE:-0}" = 0 ] && [ -z "$edited" ] &&
		[ "$(cat "$WB_KSTATE/built.core" 2>/dev/null)" = "$core" ] &&
		[ -f "$WB_KSTATE/built.sums" ] && [ -f "$WB_KBUILD/modules.order" ] &&
		[ -f "$WB_KBUILD/vmlinux" ] && [ -f "$WB_KBUILD/arch/x86/boot/bzImage" ]; then
		changed=$(sort "$WB_KSTATE/built.sums" "$sums.want" | uniq -u | cut -d' ' -f1 | sort -u)
		for dest in $changed; do
			ko=
			case $dest in
			*.c)
				obj=${dest%.c}.o
				ko=$(while read -r k; do
					if grep -qx "$obj" "$WB_KBUILD/${k%.ko}.mod" 2>/dev/null; then
						echo "$k"
					fi
				done <"$WB_KBUILD/modules.order")
				;;
			esac
			if [ -z "$ko" ]; then
				fast_kos=
				break
			fi
			fast_kos="$fast_kos $ko"
		done
	fi
}

# put_overlay: the previous lab's files go back to the tree's version;
# this lab's are copied only when their content differs, so that make
# sees a new mtime exactly where something changed.
put_overlay() {
	local src dest
	while read -r _src dest; do
		grep -q " $dest\$" "$overlay" && continue
		wb_say "tree file $dest: back to the tree's version"
		if [ -f "$WB_KBASE/$dest" ]; then
			cp "$WB_KBASE/$dest" "$WB_KSRC/$dest"
		else
			rm -f "$WB_KSRC/$dest"
		fi
	done <"$WB_KSTATE/overlay.applied"
	while read -r src dest; do
		if ! cmp -s "$src" "$WB_KSRC/$dest"; then
			wb_say "lab $LAB ($VARIANT): $dest"
			mkdir -p "$(dirname "$WB_KSRC/$dest")"
			cp "$src" "$WB_KSRC/$dest"
		fi
		echo "$dest" >>"$touched"
	done <"$overlay"
	cp "$overlay" "$WB_KSTATE/overlay.applied"
	[ ! -f "$touched" ] || sort -u "$touched" -o "$touched"
}

# ---- configuration ----------------------------------------------------

# make in the tree, in the sandbox of every build (wb_jail): it reads
# the tree and writes the build folder, ccache's and the modules' only,
# so that a student's kernel file cannot include what is not the
# kernel's. WB_KBUILD_LIMIT (seconds, make grade sets it) bounds it; no
# file it writes is larger than 2 GiB (vmlinux.o is about 400 MB); the
# build folder is too large for WB_JAIL_DISK's copies, and the next build
# restores the tree's own files.
kmake() {
	local cc
	cc=${CCACHE_DIR:-$WB_CACHE/ccache}
	mkdir -p "$WB_KBUILD" "$cc" "$WB_KMODROOT"
	WB_JAIL_FSIZE=2147483648 WB_JAIL_DISK="" wb_jail "${WB_KBUILD_LIMIT:-0}" "$WB_KSRC" \
		"$WB_KBUILD $cc $WB_KMODROOT" make -C "$WB_KSRC" O="$WB_KBUILD" -j"$WB_JOBS" \
		CC="ccache gcc" KBUILD_BUILD_TIMESTAMP=workbook \
		KBUILD_BUILD_USER=workbook KBUILD_BUILD_HOST=workbook "$@"
}

# configure: allnoconfig, then the fragments merged with the tree's
# merge_config.sh, when the fragments or the series changed; every
# option a fragment asks for must be in the final .config.
configure() {
	local cfg_want
	# shellcheck disable=SC2086
	cfg_want=$( (cat $fragments; cat "$series") | sha256sum | cut -c1-32)
	if [ ! -f "$WB_KBUILD/.config" ] || [ "$(cat "$WB_KSTATE/config" 2>/dev/null)" != "$cfg_want" ]; then
		wb_step "configuring: allnoconfig + $(echo "$fragments" | sed "s#^$WB_ROOT/##" | tr '\n' ' ')"
		mkdir -p "$WB_KBUILD"
		kmake -s allnoconfig >/dev/null
		# shellcheck disable=SC2086
		"$WB_KSRC/scripts/kconfig/merge_config.sh" -m -O "$WB_KBUILD" \
			"$WB_KBUILD/.config" $fragments >"$WB_KSTATE/merge.log" 2>&1 ||
			{ cat "$WB_KSTATE/merge.log" >&2; wb_die "merge_config.sh failed"; }
		kmake -s olddefconfig >>"$WB_KSTATE/merge.log" 2>&1
		# shellcheck disable=SC2086
		wb_config_missing "$WB_KBUILD/.config" $fragments >"$WB_KSTATE/config.missing"
		if [ -s "$WB_KSTATE/config.missing" ]; then
			wb_say "error: these options did not stick (a dependency is missing or they are misspelled):"
			cat "$WB_KSTATE/config.missing" >&2
			rm -f "$WB_KSTATE/config"
			exit 1
		fi
		echo "$cfg_want" >"$WB_KSTATE/config"
	fi
}

# ---- kernels built before ---------------------------------------------

# Every good build is kept under the key of what it is made from ($want):
# vmlinux, bzImage, System.map, Module.symvers and the installed modules.
# A lab's solution, its skeleton and the tree's own kernel each have one,
# so that going back to a kernel built before costs two copies instead
# of a relink (about 45 s for a built-in lab's file) or a module build.
# The WB_KEEP_KERNELS (24, enough for every variant of make check) used
# last are kept: 30 MB of modules each, and a vmlinux of 170 MB that
# kernels with the same one (a module lab's) share as a hard link.
kept=$WB_KROOT/kept
keep_max=${WB_KEEP_KERNELS:-24}

# hand_edit: the first file of the tree edited by hand (newer than the
# tree's stamp and not a lab's file, which this script writes itself).
# A kept kernel does not have that edit: with one, nothing is kept or
# taken from the kept kernels.
hand_edit() {
	find "$WB_KSRC" -newer "$WB_KSTATE/tree.stamp" -type f 2>/dev/null |
		sed "s#^$WB_KSRC/##" | grep -vxF -f "$WB_KSTATE/base.want" | head -n 1
}

# keepable: this build may be kept and a kept one used: no FORCE, no
# hand edit, and no lab file among the UAPI headers (the kept files do
# not include the installed headers).
keepable() {
	local h
	[ "${FORCE:-0}" = 0 ] || return 1
	if grep -q -e '^include/uapi/' -e '^arch/[^/]*/include/uapi/' "$sums.want"; then
		return 1
	fi
	h=$(hand_edit)
	[ -z "$h" ] && return 0
	wb_say "note: $h was edited by hand in $WB_KSRC, so no kernel built before is used or kept (to start again from the package, remove $WB_KSRC)"
	return 1
}

# put FILE DEST: copy FILE to DEST through a new file, so that a VM that
# booted the old DEST (a hard link in its run folder) keeps it.
put() {
	cp "$1" "$2.new" && mv -f "$2.new" "$2"
}

# keep_vmlinux DEST: the build's vmlinux at DEST. A kept vmlinux with the
# same bytes (another variant of a module lab) is linked, not copied:
# kept files are never written again (use_kept copies them out).
keep_vmlinux() {
	local other
	for other in "$kept"/*/vmlinux; do
		[ -f "$other" ] && cmp -s "$other" "$WB_KBUILD/vmlinux" &&
			ln "$other" "$1" 2>/dev/null && return 0
	done
	cp "$WB_KBUILD/vmlinux" "$1"
}

# keep_kernel: keep this build under $want; the oldest go.
keep_kernel() {
	local dir what old
	dir=$kept/$want
	# Named after the lab only when its files are in it: without them,
	# every lab's kernel is the tree's own (one key).
	what="the tree's own"
	[ ! -s "$sums.want" ] || what="lab $LAB, $VARIANT"
	rm -rf "$dir" "$dir.new"
	if mkdir -p "$dir.new" && keep_vmlinux "$dir.new/vmlinux" &&
		cp "$WB_KBUILD/System.map" "$WB_KBUILD/Module.symvers" \
			"$WB_KBUILD/arch/x86/boot/bzImage" "$dir.new/" &&
		cp -a "$WB_KMODROOT/lib/modules" "$dir.new/modules" &&
		cp "$sums.want" "$dir.new/sums" &&
		echo "$what" >"$dir.new/what" &&
		mv "$dir.new" "$dir"; then
		# shellcheck disable=SC2012 # the names are hex keys
		ls -1t "$kept" | tail -n +"$((keep_max + 1))" | while read -r old; do
			rm -rf "${kept:?}/$old"
		done
		# gdb's index of each file it read (vmlinux, modules; see
		# wb_gdb_args): the newest 200 stay.
		# shellcheck disable=SC2012 # the names are build ids
		ls -1t "$WB_CACHE/gdb-index" 2>/dev/null | tail -n +201 | while read -r old; do
			rm -f "$WB_CACHE/gdb-index/$old"
		done
	else
		rm -rf "$dir.new"
		wb_say "note: could not keep this kernel in $kept (disk full? see df -h $WB_CACHE); carrying on"
	fi
}

# use_kept: the kernel kept under $want goes back into the build and the
# module folder, the in-tree modules' .ko too (their BTF is that
# vmlinux's). The objects stay those of the last build: the lab files
# this script copied into the tree are newer than them, so that the next
# make that needs them rebuilds them.
use_kept() {
	local dir release f ko
	dir=$kept/$want
	release=$(cat "$WB_KBUILD/include/config/kernel.release" 2>/dev/null) || return 1
	[ -d "$dir/modules/$release" ] && [ -f "$WB_KBUILD/modules.order" ] || return 1
	for f in vmlinux System.map Module.symvers; do
		put "$dir/$f" "$WB_KBUILD/$f" || return 1
	done
	put "$dir/bzImage" "$WB_KBUILD/arch/x86/boot/bzImage" || return 1
	while read -r ko; do
		put "$dir/modules/$release/kernel/$ko" "$WB_KBUILD/$ko" || return 1
	done <"$WB_KBUILD/modules.order"
	rm -rf "$WB_KMODROOT/lib/modules.new"
	mkdir -p "$WB_KMODROOT/lib"
	cp -a "$dir/modules" "$WB_KMODROOT/lib/modules.new" || return 1
	rm -rf "$WB_KMODROOT/lib/modules"
	mv "$WB_KMODROOT/lib/modules.new" "$WB_KMODROOT/lib/modules"
	touch "$dir"
}

# take_kept: true when the kernel kept under $want is back in the build
# (nothing left to build); a kernel that cannot be put back whole is
# dropped, and the build runs as if nothing had been kept: make rebuilds
# whatever is older than its sources.
take_kept() {
	local start
	[ -f "$kept/$want/sums" ] || return 1
	start=$(date +%s)
	if use_kept; then
		cp "$sums.want" "$WB_KSTATE/built.sums"
		echo "$core" >"$WB_KSTATE/built.core"
		echo "$want" >"$WB_KSTATE/built"
		wb_say "kernel ($(cat "$kept/$want/what")) as built before, from $kept/$want, in $(($(date +%s) - start)) s"
		return 0
	fi
	rm -rf "${kept:?}/$want"
	echo failed >"$WB_KSTATE/built"
	wb_say "note: the kernel kept in $kept/$want could not be put back; building it"
	return 1
}

# ---- build ------------------------------------------------------------

# Depend mode: on a miss ccache compiles once and takes the headers from
# the compiler's own -MD output instead of running the preprocessor too.
export CCACHE_DIR="${CCACHE_DIR:-$WB_CACHE/ccache}" CCACHE_DEPEND=1
log=$WB_KSTATE/build.log

# build TARGET...: make them, with progress, and on failure say what the
# compiler said and which file of the lab it was. A build from scratch
# shows done/total, the share and the time left: the total is the step
# count of the last build from scratch here, or the one counted for the
# workbook's configuration (kernel/BUILD_STEPS). The steps do not cost
# the same (the first thousands are small files, the link is one step of
# minutes), so the time left follows the last build from scratch: its
# profile (cold.profile: the seconds it had taken at every 250th step)
# says how much of it was still ahead at this step, scaled by how this
# build's pace compares. Without a profile, this build's own rate.
build() {
	local rc total prof
	rc=0 total=0 prof=$WB_KSTATE/cold.profile
	if [ ! -f "$WB_KBUILD/vmlinux" ]; then
		total=$(cat "$WB_KSTATE/cold.steps" 2>/dev/null || cat "$WB_KERNEL_DIR/BUILD_STEPS" 2>/dev/null || echo 0)
	fi
	[ -f "$prof" ] || : >"$prof"
	{ kmake "$@" 2>&1 || echo "WB-MAKE-FAILED $?"; } |
		tee "$log" | awk -v total="$total" -v start="$(date +%s)" -v prof="$prof" -v new="$prof.new" '
			BEGIN { while ((getline l < prof) > 0) { split(l, f, " "); p[f[1]] = f[2]; pend = f[2] } }
			/^  [A-Z]/ {
				n++
				if (n % 250)
					next
				"date +%s" | getline now
				close("date +%s")
				print n, now - start > new
				if (total + 0 > n) {
					if (p[n] > 0 && pend > p[n])
						left = (pend - p[n]) * (now - start) / p[n]
					else
						left = (now - start) * (total - n) / n
					printf "    %5d/%d steps (%d%%), about %d min left, now %s\n", n, total, 100 * n / total, (left + 59) / 60, $2
				} else
					printf "    %5d steps, now %s\n", n, $2
				fflush()
			}
			/^WB-MAKE-FAILED/ { failed = 1 }
			END {
				"date +%s" | getline now
				print n, now - start > new
				exit failed
			}' >&2 || rc=1
	if [ "$rc" = 0 ] && [ "$total" != 0 ]; then
		grep -c '^  [A-Z]' "$log" >"$WB_KSTATE/cold.steps" || :
		mv "$prof.new" "$prof"
	fi
	rm -f "$prof.new"
	[ "$rc" = 0 ] && return 0
	wb_disk_full "$log" "the kernel build" && return 1
	if grep -q '^WB-MAKE-FAILED 124$' "$log"; then
		wb_say "error: the kernel build did not finish within its limit (WB_KBUILD_LIMIT, ${WB_KBUILD_LIMIT:-0} s) and was stopped. Its last lines:"
		grep -v '^WB-MAKE-FAILED' "$log" | tail -n 15 >&2
		return 1
	fi
	wb_say "error: the kernel build failed. The compiler said:"
	grep -E -B2 -A6 'error:|Error [0-9]' "$log" | grep -v '^WB-MAKE-FAILED' | head -n 60 >&2
	# Name the student's copy when the error is in a lab file.
	while read -r src dest; do
		[ "$VARIANT" = student ] && src=$WB_LABS/$LAB/$dest
		if grep -q "^[^ ]*$dest:[0-9]*:[0-9]*: error" "$log"; then
			wb_say "the error is in $dest, which comes from $src"
		fi
	done <"$overlay"
	return 1
}

# A failed build leaves the last good build's sums in place (what the
# objects in the build are made from) and marks the stamp, newer than
# the lab files just copied, as not matching anything: the next run
# builds again, still only the modules if only module code changed.
failed() {
	echo failed >"$WB_KSTATE/built"
	exit 1
}

# Ctrl-C (or a TERM) during the build: make stops its jobs; the next run
# goes on from where this one stopped.
interrupted() {
	trap - INT TERM
	[ -f "$WB_KSTATE/modules.order" ] && [ ! -f "$WB_KBUILD/modules.order" ] &&
		cp "$WB_KSTATE/modules.order" "$WB_KBUILD/modules.order"
	echo failed >"$WB_KSTATE/built"
	wb_say "interrupted: the kernel build stopped halfway. Nothing is lost; the next make kernel (or make lab) goes on from where it stopped."
	exit "$1"
}
# build_kernel: the modules alone (fast_kos), or bzImage, vmlinux, the
# modules, the gdb scripts and the UAPI headers; then kept.
build_kernel() {
	local start all_kos rc release ko
	start=$(date +%s)
	if [ -n "$fast_kos" ]; then
		wb_step "building only the module$([ "$(echo "$fast_kos" | wc -w)" = 1 ] || echo s)$fast_kos (-j$WB_JOBS, log: $log)"
		# A single-target build drops modules.order, which the next full
		# build and modules_install read: keep it.
		cp "$WB_KBUILD/modules.order" "$WB_KSTATE/modules.order"
		# Every module is named, not only the changed ones: modpost checks a
		# module's symbols against the modules it is given (scsi_debug needs
		# crc-t10dif's), and the ones that did not change cost nothing.
		all_kos=$(cat "$WB_KSTATE/modules.order")
		rc=0
		# shellcheck disable=SC2086
		build $all_kos || rc=$?
		cp "$WB_KSTATE/modules.order" "$WB_KBUILD/modules.order"
		[ "$rc" = 0 ] || failed
		release=$(cat "$WB_KBUILD/include/config/kernel.release")
		for ko in $all_kos; do
			cmp -s "$WB_KBUILD/$ko" "$WB_KMODROOT/lib/modules/$release/kernel/$ko" ||
				cp "$WB_KBUILD/$ko" "$WB_KMODROOT/lib/modules/$release/kernel/$ko"
		done
		depmod -b "$WB_KMODROOT" "$release" ||
			wb_die "depmod failed on $WB_KMODROOT/lib/modules/$release"
	else
		wb_step "building bzImage, vmlinux, modules, gdb scripts and UAPI headers (-j$WB_JOBS, log: $log)"
		build bzImage modules scripts_gdb headers || failed
		kmake -s modules_install INSTALL_MOD_PATH="$WB_KMODROOT" >/dev/null
		echo "$core" >"$WB_KSTATE/built.core"
	fi
	cp "$sums.want" "$WB_KSTATE/built.sums"
	echo "$want" >"$WB_KSTATE/built"
	[ "$keep" = 0 ] || keep_kernel
	if [ -n "$fast_kos" ]; then
		wb_say "modules built in $(($(date +%s) - start)) s, vmlinux unchanged: $WB_KMODROOT"
	else
		wb_say "kernel built in $(($(date +%s) - start)) s: $WB_KBUILD/arch/x86/boot/bzImage"
	fi
}

# ---- the steps ---------------------------------------------------------

# One run: the package, the tree with the series, the saved copies of the
# labs' files, then (unless --tree) this lab's files, the key of the
# kernel wanted, and the build: nothing, a kernel kept before, the
# modules alone, or the whole kernel.

wb_need_cache
# The tree alone (--tree: make book, make lab-patch) needs what extracts
# and patches it; a build needs the compilers too.
wb_need_cmds patch:patch xz:xz-utils dpkg-query:dpkg flock:util-linux
[ "$TREE_ONLY" != 0 ] || wb_need_cmds make:make gcc:gcc flex:flex bison:bison bc:bc \
	perl:perl ccache:ccache pahole:dwarves lz4:lz4
# The tree's lock (held already when vm/lab.sh runs this script: the
# lock's descriptor is inherited, see wb_klock).
wb_klock

# A student repository (make student-repo) has no solutions, and its
# series leaves the labs' answers out: its tree is not the course's. A
# cache holds one tree: the first kind of checkout to use it keeps it.
checkout=course
[ -d "$WB_SOLUTIONS" ] || checkout=student
if [ -f "$WB_KSTATE/checkout" ] && [ "$(cat "$WB_KSTATE/checkout")" != "$checkout" ]; then
	wb_die "$WB_CACHE holds the kernel tree of a $(cat "$WB_KSTATE/checkout") repository, and this is a $checkout repository: give this one a cache of its own (WB_CACHE=...)"
fi
echo "$checkout" >"$WB_KSTATE/checkout"

check_package
plan_series
prepare_tree
save_bases
[ "$TREE_ONLY" = 1 ] && exit 0
plan_overlay
if [ "$TREE_ONLY" = 2 ]; then
	put_overlay
	exit 0
fi
kernel_key
if up_to_date; then
	wb_say "kernel is up to date ($WB_KBUILD${LAB:+, lab $LAB $VARIANT}, nothing to do)"
	exit 0
fi
plan_fast
put_overlay
configure
if keepable; then
	keep=1
	! take_kept || exit 0
fi
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
build_kernel
