#!/bin/sh
# shellcheck disable=SC2317 # functions called by name: guest_$g
# tour-arch's guests (GUESTS in lab.mk): kernels of other architectures,
# built from the workbook's tree by vm/xkernel.sh, each booted in QEMU's
# emulator of its architecture with an initramfs of its own (xinit, the
# tour's programs and its steps, all cross-compiled here), one after
# the other. The steps are printed on the console between the markers
# the other tours use; the checks are made here, on the host, from each
# guest's console and what its programs printed, with vm/ktap.sh.
#
#   sh labs/tour-arch/guests.sh MODE RUNDIR LIMIT
#
# MODE is run (the steps, then the checks) or shell (one guest, the Arm
# one unless WB_GUEST names another, each boot held at its first
# instruction until gdb continues it: these guests have no shell).
# VARIANT=negative swaps every expectation for a wrong one.
# WB_GUEST="NAME..." boots those guests only (arm64, mips, riscv; parisc,
# which is not in the tour yet, only this way). With WB_GDB_SCRIPT (make
# check's first run), gdb-multiarch runs that script against the Arm
# guest, which waits for it at its first instruction. With
# WB_GUESTS_FROM=RUNDIR (make check's negative run) nothing is built or
# booted: the checks read the consoles of that run, which are all they
# ever read. The KTAP report goes to RUNDIR/ktap, each guest's console
# to RUNDIR/NAME.log and all of them to RUNDIR/console.log. Exit status:
# vm/lab.sh's (0 every check passed, 1 one failed, 4 a guest did not end
# in time, 6 a build failed or a package is missing).
set -eu
. "$WB_ROOT/vm/lib.sh"
. "$WB_ROOT/vm/qemu.sh"
. "$WB_ROOT/vm/ktap.sh"
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 rundir=$2 limit=$3
[ "${VARIANT:-solution}" != negative ] || KTAP_NEGATIVE=1
export KTAP_NEGATIVE
# A stop before the checks are made (a package missing, a build that
# failed: wb_die's status 1) is not a failed check: vm/lab.sh's status 6.
checked=
trap 'rc=$?; rm -f "$rundir/guests.pid"; [ -n "$checked" ] || [ "$rc" != 1 ] || exit "$WB_EXIT_BUILD_ERROR"' EXIT
wb_need_cmds qemu-system-aarch64:qemu-system-arm gdb-multiarch:gdb-multiarch fdtput:device-tree-compiler \
	qemu-system-mipsel:qemu-system-mips qemu-system-hppa:qemu-system-misc \
	qemu-system-riscv64:qemu-system-misc
# What a run builds besides the kernels (programs, initramfs images,
# device trees) is in its own run folder, so that two runs side by side
# never write the same one. A kernel is rebuilt only under the tree's
# lock, and QEMU has read it whole before it boots.
work=$rundir/guests
mkdir -p "$work"
# vm/lab.sh, stopped, stops this script first (WB_PIDFILES), then what
# it left running: QEMU (qemu.pid) and gdb-multiarch (gdb.pid).
echo $$ >"$rundir/guests.pid"
from=${WB_GUESTS_FROM:-}
kdir=

# ---- builds -------------------------------------------------------------

# kernel ARCH TARGETS: the guest's kernel (vm/xkernel.sh), from
# configs/ARCH.config; its build folder in $kdir.
kernel() {
	[ -z "$from" ] || return 0
	kdir=$("$WB_ROOT/vm/xkernel.sh" "tour-arch-$1" "$1" "$2" "$here/configs/$1.config") ||
		exit "$WB_EXIT_BUILD_ERROR"
}

