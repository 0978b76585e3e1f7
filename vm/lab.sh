#!/bin/sh
# make lab: build what a lab needs and boot it.
#
#   vm/lab.sh LAB [MODE]
#
# MODE is shell (an interactive shell in the lab), run (the guided steps
# and the checker, then power off) or cmd (the commands in $WB_CMD).
# Without MODE: shell on a terminal, run otherwise.
# VARIANT=student|solution|skeleton picks where the lab's files come from:
# the lab folder (created from the skeleton on first use), or generated
# from solutions/LAB into the cache. A tour's files are its folder's own;
# VARIANT=negative runs its checker with wrong expectations.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"

if [ "${1:-}" = --list ]; then
	wb_lab_list
	echo "make lab LAB=name [RUN=1] runs one; make help lists every command and setting"
	exit 0
fi
lab=${1:-}
[ -n "$lab" ] || lab=$(wb_lab_names | head -n 1)
wb_lab_require "$lab"
mode=${2:-}
if [ -z "$mode" ]; then
	if [ "${RUN:-0}" = 0 ] && [ -t 0 ] && [ -t 1 ]; then
		mode=shell
	else
		mode=run
	fi
fi
variant=${VARIANT:-student}
wb_need_cache
# A tour whose guests are of other architectures (GUESTS in lab.mk)
# builds and boots them with its own script instead of the workbook VM.
guests=$(wb_manifest "$lab" GUESTS)
[ -n "$guests" ] || wb_need_cmds qemu-system-x86_64:qemu-system-x86 gdb:gdb
case " $(wb_manifest "$lab" FILES) " in
*:bpf\ *) wb_need_cmds clang:clang bpftool:bpftool ;;
esac

build=$WB_LABWORK/$lab/$variant/build

rundir=${WB_RUN_DIR:-$WB_CACHE/run/$lab.$$}
mkdir -p "$rundir"
for f in $WB_PIDFILES; do rm -f "$rundir/$f.pid"; done
echo "$lab" >"$rundir/lab"
echo "$variant" >"$rundir/variant"
# The run folder stays for make gdb and for reading the logs; the kernel
# and modules it booted go with the VM.
trap 'wb_kill_rundir "$rundir"; wb_rundir_release "$rundir"' EXIT
trap 'wb_kill_rundir "$rundir"; exit 130' INT TERM

# The kernel build, under the tree's lock: the tree is shared by every
# lab, and another lab (in another terminal) may rebuild it while this VM
# runs. The VM and gdb use a link to this build's vmlinux and a copy of
# its modules, kept in the run folder until the VM is gone, so that a
# rebuild never changes them under a running lab. Exit status 6: the lab
# could not be built. The lab's own modules and host-built parts are
# built against the tree too: the lock is held until they are done.
if [ -z "$guests" ]; then
	wb_klock
	"$WB_ROOT/vm/kernel.sh" "$lab" "$variant" || exit "$WB_EXIT_BUILD_ERROR"
	"$WB_ROOT/vm/initramfs.sh" || exit "$WB_EXIT_BUILD_ERROR"
	wb_rundir_kernel "$rundir"
fi

# ---- the lab's modules and programs -----------------------------------

# guest_cc NAME SRC WHAT FLAGS...: build a guest program into $build,
# with the manifest's LDLIBS and the workbook's guest headers
# (vm/guest/include); on failure show the compiler and exit with WB_EXIT_BUILD_ERROR.
guest_cc() {
	name=$1 src=$2 what=$3
	shift 3
	# shellcheck disable=SC2046
	if ! wb_jail "$WB_BUILD_LIMIT" "$WB_ROOT/vm/guest/include $WB_KSRC $WB_KBUILD $srcdir" \
		"$build" gcc -O2 -g -I "$WB_ROOT/vm/guest/include" "$@" -o "$build/$name" "$src" \
		$(wb_manifest "$lab" LDLIBS) 2>"$build/$name.log"; then
		wb_say "error: $what does not build; the compiler said:"
		head -n 40 "$build/$name.log" >&2
		exit "$WB_EXIT_BUILD_ERROR"
	fi
}

# bpf_cc NAME SRC: compile a BPF program for the lab kernel into
# $build/NAME.o. vmlinux.h holds that kernel's types, dumped from its BTF,
# so that programs see exactly the structures the guest runs with.
bpf_cc() {
	if [ ! -f "$build/vmlinux.h" ]; then
		bpftool btf dump file "$WB_KBUILD/vmlinux" format c >"$build/vmlinux.h" ||
			wb_die "bpftool could not dump the BTF of $WB_KBUILD/vmlinux"
	fi
	# shellcheck disable=SC2046
	if ! wb_jail "$WB_BUILD_LIMIT" "$srcdir" "$build" clang $(wb_bpf_cflags) -Wall -I "$build" \
		-c "$2" -o "$build/$1.o" 2>"$build/$1.log"; then
		wb_say "error: BPF program $1 does not build; clang said:"
		head -n 40 "$build/$1.log" >&2
		exit "$WB_EXIT_BUILD_ERROR"
	fi
}

