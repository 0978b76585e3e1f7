# shellcheck shell=sh
# Host-side helpers shared by every script under vm/: where things live,
# how to report, and how to read a lab's manifest. Sourced, never run.
# shellcheck disable=SC2034

WB_ROOT=${WB_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
WB_CACHE=${WB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kernel-workbook}
WB_LABS=${WB_LABS:-$WB_ROOT/labs}
WB_SOLUTIONS=${WB_SOLUTIONS:-$WB_ROOT/solutions}
WB_KERNEL_DIR=${WB_KERNEL_DIR:-$WB_ROOT/kernel}
# What the harness makes for each lab (its variants, the student's tree
# files, builds, caches): one folder per lab. make grade gives each
# submission its own.
WB_LABWORK=${WB_LABWORK:-$WB_CACHE/labs}
# The kernel: its tree, build, state and kept builds. SANITIZE=1 picks
# the kernel with KASAN too (kernel/configs/sanitize/), which has a tree
# and builds of its own beside the usual one.
case ${SANITIZE:-0} in
0) WB_KROOT=$WB_CACHE/kernel ;;
1) WB_KROOT=$WB_CACHE/kernel-sanitize ;;
*) echo "SANITIZE is 0 or 1, not '$SANITIZE'" >&2; exit 2 ;;
esac
WB_KSRC=$WB_KROOT/linux-source-6.1
WB_KBUILD=$WB_KROOT/build
WB_KSTATE=$WB_KROOT/state
# The in-tree modules, as modules_install lays them out for modprobe.
WB_KMODROOT=$WB_KROOT/modroot
WB_JOBS=${WB_JOBS:-$(($(nproc) + 1))}
# The wall time a build of a lab's own code may take (a module, a
# program, a BPF object, a lab's host-built parts), in seconds: a file
# written to make the compiler run for ever stops there.
WB_BUILD_LIMIT=${WB_BUILD_LIMIT:-300}
# Where the dumps of the guests that broke are kept (wb_dump_keep in
# vm/qemu.sh): WB_DUMPS/LAB/STAMP, each with what drgn and crash need.
WB_DUMPS=${WB_DUMPS:-$WB_CACHE/dumps}
# The guest's root folder, one version per folder (vm/initramfs.sh);
# "current" names the newest.
WB_GUESTROOT=$WB_CACHE/guestroot
# The marker every guest-side script looks for on the kernel command line.
WB_MARKER=wb.vm=kernel-workbook
# A run's outcome: statuses, run folder, the KTAP reader.
. "$WB_ROOT/vm/verdict.sh"

wb_say() {
	printf '%s\n' "$*" >&2
}

wb_step() {
	printf '==> %s\n' "$*" >&2
}

wb_die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# wb_drgn_files VMLINUX DIR...: drgn's -s arguments, one per line: the
# vmlinux a kernel booted, then every module (.ko) under the folders DIR
# (the lab's own as built, the tree's that the kernel had); the folders
# that do not exist are left out.
wb_drgn_files() {
	local d
	printf -- '-s\n%s\n' "$1"
	shift
	for d in "$@"; do
		[ ! -d "$d" ] || find "$d" -name '*.ko' -printf '-s\n%p\n'
	done
}