# initramfs ARCH PROGRAM... [-- FILE=DEST|DEV=c:MAJOR:MINOR...]: xinit
# and the tour's PROGRAMs (C files of the folder, without .c) compiled
# statically with Debian's cross compiler for ARCH, the steps, each FILE
# of the kernel's build folder as DEST, and each character device DEV,
# in $work/ARCH.cpio, made by the tree's gen_init_cpio (built with the
# kernel: device nodes need no root).
initramfs() {
	local arch cross list p progs
	[ -z "$from" ] || return 0
	arch=$1 list=$work/$1.list
	shift
	cross=$(wb_cross "$arch")
	{
		echo "dir /dev 755 0 0"
		echo "nod /dev/console 600 0 0 c 5 1"
		echo "dir /proc 755 0 0"
		echo "dir /sys 755 0 0"
		echo "dir /bin 755 0 0"
		echo "dir /steps 755 0 0"
		echo "file /init $work/$arch-xinit 755 0 0"
	} >"$list"
	progs=xinit
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		progs="$progs $1"
		shift
	done
	[ $# = 0 ] || shift
	for p in $progs; do
		if ! "${cross}gcc" -static -O2 -Wall -Wextra -o "$work/$arch-$p" "$here/$p.c" \
			>"$work/$arch-$p.log" 2>&1; then
			wb_say "error: $p.c does not build for $arch:"
			head -n 20 "$work/$arch-$p.log" >&2
			exit "$WB_EXIT_BUILD_ERROR"
		fi
		[ "$p" = xinit ] || echo "file /bin/$p $work/$arch-$p 755 0 0" >>"$list"
	done
	for p in "$here"/steps/*; do
		echo "file /steps/${p##*/} $p 644 0 0" >>"$list"
	done
	for p; do
		case $p in
		*=c:*:*)
			echo "nod ${p%%=*} 666 0 0 c $(echo "${p#*=c:}" | tr ':' ' ')"
			;;
		*)
			echo "dir $(dirname "${p#*=}") 755 0 0"
			echo "file ${p#*=} $kdir/${p%%=*} 644 0 0"
			;;
		esac
	done >>"$list"
	"$kdir/usr/gen_init_cpio" "$list" >"$work/$arch.cpio" ||
		wb_die "gen_init_cpio could not make $work/$arch.cpio"
}

# ---- boots --------------------------------------------------------------

# boot NAME QEMU ARG...: one guest, NAME (its steps: steps/NAME), with
# $kdir's kernel, at most LIMIT seconds; its console in RUNDIR/NAME.log
# (and on the terminal unless WB_QUIET=1). QEMU's gdb stub listens on
# RUNDIR/gdb.sock, as the workbook VM's does, for make gdb; with
# WB_GDB_SCRIPT or in MODE shell the guest waits for gdb. QEMU's monitor
# reads RUNDIR/monitor.in; $during, when set, names a function run
# beside the guest (it may write commands there).
boot() {
	local name qemu rc
	name=$1 qemu=$2
	shift 2
	rc=0
	if [ -n "$from" ]; then
		cp "$from/$name.log" "$rundir/$name.log" || wb_die "no console of guest $name in $from"
	else
		boot_qemu "$@" || rc=$?
	fi
	tr -d '\r' <"$rundir/$name.log" >>"$rundir/console.log"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		wb_say "guest $name did not end within $limit s: its console's last lines:"
		wb_console_tail "$rundir/$name.log"
		exit "$WB_EXIT_TIMEOUT"
	fi
	if [ "$rc" != 0 ]; then
		wb_say "guest $name: $qemu ended with status $rc"
		wb_qemu_err "$rundir"
	fi
	steps=$(tr -d '\r' <"$rundir/$name.log" | sed -n '/^WB-STEPS-BEGIN$/,/^WB-STEPS-END /p')
}