mkdir -p "$build"
find "$build" -mindepth 1 -maxdepth 1 ! -name out -exec rm -rf {} +
# The variant's own files, the only folder of the lab a build sees.
srcdir=$(wb_variant_dir "$lab" "$variant")
# compiler_said LINES: a module build's log on stdin, as the student
# should read it: the build copy's path replaced by the file they edit.
compiler_said() {
	sed "s#$mdir/$name.c#$src#g" | head -n "$1" >&2
}

wb_lab_files "$lab" | while read -r path kind; do
	case $kind in
	ktool | kfile) src=$WB_KSRC/$path ;;
	*) src=$(wb_variant_file "$lab" "$variant" "$path") ;;
	esac
	name=$(basename "$path" .c)
	case $kind in
	tree) ;;
	kfile)
		[ -f "$src" ] || wb_die "lab $lab: $path is not in the kernel tree"
		cp -p "$src" "$build/"
		;;
	ktool)
		wb_step "building $name from the kernel tree ($path)"
		# The tree's own UAPI headers first, as the selftests use them;
		# KTOOL_INCLUDES (lab.mk) names the tree's folders of the
		# tool's own headers (a selftest's ../include, say), and
		# KTOOL_CFLAGS the flags its own Makefile compiles with.
		incs=
		for d in $(wb_manifest "$lab" KTOOL_INCLUDES); do
			incs="$incs -I $WB_KSRC/$d"
		done
		# shellcheck disable=SC2086,SC2046
		guest_cc "$name" "$src" "$path" -Wall $(wb_manifest "$lab" KTOOL_CFLAGS) \
			$incs -isystem "$WB_KBUILD/usr/include"
		;;
	module)
		wb_step "building module $name.ko from $src"
		mdir=$build/.mod-$name
		if ! wb_kbuild_module "$name" "$src" "$mdir"; then
			wb_say "error: module $name does not build; the compiler said:"
			grep -v -e '^make' -e '^  [A-Z]' "$mdir/build.log" | compiler_said 40
			exit "$WB_EXIT_BUILD_ERROR"
		fi
		# A warning does not stop the build, but the student should
		# see it (and the lab's checker may read build.log in /build).
		if grep -q 'warning:' "$mdir/build.log"; then
			wb_say "module $name built, with warnings from the compiler:"
			grep -A3 'warning:' "$mdir/build.log" | compiler_said 20
		fi
		cp "$mdir/$name.ko" "$build/"
		;;
	prog)
		wb_step "building program $name from $src"
		guest_cc "$name" "$src" "program $name" -Wall -Wextra
		;;
	bpf)
		wb_step "building BPF object $name.o from $src"
		bpf_cc "$name" "$src"
		;;
	*) wb_die "lab $lab: unknown kind '$kind' for $path (tree, module, prog, bpf, ktool or kfile)" ;;
	esac
done || exit "$WB_EXIT_BUILD_ERROR"
# A lab may build more on the host (a test program from the tree, say):
# HOSTBUILD names a script of its folder, run as "sh SCRIPT BUILD". It
# finds the variant's own files in $WB_LAB_SRC, may keep work between
# runs in $WB_LAB_CACHE, runs make with -j$WB_JOBS, and may source
# $WB_ROOT/vm/lib.sh for the harness's helpers (wb_kbuild_module,
# wb_bpf_cflags). It only compiles; the guest runs what it made.
hostbuild=$(wb_manifest "$lab" HOSTBUILD)
if [ -n "$hostbuild" ]; then
	wb_step "building the lab's host-built parts ($hostbuild)"
	lcache=$WB_LABWORK/$lab/cache
	mkdir -p "$lcache"
	# In the sandbox: the harness, the tree, the lab's files; it writes
	# the build folder and its own cache only.
	export WB_ROOT WB_KSRC WB_KBUILD WB_CACHE WB_JOBS
	if ! WB_LAB_SRC=$srcdir WB_LAB_CACHE=$lcache wb_jail "$WB_BUILD_LIMIT" \
		"$WB_ROOT/vm $WB_KSRC $WB_KBUILD $srcdir $(wb_lab_dir "$lab")" "$build $lcache" \
		sh "$(wb_lab_dir "$lab")/$hostbuild" "$build" >"$build/hostbuild.log" 2>&1; then
		wb_say "error: $hostbuild failed; its last lines:"
		tail -n 40 "$build/hostbuild.log" >&2
		exit "$WB_EXIT_BUILD_ERROR"
	fi
fi
mkdir -p "$build/out"
if [ "$mode" = cmd ]; then
	printf '%s\n' "${WB_CMD:?WB_CMD holds the commands for mode cmd}" >"$build/cmd.sh"
fi

# ---- boot -------------------------------------------------------------

# Everything this boot reads from the tree is in the run folder or in
# the lab's build folder now: the tree is free for another lab.
exec 9>&-