# The cache must exist and be writable before anything is put there; say
# which folder and how to pick another one rather than failing later with
# a tar or make error.
wb_need_cache() {
	if ! mkdir -p "$WB_CACHE" 2>/dev/null; then
		wb_die "cannot create the cache folder $WB_CACHE; set WB_CACHE to a writable folder outside the checkout"
	fi
	probe=$WB_CACHE/.write-probe.$$
	if ! touch "$probe" 2>/dev/null; then
		wb_die "the cache folder $WB_CACHE is not writable; fix its permissions or set WB_CACHE to a writable folder outside the checkout"
	fi
	rm -f "$probe"
	case $WB_CACHE/ in
	"$WB_ROOT"/*) wb_die "WB_CACHE ($WB_CACHE) is inside the checkout; the kernel tree must live outside it" ;;
	esac
	wb_not_exported "$WB_CACHE" WB_CACHE
	wb_not_exported "$WB_ROOT" "the checkout"
}

# wb_not_exported PATH WHAT: the guest sees Debian's /usr (vm/qemu.sh):
# the course, its cache and a class's submissions must live elsewhere.
wb_not_exported() {
	case $(cd "$1" 2>/dev/null && pwd -P || echo "$1")/ in
	/usr/local/* | /usr/src/*) ;;
	/usr/*) wb_die "$2 ($1) is under /usr, which every workbook VM sees: move it elsewhere (a home folder, /srv, /var)" ;;
	esac
}

# wb_cross ARCH: the prefix of Debian's cross compiler for the kernel's
# architecture ARCH (aarch64-linux-gnu- for arm64...), after checking
# that it is installed; an architecture without one stops the script.
wb_cross() {
	local t
	case $1 in
	arm64) t=aarch64-linux-gnu ;;
	mips) t=mipsel-linux-gnu ;;
	parisc) t=hppa-linux-gnu ;;
	riscv) t=riscv64-linux-gnu ;;
	*) wb_die "no cross compiler known for the architecture '$1' (arm64, mips, parisc, riscv)" ;;
	esac
	wb_need_cmds "$t-gcc:gcc-$t" >&2
	echo "$t-"
}

# wb_config_missing CONFIG FRAGMENT...: every option a config fragment
# asks for that the .config CONFIG does not have (a dependency is
# missing, or the name is misspelled), one per line: "  SYM: requested
# VALUE, got VALUE". Nothing when every option stuck.
wb_config_missing() {
	local cfg sym val got
	cfg=$1
	shift
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1 n/p' "$@" |
		while read -r sym val; do
			got=$(sed -n "s/^$sym=//p" "$cfg")
			[ "$val" = n ] && [ -z "$got" ] && continue
			[ "$got" = "$val" ] && continue
			printf '  %s: requested %s, got %s\n' "$sym" "$val" "${got:-n}"
		done
}

# wb_stats: "MEDIAN MIN MAX COUNT" of the numbers on stdin, one per line.
wb_stats() {
	sort -n | awk '
		{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			print m, v[1], v[NR], NR
		}'
}

# wb_disk_full LOG WHAT: true, after saying what to do, when LOG shows
# that WHAT stopped because the disk was full.
wb_disk_full() {
	grep -q 'No space left on device' "$1" || return 1
	wb_say "error: the disk filled up during $2: $(df -h "$WB_CACHE" | awk 'NR == 2 { print $4 " left on " $6 }'). Free some space (the kernel build needs about 4 GB in $WB_CACHE; ccache's share can go with: CCACHE_DIR=$WB_CACHE/ccache ccache -C), then run the same command again: the build goes on from where it stopped."
}

# Commands the step needs, with the Debian package that provides each:
# wb_need_cmds "qemu-system-x86_64:qemu-system-x86" "gdb:gdb"
wb_need_cmds() {
	missing=
	for pair; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
	done
	[ -z "$missing" ] && return 0
	wb_die "missing Debian packages:$missing (install them with: apt-get install$missing, or run .ci/run)"
}

# ---- labs -------------------------------------------------------------

# Every lab folder has a lab.mk. Labs are listed in the book's order:
# by CHAPTER (front matter first, then the chapter folders, such as
# 05-networking), then by name; "the first lab" is lab 0.
wb_lab_names() {
	set -- "$WB_LABS"/*/lab.mk
	[ -f "$1" ] || return 0
	# One awk over every lab.mk: the last CHAPTER of each, as
	# wb_manifest reads it, front first.
	awk '
		FNR == 1 { if (mk != "") print ch, mk; ch = ""; mk = FILENAME }
		/^CHAPTER[[:space:]]*:?=/ {
			ch = $0
			sub(/^CHAPTER[[:space:]]*:?=[[:space:]]*/, "", ch)
			if (ch == "front")
				ch = "00"
		}
		END { if (mk != "") print ch, mk }' "$@" |
		sort | sed -e 's#^[^ ]* ##' -e 's#/lab\.mk$##' -e 's#.*/##'
}

wb_lab_list() {
	for name in $(wb_lab_names); do
		printf '  %-20s %-10s %s\n' "$name" \
			"$(wb_manifest "$name" CHAPTER)" "$(wb_manifest "$name" TITLE)"
	done
}

wb_lab_dir() {
	printf '%s/%s\n' "$WB_LABS" "$1"
}