# boot_qemu ARG...: boot()'s QEMU run for guest $name with $qemu and
# ARG... (boot()'s locals); its status is QEMU's (timeout(1)'s 124 or
# 137 at the limit). Called in an || list, where set -e does not hold:
# what must not fail stops the script itself.
boot_qemu() {
	local rc paused held mux gdbpid dpid mcat p
	rm -f "$rundir/$name.log" "$rundir/gdb.sock" "$rundir/qemu.pid" "$rundir/monitor.in" "$rundir/monitor.out"
	mkfifo "$rundir/monitor.in" "$rundir/monitor.out" || wb_die "cannot make QEMU's monitor FIFOs in $rundir"
	ln -f "$kdir/vmlinux" "$rundir/vmlinux" 2>/dev/null || cp "$kdir/vmlinux" "$rundir/vmlinux" ||
		wb_die "cannot put vmlinux into $rundir"
	echo "$kdir" >"$rundir/kbuild"
	echo gdb-multiarch >"$rundir/gdb"
	paused='' held=''
	if [ "$mode" = shell ]; then
		paused=1 held=" (held until gdb continues it: make gdb LAB=tour-arch, then continue)"
	elif [ -n "${WB_GDB_SCRIPT:-}" ] && [ "$name" = arm64 ]; then
		paused=1 held=" (gdb-multiarch runs ${WB_GDB_SCRIPT##*/})"
	fi
	wb_say "guest $name: $qemu, gdb stub on $rundir/gdb.sock$held"
	# On a terminal, the console shares stdio with a monitor, as the
	# workbook VM's shell does: Ctrl-a x quits QEMU.
	mux=
	[ "$mode" != shell ] || mux=mux=on,
	[ -z "$mux" ] || wb_say "Ctrl-a x quits QEMU"
	set -- "$@" -nodefaults -no-user-config -display none -no-reboot \
		-sandbox "$(wb_qemu_sandbox deny)" \
		-chardev "stdio,id=con,${mux}signal=off,logfile=$rundir/$name.log" -serial chardev:con \
		-gdb "unix:$rundir/gdb.sock,server=on,wait=off" -pidfile "$rundir/qemu.pid" \
		-chardev "pipe,id=mon,path=$rundir/monitor" -mon chardev=mon,mode=readline
	[ -z "$mux" ] || set -- "$@" -mon chardev=con
	[ -z "$paused" ] || set -- "$@" -S
	gdbpid=
	if [ "$mode" = shell ]; then
		rc=0
		"$qemu" "$@" || rc=$?
	else
		if [ "${WB_QUIET:-0}" = 1 ]; then
			timeout -k 5 "$limit" "$qemu" "$@" </dev/null >/dev/null 2>"$rundir/qemu.err" &
		else
			timeout -k 5 "$limit" "$qemu" "$@" </dev/null 2>"$rundir/qemu.err" &
		fi
		qpid=$!
		if [ -n "$paused" ]; then
			wb_gdb_batch "$rundir" "$limit" gdb-multiarch "$kdir"
			gdbpid=$(cat "$rundir/gdb.pid")
		fi
		dpid=
		if [ -n "${during:-}" ]; then
			"$during" "$name" </dev/null &
			dpid=$!
		fi
		# What QEMU's monitor says, read so that it never waits on a
		# full pipe.
		cat "$rundir/monitor.out" >"$rundir/$name.monitor" &
		mcat=$!
		rc=0
		wait "$qpid" || rc=$?
		[ -z "$gdbpid" ] || wait "$gdbpid" || :
		rm -f "$rundir/gdb.pid"
		for p in $dpid $mcat; do
			kill "$p" 2>/dev/null || :
			wait "$p" 2>/dev/null || :
		done
	fi
	return "$rc"
}

# The console lines of the last boot's steps matching ERE, without the
# file names grep adds before them ("/sys/...:"), on one line.
seen() {
	printf '%s\n' "$steps" | grep -E -- "$1" | sed 's#^/[^:]*:##' | tr '\n' ' ' | sed 's/ $//'
}

# expect DESCRIPTION ACTUAL ERE WRONG: one result (vm/ktap.sh's
# ktap_expect), into the report.
expect() {
	ktap_expect "$@" >&3
}

# ---- the guests -----------------------------------------------------------

# excerpt NAME: what guest NAME's kernel said at boot about its CPU
# features and CPU 0's scheduling domains (sched_verbose), without the
# timestamps, after a heading, into RUNDIR/boot.txt: the book's
# transcript of the boot logs.
excerpt() {
	echo "== boot $1" >>"$rundir/boot.txt"
	tr -d '\r' <"$rundir/$1.log" | sed -n '/^WB-STEPS-BEGIN$/q;p' | awk '
		/CPU0 attaching sched-domain/ { on = 1 }
		/CPU[1-9][0-9]* attaching sched-domain|root domain span/ { on = 0 }
		on || /CPU features: detected/' | sed 's/^\[ *[0-9.]*\] //' >>"$rundir/boot.txt"
}