# make gdb loads module symbols from here.
echo "$build" >"$rundir/build"
# WB_TIMEOUT overrides the manifest (make bench runs longer than a check).
timeout=${WB_TIMEOUT:-$(wb_manifest "$lab" TIMEOUT)}
# A lab that crashes the kernel on purpose (EXPECT_OOPS) runs without
# oops=panic, so that the guest lives on after the expected oops; the
# verdict skips the reports that match it, and no other.
WB_EXPECT_OOPS=$(wb_manifest "$lab" EXPECT_OOPS)
if [ -n "$WB_EXPECT_OOPS" ]; then
	WB_OOPS=
	export WB_OOPS
fi
export WB_EXPECT_OOPS
# A tour's negative run tells its checker to expect what must not be.
if [ "$variant" = negative ]; then
	WB_CMDLINE="${WB_CMDLINE:+$WB_CMDLINE }wb.negative=1"
	export WB_CMDLINE
fi
# A tour is never graded, and its checker may read what its steps leave
# running (a capture, a receiver): the session lets them live.
if wb_lab_is_tour "$lab"; then
	WB_CMDLINE="${WB_CMDLINE:+$WB_CMDLINE }wb.tour=1"
	export WB_CMDLINE
fi
rc=0
if [ -n "$guests" ] && [ "$mode" = shell ]; then
	# In the foreground, for the terminal: Ctrl-C stops it with this
	# script.
	WB_ROOT=$WB_ROOT sh "$(wb_lab_dir "$lab")/$guests" "$mode" "$rundir" "${timeout:-120}" || rc=$?
elif [ -n "$guests" ]; then
	# Waited for, so that a TERM runs the trap above at once, which
	# stops the script (its pid file) and what it started.
	WB_ROOT=$WB_ROOT sh "$(wb_lab_dir "$lab")/$guests" "$mode" "$rundir" "${timeout:-120}" &
	wait $! || rc=$?
else
	accel=$(wb_accel)
	wb_boot "$accel" "$mode" "$lab" "$build" "$rundir" "${timeout:-120}" || rc=$?
fi
if [ "$mode" != shell ]; then
	# What the guided steps printed, as a reader sees it on the console:
	# the transcripts of the book are copied from here (a tour with
	# GUESTS has a run of steps in each guest).
	[ -f "$rundir/console.log" ] && tr -d '\r' <"$rundir/console.log" |
		sed -n '/^WB-STEPS-BEGIN$/,/^WB-STEPS-END /{/^WB-STEPS-/!p;}' >"$rundir/steps.txt"
	# wb_verdict wrote the checker's report from the verdict channel.
	[ -f "$rundir/ktap" ] || : >"$rundir/ktap"
	steps=$(cat "$rundir/steps.status" 2>/dev/null || :)
	if [ -n "$steps" ] && [ "$steps" != 0 ]; then
		wb_say "lab $lab ($variant): the guided steps (run.sh) ended with status $steps; the checker's verdict follows"
	fi
	points=
	# A report that is not whole earns nothing, whatever it says.
	if [ -f "$rundir/ktap.broken" ]; then
		points=", 0 points: the report is not whole"
	elif wb_status_checked "$rc" && score=$(wb_ktap points "$rundir/ktap"); then
		points=", ${score% *} of ${score#* } points"
	fi
	total=$(wb_ktap_count "$rundir/ktap" total)
	passing=$(wb_ktap_count "$rundir/ktap" pass)
	if [ "$rc" = "$WB_EXIT_PASS" ]; then
		wb_say "lab $lab ($variant): the checker passed ($passing ok$points)"
	elif [ "$rc" = "$WB_EXIT_FAIL" ]; then
		wb_say "lab $lab ($variant): the checker failed${points:+ (${points#, })}:"
		wb_ktap failures "$rundir/ktap" | sed 's/^/    /' >&2
	fi
fi
# WB_PROGRESS=1 (make start): where the student is, not a grade. The run
# succeeds when the lab booted and its checker reported in full, however
# many checks pass; a crash, a timeout or a broken report still fail.
if [ "${WB_PROGRESS:-0}" = 1 ] && wb_status_checked "$rc" && [ ! -f "$rundir/ktap.broken" ]; then
	wb_say ""
	wb_say "Where you are: lab $lab booted in the VM, its guided steps ran, and $passing of $total checks pass${points}."
	next=
	[ "$variant" != student ] || next=$("$WB_ROOT/vm/skel.sh" --next "$lab" 2>/dev/null) || :
	if [ "$rc" = "$WB_EXIT_PASS" ]; then
		wb_say "Every check passes: this lab is done. make labs lists the others."
	elif [ -n "$next" ]; then
		rest=${next#* }
		wb_say "Next: TODO ${next%% *} in ${rest%% *}: ${rest#* }"
	else
		wb_say "Next: the failing checks above say what is still missing."
	fi
	wb_say "The guided steps: labs/$lab/README.rst (and the book). To be graded: make lab LAB=$lab RUN=1"
	exit 0
fi
exit "$rc"