# Refuse an unknown lab with the list of known ones (exit status 2, as
# make does for a usage error).
wb_lab_require() {
	if [ -z "$1" ] || [ ! -f "$WB_LABS/$1/lab.mk" ]; then
		printf "error: unknown lab '%s'. The labs are:\n" "$1" >&2
		wb_lab_list >&2
		exit "$WB_EXIT_USAGE"
	fi
	wb_lab_check "$WB_LABS/$1" >&2 || exit "$WB_EXIT_USAGE"
}

# The keys a lab.mk may set, and what each must hold (docs/authoring.rst
# describes them).
WB_MANIFEST_KEYS="CHAPTER TITLE TIMEOUT FILES KIND DEVICES EXPECT_OOPS DETECTOR_POINTS HOSTBUILD GUESTS LDLIBS KTOOL_CFLAGS KTOOL_INCLUDES"

# wb_lab_check DIR: the lab.mk of the lab folder DIR, read once and
# checked whole: every line a comment, blank or "KEY := value" of a
# known key, no key twice, CHAPTER, TITLE, TIMEOUT and FILES present,
# and each value of the form its key needs (FILES as path:kind, TIMEOUT
# a number, KIND tour, DEVICES cdrom, HOSTBUILD and GUESTS a file of the
# lab). Prints each error as FILE:LINE: what, and fails if there is one.
wb_lab_check() {
	awk -v keys="$WB_MANIFEST_KEYS" -v dir="$1" '
		function err(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; bad = 1 }
		BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) known[k[i]] = 1 }
		/^[[:space:]]*(#|$)/ { next }
		!/^[A-Z_0-9]+[[:space:]]*:?=/ { err("not a line of the form KEY := value: " $0); next }
		{
			key = $0; sub(/[[:space:]]*:?=.*/, "", key)
			val = $0; sub(/^[^=]*=[[:space:]]*/, "", val); sub(/[[:space:]]+$/, "", val)
			if (key == "POINTS") { err("POINTS is gone: give a check its points where it is made, with ktap_points N before it (docs/authoring.rst)"); next }
			if (!(key in known)) { err("unknown key " key " (known: " keys ")"); next }
			if (key in seen) err(key " is set twice (first on line " seen[key] ")")
			seen[key] = FNR
			if (key == "CHAPTER" && val !~ /^(front|tests|[0-9][0-9])$/)
				err("CHAPTER is front or the two digits of a chapter, not \"" val "\"")
			if (key == "TIMEOUT" && val !~ /^[0-9]+$/) err("TIMEOUT is a number of seconds, not \"" val "\"")
			if (key == "DETECTOR_POINTS" && val !~ /^[0-9]+$/) err("DETECTOR_POINTS is a number of points, not \"" val "\"")
			if (key == "KIND" && val != "tour") err("KIND is tour (or absent), not \"" val "\"")
			if (key == "DEVICES" && val !~ /^(cdrom)?$/) err("DEVICES knows cdrom only, not \"" val "\"")
			if ((key == "HOSTBUILD" || key == "GUESTS") && (getline l < (dir "/" val)) < 0) err(key " names " val ", which the lab folder does not have")
			if (key == "GUESTS") guests = FNR
			if (key == "KIND") kind = val
			if (key == "FILES") {
				m = split(val, f, " ")
				for (i = 1; i <= m; i++)
					if (f[i] !~ /^[^:]+:(tree|module|prog|bpf|ktool|kfile)$/)
						err("FILES entry \"" f[i] "\" is not path:kind (kind: tree, module, prog, bpf, ktool or kfile)")
			}
		}
		END {
			split("CHAPTER TITLE TIMEOUT FILES", r, " ")
			for (i = 1; i <= 4; i++)
				if (!(r[i] in seen)) { printf "%s: %s is missing\n", FILENAME, r[i]; bad = 1 }
			# A graded lab is checked in the workbook VM, whose verdict
			# channel the harness reads; a tour may boot guests of its own.
			if (guests && kind != "tour") { printf "%s:%d: GUESTS is for a tour (KIND := tour) only\n", FILENAME, guests; bad = 1 }
			exit bad
		}' "$1/lab.mk"
}