# domains LOG: CPU 0's scheduling domains in a boot log with
# sched_verbose, smallest first, as "LEVEL:SPAN ...".
domains() {
	tr -d '\r' <"$1" | awk '
		/CPU0 attaching sched-domain/ { on = 1; next }
		/attaching sched-domain|root domain span/ { on = 0 }
		on && / domain-[0-9]+: span=/ {
			span = $0; sub(/.*span=/, "", span); sub(/ .*/, "", span)
			lvl = $0; sub(/.*level=/, "", lvl)
			printf "%s%s:%s", sep, lvl, span; sep = " "
		}'
}

# arm64_dtb OUT SMP: QEMU's own device tree for the virt machine with
# -smp SMP, and a unified L2 cache that the four CPUs share (each CPU's
# next-level-cache), as a real SoC's device tree describes it. QEMU 7.2
# describes no caches at all.
arm64_dtb() {
	local c
	[ -z "$from" ] || return 0
	qemu-system-aarch64 -M "virt,dumpdtb=$1" -cpu max -m 256 -smp "$2" -display none \
		>/dev/null 2>&1 || wb_die "qemu-system-aarch64 could not write its device tree"
	if ! { fdtput -c "$1" /cpus/l2-cache &&
		fdtput -t s "$1" /cpus/l2-cache compatible cache &&
		fdtput -t u "$1" /cpus/l2-cache cache-level 2 &&
		fdtput -t s "$1" /cpus/l2-cache cache-unified "" &&
		fdtput -t x "$1" /cpus/l2-cache phandle 0x7000; }; then
		wb_die "fdtput could not add the L2 cache to $1"
	fi
	for c in 0 1 2 3; do
		fdtput -t x "$1" "/cpus/cpu@$c" next-level-cache 0x7000 ||
			wb_die "fdtput could not give cpu@$c its L2"
	done
}

# Arm: QEMU's virt machine and its "max" CPU, four vCPUs. Three boots of
# one kernel: two clusters of two and a shared L2; the same clusters
# with QEMU's device tree as it is; no clusters.
ARM64_CHECKS=8
guest_arm64() {
	local features smp2 arm
	kernel arm64 "Image vmlinux scripts_gdb"
	initramfs arm64 idregs
	smp2=4,sockets=1,clusters=2,cores=2
	arm64_dtb "$work/arm64-clusters.dtb" "$smp2"
	arm64_dtb "$work/arm64-flat.dtb" 4
	arm="-kernel $kdir/arch/arm64/boot/Image -initrd $work/arm64.cpio"
	# shellcheck disable=SC2086 # $arm: words without blanks
	boot arm64 qemu-system-aarch64 -M virt -cpu max -m 256 -smp "$smp2" \
		-dtb "$work/arm64-clusters.dtb" $arm \
		-append "console=ttyAMA0 loglevel=8 panic=-1 sched_verbose wb.guest=arm64"
	excerpt arm64
	expect "arm64: the kernel boots on QEMU's max CPU and runs the tour's steps" \
		"$(printf '%s\n' "$steps" | tail -n 1)" '^WB-STEPS-END 0$' '^$'
	expect "arm64: ID_AA64MMFR0_EL1.ECV as a program reads it (emulated by the kernel): 0, no FEAT_ECV" \
		"$(seen '^ECV \(63:60\)')" '^ECV \(63:60\) +0$' '^ECV \(63:60\) +[1-9]$'
	features=$(seen '^Features')
	expect "arm64: the kernel found no ECV: HWCAP2_ECV clear, no ecv among 4 CPUs' features" \
		"$(seen '^HWCAP2_ECV') ecv=$(printf '%s\n' "$features" | grep -ow ecv | wc -l) fp=$(printf '%s\n' "$features" | grep -ow fp | wc -l)" \
		'^HWCAP2_ECV +clear ecv=0 fp=4$' 'set|ecv=[1-9]'
	expect "arm64: the boot log lists the CPU features it detected, ECV not among them" \
		"detected=$(grep -c 'CPU features: detected' "$rundir/arm64.log") ecv=$(grep -c 'CPU features: detected: .*ECV' "$rundir/arm64.log")" \
		'^detected=[1-9][0-9]* ecv=0$' 'ecv=[1-9]'
	expect "arm64, -smp $smp2: CPUs 0-1 are cluster 0 and CPUs 2-3 cluster 1" \
		"$(seen '/cluster_id:') / $(seen '/cluster_cpus_list:')" '^0 0 1 1 / 0-1 0-1 2-3 2-3$' '^0 0 0 0 '
	expect "arm64, clusters and a shared L2: CPU 0's domains are CLS (its cluster), then MC (the L2's CPUs)" \
		"L2=$(seen 'index2/shared_cpu_list:') $(domains "$rundir/arm64.log")" '^L2=0-3 CLS:0-1 MC:0-3$' 'DIE'
	# shellcheck disable=SC2086
	boot arm64-nol2 qemu-system-aarch64 -M virt -cpu max -m 256 -smp "$smp2" $arm \
		-append "console=ttyAMA0 loglevel=8 panic=-1 sched_verbose wb.guest=arm64-nol2"
	excerpt arm64-nol2
	expect "arm64, clusters and no shared cache: MC is the cluster, and there is no CLS" \
		"L2=$(seen 'index2/shared_cpu_list:') $(domains "$rundir/arm64-nol2.log")" '^L2= MC:0-1 DIE:0-3$' 'CLS'
	# shellcheck disable=SC2086
	boot arm64-flat qemu-system-aarch64 -M virt -cpu max -m 256 -smp 4 \
		-dtb "$work/arm64-flat.dtb" $arm \
		-append "console=ttyAMA0 loglevel=8 panic=-1 sched_verbose wb.guest=arm64-flat"
	excerpt arm64-flat
	expect "arm64, -smp 4 (no clusters): one cluster of four, and MC alone" \
		"$(seen '/cluster_cpus_list:') / $(domains "$rundir/arm64-flat.log")" \
		'^0-3 0-3 0-3 0-3 / MC:0-3$' 'CLS'
}