# wb_manifest LAB KEY: the value of "KEY := value" in the lab's lab.mk.
# LAB may also be a path to a lab folder.
wb_manifest() {
	case $1 in
	*/*) mk=$1/lab.mk ;;
	*) mk=$WB_LABS/$1/lab.mk ;;
	esac
	sed -n "s/^$2[[:space:]]*:\{0,1\}=[[:space:]]*//p" "$mk" | tail -n 1
}

# wb_klock: hold the kernel tree's lock on file descriptor 9 until the
# caller closes it or exits. One build at a time in a tree: a second one,
# for another lab in another terminal, waits instead of racing the first.
# The one owner is whoever takes it first: a script that the holder runs
# (vm/lab.sh runs vm/kernel.sh, which runs vm/skel.sh) inherits the
# descriptor, and flock on the same open file is granted at once, where
# opening the file again would wait on its own parent.
wb_klock() {
	mkdir -p "$WB_KSTATE" || wb_die "cannot create $WB_KSTATE"
	if [ "$(readlink "/proc/$$/fd/9" 2>/dev/null)" = "$(readlink -f "$WB_KSTATE/lock")" ] &&
		flock -n 9; then
		return 0
	fi
	exec 9>"$WB_KSTATE/lock"
	if ! flock -n 9; then
		wb_say "another kernel build is using $WB_KSRC; waiting for it to finish"
		flock 9
	fi
}

# wb_jail LIMIT RO RW CMD...: run CMD in a sandbox (bubblewrap) that
# sees Debian's /usr, the dynamic linker's cache and Debian's
# alternatives, the folders of RO read-only and those of RW read-write
# (lists separated by spaces), and nothing else of the host: no network,
# no other process, no home, an empty /tmp, no file larger than
# WB_JAIL_FSIZE bytes (default 256 MiB). Every build of code a student
# wrote runs so: its includes and assembler directives cannot read
# another student's files, the course's solutions or the grader's. LIMIT
# (seconds, 0 for none) bounds its wall time: then it is killed and the
# status is 124, as timeout(1) says.
# With WB_JAIL_DISK (bytes; make grade sets it), each folder of RW is,
# inside the sandbox, a tmpfs of that size: filled from the host's folder
# before CMD, and what CMD made or changed there is copied back after
# it, so that what one build leaves on the disk is bounded, whatever it
# writes. A file the host side wrote meanwhile (the build's log, which
# the caller's redirection writes straight to the host) is newer than
# the sandbox's copy and stays as it is (cp -u). Owners are not copied
# (the sandbox knows no user but its own), and a folder's out/, which
# the guest writes (vm/lab.sh) and may belong to WB_QEMU_USER, is left
# out both ways.
wb_jail() {
	local limit ro rw d n i k copy
	limit=$1 ro=$2 rw=$3
	shift 3
	# Already in one (a HOSTBUILD script's own builds): bubblewrap does
	# not nest, and the outer sandbox holds.
	if [ "${WB_IN_JAIL:-0}" = 1 ]; then
		"$@"
		return
	fi
	n=$#
	for d in $ro; do
		set -- "$@" --ro-bind "$d" "$d"
	done
	k=0 copy=
	for d in $rw; do
		if [ -n "${WB_JAIL_DISK:-}" ]; then
			set -- "$@" --bind "$d" "/.wb-host/$k" --size "$WB_JAIL_DISK" --tmpfs "$d"
			copy="$copy $k:$d"
			k=$((k + 1))
		else
			set -- "$@" --bind "$d" "$d"
		fi
	done
	# The command after the folders, in a shell that copies the tmpfs
	# folders in and out when there are some.
	if [ -n "$copy" ]; then
		# shellcheck disable=SC2016
		set -- "$@" --setenv WB_JAIL_COPY "$copy" sh -c '
			# copy FROM TO [-u]: the entries of FROM but out.
			copy() {
				for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
					[ -e "$e" ] || [ -L "$e" ] || continue
					[ "${e##*/}" != out ] || continue
					cp -dR $3 --preserve=mode,timestamps "$e" "$2/" || return 1
				done
			}
			for p in $WB_JAIL_COPY; do copy "/.wb-host/${p%%:*}" "${p#*:}" || exit 125; done
			rc=0
			"$@" || rc=$?
			for p in $WB_JAIL_COPY; do copy "${p#*:}" "/.wb-host/${p%%:*}" -u || exit 125; done
			exit $rc' sh
	fi
	i=0
	while [ $i -lt "$n" ]; do
		set -- "$@" "$1"
		shift
		i=$((i + 1))
	done
	for d in lib64 lib32 libx32; do
		[ ! -d "/usr/$d" ] || set -- --symlink "usr/$d" "/$d" "$@"
	done
	# An empty /tmp; with WB_JAIL_DISK, of that size (the compiler's
	# temporary files count too).
	if [ -n "${WB_JAIL_DISK:-}" ]; then
		set -- --size "$WB_JAIL_DISK" --tmpfs /tmp "$@"
	else
		set -- --tmpfs /tmp "$@"
	fi
	set -- bwrap --unshare-all --die-with-parent --new-session \
		--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/sbin /sbin \
		--symlink usr/lib /lib --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache \
		--ro-bind-try /etc/alternatives /etc/alternatives \
		--proc /proc --dev /dev --setenv WB_IN_JAIL 1 "$@"
	if [ "$limit" -gt 0 ]; then
		set -- timeout -k 5 "$limit" "$@"
	fi
	prlimit --fsize="${WB_JAIL_FSIZE:-268435456}" -- "$@"
}