# jit_code LOG: the bytes of the JIT image dumped in LOG ("JIT code:
# OFFSET: BYTES", print_hex_dump()), disassembled as 32-bit
# little-endian MIPS by Debian's binutils for the guest, one
# instruction a line: "OFFSET: INSTRUCTION".
jit_code() {
	tr -d '\r' <"$1" | sed -n 's/.*JIT code: [0-9a-f]*: //p' | tr ' ' '\n' | grep -x '[0-9a-f][0-9a-f]' |
		while read -r b; do
			# shellcheck disable=SC2059 # the format is the byte's escape
			printf "\\$(printf '%03o' "0x$b")"
		done >"$work/mips-jit.bin"
	[ -s "$work/mips-jit.bin" ] || return 0
	mipsel-linux-gnu-objdump -D -b binary -m mips:isa32r2 -EL "$work/mips-jit.bin" |
		sed -n 's/^ *\([0-9a-f]*\):\t[0-9a-f]* *\t\(.*\)/\1: \2/p' | tr '\t' ' '
}

# test_bpf LINE: "PASSED FAILED JITED TOTAL" of one of test_bpf's
# summary lines.
test_bpf() {
	printf '%s\n' "$1" | sed -n 's/.*Summary: \([0-9]*\) PASSED, \([0-9]*\) FAILED, \[\([0-9]*\)\/\([0-9]*\) JIT.ed\].*/\1 \2 \3 \4/p'
}

# MIPS: QEMU's Malta board, a 32-bit little-endian CPU; the kernel's BPF
# test suite with the JIT on, off, and printing its code.
MIPS_CHECKS=5
guest_mips() {
	local on off
	kernel mips "vmlinux modules"
	initramfs mips -- lib/test_bpf.ko=/lib/test_bpf.ko
	boot mips qemu-system-mipsel -M malta -m 256 -kernel "$kdir/vmlinux" -initrd "$work/mips.cpio" \
		-append "console=ttyS0 loglevel=3 panic=-1 wb.guest=mips"
	expect "mips: the kernel boots on the Malta board and runs the tour's steps" \
		"$(printf '%s\n' "$steps" | tail -n 1)" '^WB-STEPS-END 0$' '^$'
	on=$(test_bpf "$(printf '%s\n' "$steps" | grep 'test_bpf: Summary' | sed -n 1p)")
	off=$(test_bpf "$(printf '%s\n' "$steps" | grep 'test_bpf: Summary' | sed -n 2p)")
	expect "mips, JIT on: every test of test_bpf passes, and every program it ran was JIT-compiled" \
		"$(echo "$on" | awk '{ printf "passed=%d failed=%d jited=%d/%d", $1, $2, $3, $4 }')" \
		'^passed=[1-9][0-9]* failed=0 jited=([1-9][0-9]*)/\1$' 'jited=0/'
	expect "mips, JIT off: the same tests pass in the interpreter, none JIT-compiled" \
		"$(echo "$on $off" | awk '{ printf "same=%d failed=%d jited=%d", $1 == $5, $6, $7 }')" \
		'^same=1 failed=0 jited=0$' 'jited=[1-9]'
	expect "mips, JIT on: the tail calls between programs pass, JIT-compiled" \
		"$(printf '%s\n' "$steps" | grep 'test_tail_calls: Summary' | sed -n '1s/.*Summary/Summary/p')" \
		'^Summary: [1-9][0-9]* PASSED, 0 FAILED, \[([0-9]+)/\1 JIT.ed\]' ', 0 FAILED, \[0/'
	jit_code "$rundir/mips.log" >"$rundir/mips-jit.txt"
	expect "mips, bpf_jit_enable=2: the image of ALU64_ADD_X dumped, and it disassembles as MIPS ending in jr ra" \
		"$(wc -l <"$rundir/mips-jit.txt") $(grep -c 'jr *ra' "$rundir/mips-jit.txt")" '^[1-9][0-9]+ [1-9]' '^[0-9]+ 0$'
}

# toc_button NAME: when guest NAME's steps reach their pause (the
# "sleep" line), press the TOC button: QEMU's monitor command nmi.
toc_button() {
	local n
	n=0
	while ! grep -q '^# sleep ' "$rundir/$1.log" 2>/dev/null; do
		sleep 0.2
		n=$((n + 1))
		[ "$n" -lt $((limit * 5)) ] || return 0
	done
	printf 'nmi\n' >"$rundir/monitor.in"
}