# wb_kbuild_module NAME SRC DIR [CCFLAGS]: build DIR/NAME.ko from the one
# file SRC, out of tree, against the lab kernel's build with Kbuild.
# make's output goes to DIR/build.log; its status is returned.
wb_kbuild_module() {
	rm -rf "$3"
	mkdir -p "$3"
	cp "$2" "$3/$1.c"
	printf 'obj-m := %s.o\n' "$1" >"$3/Kbuild"
	[ -z "${4:-}" ] || printf 'ccflags-y := %s\n' "$4" >>"$3/Kbuild"
	wb_jail "$WB_BUILD_LIMIT" "$WB_KSRC $WB_KBUILD" "$3" \
		make -C "$WB_KBUILD" M="$3" modules >"$3/build.log" 2>&1
}

# The clang flags every BPF program of the workbook is compiled with, for
# the lab kernel's architecture; a caller adds its include folders.
wb_bpf_cflags() {
	printf '%s\n' -O2 -g -target bpf -D__TARGET_ARCH_x86 -mlittle-endian \
		-idirafter "/usr/include/$(gcc -print-multiarch)"
}

# The lab's FILES entries, one per line: "path kind". kind is tree (a
# file of the kernel tree that the lab's exercise patch changes or adds),
# module (an out-of-tree module built from that one file), prog (a guest
# program) or bpf (a BPF program, NAME.bpf.c compiled by clang into
# /build/NAME.bpf.o against the lab kernel's vmlinux.h).
# Two more kinds name a file of the kernel tree, not of the lab: ktool (a
# program of the tree, such as a selftest helper, built for the guest)
# and kfile (a file of the tree, such as a selftest script, copied as it
# is). Both land in the guest's /build under their base name.
# LAB may also be a path to a lab folder.
wb_lab_files() {
	for entry in $(wb_manifest "$1" FILES); do
		printf '%s\n' "$entry" | tr ':' ' '
	done
}

# A tour (KIND := tour in lab.mk) shows a chapter's items that have no
# lab: its programs and scripts are the tour folder's own, there is
# nothing for the student to write, no skeleton and no solution. Its
# variants: solution (the tour as it is) and negative (the same boot,
# with every expectation of its checker replaced by a wrong one, which
# must make every result fail).
wb_lab_is_tour() {
	[ "$(wb_manifest "$1" KIND)" = tour ]
}

# The labs a student works on and is graded for: every lab but the tours.
wb_exercise_names() {
	for l in $(wb_lab_names); do
		wb_lab_is_tour "$l" || echo "$l"
	done
}

# The lab's own files (those the student edits): kinds tree, module,
# prog, bpf. A tour has none.
wb_lab_own_files() {
	wb_lab_is_tour "$1" && return 0
	wb_lab_files "$1" | while read -r path kind; do
		case $kind in
		ktool | kfile) ;;
		*) echo "$path $kind" ;;
		esac
	done
}

# The lab's kernel exercise: its worked solution as git format-patch
# files against the workbook's tree (package plus kernel/series), in
# order. Empty for a lab that changes no kernel file.
wb_lab_patches() {
	for p in "$WB_SOLUTIONS/$1"/*.patch; do
		[ -f "$p" ] && echo "$p"
	done
	return 0
}

# The files a patch creates or changes, one per line.
wb_patch_files() {
	sed -n 's#^+++ b/##p' "$1" | sort -u
}

# A student repository (make student-repo) has no solutions/: each lab's
# skeleton is shipped in skeletons/LAB instead (vm/skel.sh, ship).
WB_SKELETONS=${WB_SKELETONS:-$WB_ROOT/skeletons}

# wb_lab_shipped LAB: the lab's skeleton is shipped here and its worked
# solution is not: a student repository's lab.
wb_lab_shipped() {
	[ ! -d "$WB_SOLUTIONS/$1" ] && [ -d "$WB_SKELETONS/$1" ]
}

# The files the patches of kernel/series create or change, one per line
# as often as patches touch them.
wb_series_files() {
	wb_series "$WB_KERNEL_DIR/series" | while read -r p; do
		wb_patch_files "$WB_KERNEL_DIR/patches/$p"
	done
}

# The entries of a series file: one patch name per line, without the
# comments and blank lines.
wb_series() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# The folder a variant's files are written to: solution and skeleton are
# generated into the cache; student is the lab folder itself.
wb_variant_dir() {
	if wb_lab_is_tour "$1"; then
		case $2 in
		student | solution | negative) printf '%s/%s\n' "$WB_LABS" "$1" ;;
		*) wb_die "unknown variant '$2' of tour $1 (solution or negative)" ;;
		esac
		return 0
	fi
	case $2 in
	student) printf '%s/%s\n' "$WB_LABS" "$1" ;;
	solution | skeleton) printf '%s/%s/%s/src\n' "$WB_LABWORK" "$1" "$2" ;;
	negative) wb_die "lab $1 is not a tour: its variants are student, solution and skeleton" ;;
	*) wb_die "unknown variant '$2' (student, solution or skeleton)" ;;
	esac
}

# Where the file of a lab comes from for a variant.
wb_variant_file() {
	printf '%s/%s\n' "$(wb_variant_dir "$1" "$2")" "$3"
}

# The pristine tree files the labs' patches apply to, saved by
# vm/kernel.sh before any lab file goes into the tree.
WB_KBASE=${WB_KBASE:-$WB_KSTATE/base}

# wb_show_hunk PATCH FILE N: print hunk N of FILE in a patch, indented.
wb_show_hunk() {
	awk -v file="$2" -v n="$3" '
		/^\+\+\+ b\// { cur = substr($0, 7); k = 0; show = 0; next }
		/^diff --git / { show = 0 }
		/^@@/ && cur == file { k++; show = (k == n) }
		show { print "    " $0 }' "$1"
}

# wb_apply_patch DIR PATCH LABEL: apply a git format-patch file to the
# tree in DIR, all or nothing. A hunk that applies only at another line
# or with fuzz means the tree moved under the patch: that is reported as
# drift and the patch still applies (the tree's change is kept). A hunk
# that does not apply stops with the file, the hunk and its text; DIR is
# then left as it was. Status 0 when applied.
wb_apply_patch() {
	if ! out=$(patch -d "$1" -p1 -N --dry-run --batch <"$2" 2>&1); then
		wb_say "error: $3 does not apply:"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		printf '%s\n' "$out" | awk '
			/^checking file / { file = $3 }
			/^Hunk #[0-9]+ FAILED/ { sub(/^#/, "", $2); print file, $2 }' |
			while read -r file n; do
				wb_say "  failing hunk #$n of $file:"
				wb_show_hunk "$2" "$file" "$n" >&2
			done
		return 1
	fi
	drift=$(printf '%s\n' "$out" | awk '
		/^checking file / { file = $3 }
		/^Hunk #[0-9]+ succeeded/ { print "    " file ": " $0 }')
	if [ -n "$drift" ]; then
		wb_say "warning: the tree moved under $3 (applied, the tree's changes are kept):"
		printf '%s\n' "$drift" >&2
	fi
	patch -d "$1" -p1 -N --batch -s --no-backup-if-mismatch <"$2" >/dev/null
}