# kunit SUITE LOG: the KTAP results of the KUnit suite SUITE in LOG (the
# suite's own lines, its subtests one level down), and its summary on the
# last line: "PASS FAIL SKIP".
kunit() {
	tr -d '\r' <"$2" | sed 's/^\[ *[0-9.]*\] //' | awk -v suite="$1" '
		$0 ~ "^ +# Subtest: " suite "$" { on = 1 }
		on { print "  " $0 }
		on && /^    (not )?ok [0-9]+ / {
			if ($0 ~ / # SKIP/) skip++
			else if ($1 == "not") fail++
			else pass++
		}
		on && $0 ~ "^(not )?ok [0-9]+ (- )?" suite "$" { on = 0 }
		END { printf "%d %d %d\n", pass, fail, skip }'
}

# PA-RISC: QEMU's B160L (PA-RISC 1.1, 32 bits); KFENCE's KUnit suite at
# boot, then the TOC button.
PARISC_CHECKS=4
guest_parisc() {
	local suite sum
	kernel parisc vmlinux
	initramfs parisc
	during=toc_button
	boot parisc qemu-system-hppa -m 512 -kernel "$kdir/vmlinux" -initrd "$work/parisc.cpio" \
		-append "console=ttyS0 loglevel=7 panic=-1 wb.guest=parisc"
	during=
	suite=$(kunit kfence "$rundir/parisc.log")
	sum=$(printf '%s\n' "$suite" | tail -n 1)
	# The suite's results, as subtests of the one result below.
	printf '%s\n' "$suite" | sed '$d' >&3
	expect "parisc: KFENCE's KUnit suite at boot: every test passes (pass fail skip: $sum)" \
		"$sum" '^[1-9][0-9]* 0 [0-9]+$' '^[0-9]+ 0 [0-9]+$'
	expect "parisc: a KFENCE report from the suite, with the faulting access and the object's allocation" \
		"$(tr -d '\r' <"$rundir/parisc.log" | grep -E -c 'BUG: KFENCE: out-of-bounds (read|write)|allocated by task') lines" \
		'^([2-9]|[1-9][0-9]+) lines$' '^[01] lines$'
	expect "parisc: KFENCE's counters after the suite: enabled, objects allocated and bugs found" \
		"$(seen '^(enabled|total allocations|total bugs):' | tr -s ' ')" \
		'^enabled: 1 total allocations: [1-9][0-9]* .*total bugs: [1-9][0-9]*' 'enabled: 0'
	expect "parisc: the TOC button (nmi) runs the kernel's TOC handler: its register dump, then a restart before the pause ends" \
		"$(tr -d '\r' <"$rundir/parisc.log" | sed -n '/^# sleep /,$p' | grep -E -c '^ *(PSW|IAOQ|IASQ|r0[0-7]-)' ) dump lines, end=$(printf '%s\n' "$steps" | grep -c '^WB-STEPS-END')" \
		'^([3-9]|[1-9][0-9]+) dump lines, end=0$' 'end=1'
}

# RISC-V: QEMU's virt machine, a hart with the hypervisor extension,
# Debian's OpenSBI; KVM, and a VM made in the guest.
RISCV_CHECKS=4
guest_riscv() {
	kernel riscv Image
	# /dev/kvm: the misc device's minor, KVM_MINOR (include/linux/miscdevice.h)
	initramfs riscv kvm-riscv -- /dev/kvm=c:10:232
	boot riscv qemu-system-riscv64 -M virt -cpu rv64,h=true -m 512 \
		-bios /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin \
		-kernel "$kdir/arch/riscv/boot/Image" -initrd "$work/riscv.cpio" \
		-append "console=ttyS0 loglevel=7 panic=-1 wb.guest=riscv"
	expect "riscv: the kernel boots on OpenSBI and QEMU's virt machine and runs the tour's steps" \
		"$(printf '%s\n' "$steps" | tail -n 1)" '^WB-STEPS-END 0$' '^$'
	expect "riscv: the hart has the H extension, and KVM found it at boot" \
		"$(seen '^isa' | sed 's/.*: *//') / $(seen 'kvm \[1\]: hypervisor extension')" \
		'^rv64[a-z]*h[a-z_]* / .*hypervisor extension available$' 'not available'
	expect "riscv: /dev/kvm makes a VM and a vCPU (API version 12)" \
		"$(seen '^KVM_GET_API_VERSION|^VM:')" '^KVM_GET_API_VERSION 12 VM: 64 KiB at 0x80000000, one vCPU' 'kvm-riscv:'
	expect "riscv: the VM's three MMIO exits: it writes 42, reads 100, writes their sum 142" \
		"$(seen '^exit [1-3]:' | sed 's/KVM_EXIT_MMIO, the guest //g')" \
		'^exit 1: writes 4 bytes at 0x10000000: 42 exit 2: reads 4 bytes at 0x10000004: given 100 exit 3: writes 4 bytes at 0x10000008: 142$' \
		'writes 4 bytes at 0x10000008: 42$'
}

# ---- the run ---------------------------------------------------------------

guests=${WB_GUEST:-arm64 mips riscv}
[ "$mode" != shell ] || guests=${WB_GUEST:-arm64}
for g in $guests; do
	case $g in
	arm64 | mips | parisc | riscv) ;;
	*) wb_die "tour-arch has no guest '$g' (arm64, mips, parisc, riscv)" ;;
	esac
done
rm -f "$rundir/console.log" "$rundir/boot.txt"
if [ "$mode" = shell ]; then
	# shellcheck disable=SC2086 # a list of names
	set -- $guests
	[ $# = 1 ] || wb_die "make lab LAB=tour-arch on a terminal boots one guest, held for gdb: name it with WB_GUEST (arm64, mips, riscv)"
	KTAP_NEGATIVE=0
	exec 3>/dev/null
	"guest_$1"
	exit 0
fi
plan=0
for g in $guests; do
	case $g in
	arm64) plan=$((plan + ARM64_CHECKS)) ;;
	mips) plan=$((plan + MIPS_CHECKS)) ;;
	parisc) plan=$((plan + PARISC_CHECKS)) ;;
	riscv) plan=$((plan + RISCV_CHECKS)) ;;
	esac
done
exec 3>"$rundir/ktap"
ktap_plan "$plan" >&3
for g in $guests; do
	"guest_$g"
done
rc=0
ktap_done >&3 || rc=$WB_EXIT_FAIL
checked=1
exit "$rc"
