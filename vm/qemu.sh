# shellcheck shell=sh
# The workbook VM: the one QEMU command line, the choice of accelerator,
# and a boot that always ends, with a verdict read from the console.
# Sourced by vm/lab.sh and vm/bench.sh after vm/lib.sh.

WB_INITRAMFS=$WB_CACHE/initramfs.cpio.gz
# The kernel's own reports of a hang: a device whose last reference is
# never dropped, a task blocked too long, a soft or hard lockup, an RCU
# stall (the first is printed after 10 s of waiting, the last after 21).
WB_HANGS='unregister_netdevice: waiting for|INFO: task .* blocked for more than [0-9]+ seconds|BUG: soft lockup|hard LOCKUP|rcu: INFO: rcu_[a-z]+ (self-)?detected stall|rcu_[a-z]+ self-detected stall'
WB_KVM_PROBE=$WB_CACHE/kvm-probe
# What QEMU boots: vmlinux through its PVH entry point (no decompression,
# faster under TCG), but bzImage for the KASAN kernel (SANITIZE=1), whose
# PVH entry resets the machine before the first line of the console.
WB_BOOT_IMAGE=vmlinux
[ "${SANITIZE:-0}" = 0 ] || WB_BOOT_IMAGE=bzImage
# The first lines of the detectors' reports (vm/detectors.tab), which the
# kernel survives: a finding of the lab's report, not a crash.
WB_DETECTED=$(awk -F '\t' '!/^#/ && NF >= 3 { printf "%s%s", sep, $2; sep = "|" }' "$WB_ROOT/vm/detectors.tab")
. "$WB_ROOT/vm/decode.sh"

# wb_qemu_args ACCEL MODE LAB BUILD RUNDIR: print the QEMU arguments, one
# per line. MODE is the guest session (run, check, cmd, shell, probe).
wb_qemu_args() {
	accel=$1 mode=$2 lab=$3 build=$4 rundir=$5
	cpu=max
	[ "$accel" = kvm ] && cpu=host
	cols=80 rows=24
	if [ "$mode" = shell ] && [ -t 1 ]; then
		cols=$(tput cols 2>/dev/null || echo 80)
		rows=$(tput lines 2>/dev/null || echo 24)
	fi
	# As root with WB_QEMU_USER (vm/grade.sh sets it), QEMU opens what
	# it needs as root and then becomes that user for good (-runas;
	# the seccomp filter must let it call setuid once, and a process
	# that is not root cannot raise itself again). QEMU starts its vCPUs
	# just before it drops root, so it starts paused, with a monitor on
	# a pair of FIFOs of the run folder, and wb_runas_release lets the
	# guest run only once QEMU's ids are the user's.
	runas=$(wb_qemu_runas "$mode")
	elevate=deny
	[ -z "$runas" ] || elevate=allow
	# WB_DETECTORS=0 (make check's runs that prove a checker fails):
	# the detectors that cost at every allocation, lock and exec are
	# off from boot, and the guest's session reads none after the
	# checker (wb_verdict expects none).
	dets=
	[ "${WB_DETECTORS:-1}" != 0 ] ||
		dets="wb.detectors=off kmemleak=off kfence.sample_interval=0 no_debug_objects lockdep.prove_locking=0"
	printf '%s\n' -name "workbook-$lab" -nodefaults -no-user-config \
		-machine "q35,accel=$accel" -cpu "$cpu" -smp "${WB_SMP:-2}" -m "${WB_MEM:-1024}" \
		-display none -no-reboot \
		-sandbox "$(wb_qemu_sandbox "$elevate")" \
		-kernel "$rundir/$WB_BOOT_IMAGE" -initrd "$WB_INITRAMFS" \
		-append "console=ttyS0 nokaslr panic=-1 ${WB_OOPS-oops=panic} loglevel=${WB_LOGLEVEL:-4} $WB_MARKER wb.lab=$lab wb.mode=$mode wb.cols=$cols wb.rows=$rows $dets ${WB_DRGN_SCRIPT:+wb.drgn=1} ${WB_CMDLINE:-}" \
		-gdb "unix:$rundir/gdb.sock,server=on,wait=off" \
		-pidfile "$rundir/qemu.pid"
	# What the guest sees of the host, and nothing else: its root folder
	# (vm/initramfs.sh) and Debian's /usr folders, read-only; this run's
	# lab folder (read-only but in an interactive shell), build folder
	# (read-only) and its out folder; the verdict channel. A read-only
	# export is read-only on QEMU's side, whatever the guest does.
	groot=$WB_GUESTROOT/$(cat "$WB_GUESTROOT/current")
	lab_ro=,readonly=on
	[ "$mode" = shell ] && lab_ro=
	wb_9p root "$groot" ,readonly=on
	while read -r d; do
		wb_9p "usr-$d" "/usr/$d" ,readonly=on
	done <"$groot/wb/usr-folders"
	wb_9p lab "$(wb_lab_dir "$lab")" "$lab_ro"
	wb_9p build "$build" ,readonly=on
	wb_9p out "$build/out" ''
	wb_9p verdict "$rundir/verdict" ''
	# The in-tree modules of the kernel it boots, copied by vm/lab.sh, so
	# that modprobe works in the guest (init mounts them on /lib/modules).
	[ ! -d "$rundir/modules" ] || wb_9p modules "$rundir/modules" ,readonly=on
	[ -f /usr/share/qemu/qboot.rom ] && printf '%s\n' -bios /usr/share/qemu/qboot.rom
	# DEVICES in lab.mk adds hardware to this lab's VM only; every other
	# lab keeps the same machine. cdrom: a CD drive on virtio-scsi with
	# an empty tray, and a monitor on a pair of FIFOs of the run folder
	# through which wb_media_service changes its media when the guest
	# asks (vm/guest/lib.sh, wb_media).
	case " $(wb_manifest "$lab" DEVICES 2>/dev/null) " in
	*" cdrom "*)
		printf '%s\n' -device virtio-scsi-pci,id=scsi0 \
			-drive if=none,id=cd0,media=cdrom,readonly=on \
			-device scsi-cd,bus=scsi0.0,drive=cd0,id=cdrom0 \
			-chardev "pipe,id=media,path=$rundir/monitor" -mon chardev=media,mode=readline
		;;
	esac
	if [ "$mode" = shell ]; then
		printf '%s\n' -chardev "stdio,id=con,mux=on,signal=off,logfile=$rundir/console.log" \
			-serial chardev:con -mon chardev=con
	else
		printf '%s\n' -chardev "stdio,id=con,signal=off,logfile=$rundir/console.log" \
			-serial chardev:con
	fi
	# A dump of the guest's memory when it breaks (wb_dump): the pvpanic
	# device tells QEMU that the guest panicked and QEMU pauses it there;
	# the vmcoreinfo device takes the kernel's description of itself
	# into the dump (drgn and crash need it); the watchdog asks for the
	# dump on a monitor of its own, a pair of FIFOs of the run folder.
	if [ "$mode" != probe ]; then
		printf '%s\n' -device pvpanic-pci -device vmcoreinfo -action panic=pause \
			-chardev "pipe,id=dump,path=$rundir/dump" -mon chardev=dump,mode=readline
	fi
	if [ -n "$runas" ]; then
		printf '%s\n' -runas "$runas" -S \
			-chardev "pipe,id=control,path=$rundir/control" -mon chardev=control,mode=readline
	elif [ "${WB_PAUSED:-0}" = 1 ]; then
		printf '%s\n' -S
	fi
	return 0
}

# wb_qemu_runas MODE: the user QEMU runs as, or nothing (QEMU keeps the
# harness's own ids): WB_QEMU_USER, when the harness runs as root, for
# the boots that run a lab's steps or checker (not an interactive shell,
# whose lab folder is the student's own, nor the KVM probe).
# wb_boot has checked that the user exists (called in a command
# substitution, this function could not stop the boot itself).
wb_qemu_runas() {
	case $1 in run | check | cmd) ;; *) return 0 ;; esac
	[ -n "${WB_QEMU_USER:-}" ] && [ "$(id -u)" = 0 ] || return 0
	echo "$WB_QEMU_USER"
}

# wb_runas_prepare RUNDIR BUILD MODE LAB: before a boot that drops root, the
# folders the guest writes belong to that user, and the ones it reads
# can be read by it. The run folder's control FIFOs are made here.
wb_runas_prepare() {
	local user
	user=$(wb_qemu_runas "$3")
	[ -n "$user" ] || return 0
	rm -f "$1/control.in" "$1/control.out"
	mkfifo -m 600 "$1/control.in" "$1/control.out"
	chown -R "$user:" "$2/out" "$1/verdict" "$1/dump.d"
	chmod -R a+rX "$2" "$(wb_lab_dir "$4")"
	[ ! -d "$1/modules" ] || chmod -R a+rX "$1/modules"
}

# wb_runas_restore RUNDIR BUILD MODE: after the boot, what the guest
# wrote belongs to the harness's user again.
wb_runas_restore() {
	[ -n "$(wb_qemu_runas "$3")" ] || return 0
	chown -R "$(id -u):$(id -g)" "$2/out" "$1/verdict" "$1/dump.d" 2>/dev/null || :
}

# wb_runas_release RUNDIR MODE: once QEMU runs as WB_QEMU_USER (all four
# of its user ids), let the guest go (unless WB_PAUSED keeps it for
# gdb). False when QEMU ended first, or kept root for 10 s (then it is
# killed).
wb_runas_release() {
	local user uid pid n
	user=$(wb_qemu_runas "$2")
	[ -n "$user" ] || return 0
	uid=$(id -u "$user")
	n=0
	while [ $n -lt 100 ]; do
		pid=
		read -r pid 2>/dev/null <"$1/qemu.pid" || :
		if [ -n "$pid" ] && awk -v u="$uid" '/^Uid:/ { ok = $2 == u && $3 == u && $4 == u && $5 == u }
			END { exit !ok }' "/proc/$pid/status" 2>/dev/null; then
			# shellcheck disable=SC2016
			[ "${WB_PAUSED:-0}" = 1 ] ||
				timeout 5 sh -c 'echo cont >"$1"' sh "$1/control.in" || return 1
			return 0
		fi
		! wb_qemu_ended "$1" || return 1
		sleep 0.1
		n=$((n + 1))
	done
	wb_say "error: QEMU did not become user $user within 10 s; it was stopped"
	[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null
	return 1
}

# wb_9p TAG PATH OPTIONS: the QEMU arguments of one 9p export (OPTIONS
# is ",readonly=on" or empty), one per line.
wb_9p() {
	printf '%s\n' -fsdev "local,id=$1,path=$2$3,security_model=none,multidevs=remap" \
		-device "virtio-9p-pci,fsdev=$1,mount_tag=$1"
}

# wb_rundir_kernel RUNDIR: what a VM boots, kept in its run folder while
# it runs (the caller holds the tree's lock). vmlinux itself is booted,
# through its PVH entry point (CONFIG_PVH): QEMU loads it with no
# decompression, faster than bzImage under TCG, and it is the very file
# gdb reads symbols from. A hard link costs nothing, and the linker
# replaces vmlinux by a new file at the next build, leaving the link as
# it was; a copy where a link cannot be made. The in-tree modules are
# copied (init mounts them on /lib/modules, lx-symbols reads them).
wb_rundir_kernel() {
	rm -f "$1/vmlinux" "$1/bzImage"
	ln "$WB_KBUILD/vmlinux" "$1/vmlinux" 2>/dev/null ||
		cp "$WB_KBUILD/vmlinux" "$1/vmlinux" ||
		wb_die "cannot put vmlinux into $1"
	if [ "$WB_BOOT_IMAGE" = bzImage ]; then
		cp "$WB_KBUILD/arch/x86/boot/bzImage" "$1/bzImage" || wb_die "cannot put bzImage into $1"
	fi
	rm -rf "$1/modules"
	if [ -d "$WB_KMODROOT/lib/modules" ]; then
		cp -a "$WB_KMODROOT/lib/modules" "$1/modules"
		# drgn in the guest looks for the running kernel's debug
		# information in /lib/modules/RELEASE/vmlinux: the same link.
		for d in "$1"/modules/*/; do
			[ ! -d "$d" ] || ln "$1/vmlinux" "${d}vmlinux" 2>/dev/null || :
		done
	fi
}

# The run folder keeps its logs; the kernel and modules go with the VM.
wb_rundir_release() {
	rm -rf "$1/modules" "$1/vmlinux" "$1/bzImage"
}

# wb_wait_socket PATH: until QEMU has made its gdb stub's socket, at
# most 5 s.
wb_wait_socket() {
	local n
	n=0
	while [ ! -S "$1" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# wb_gdb_batch RUNDIR LIMIT GDB [KBUILD]: once QEMU's gdb stub is up, GDB
# (gdb, or gdb-multiarch for another architecture's guest) runs
# $WB_GDB_SCRIPT in batch mode against the paused guest, in the
# background, at most LIMIT seconds, then detaches; its output in
# RUNDIR/gdb.log, its pid in RUNDIR/gdb.pid.
wb_gdb_batch() {
	local rundir limit gdb
	rundir=$1 limit=$2 gdb=$3
	wb_wait_socket "$rundir/gdb.sock"
	IFS='
'
	# shellcheck disable=SC2046
	set -- $(wb_gdb_args "$rundir" ${4:+"$4"})
	unset IFS
	timeout -k 5 "$limit" "$gdb" -batch "$@" -x "$WB_GDB_SCRIPT" -ex detach \
		>"$rundir/gdb.log" 2>&1 </dev/null &
	echo $! >"$rundir/gdb.pid"
}

# wb_qemu_sandbox ELEVATE: QEMU's -sandbox value for every guest: no
# obsolete system calls, no new processes, no resource control, and
# privileges raised only when ELEVATE is allow (-runas).
wb_qemu_sandbox() {
	echo "on,obsolete=deny,elevateprivileges=$1,spawn=deny,resourcecontrol=deny"
}

# wb_gdb_args RUNDIR [KBUILD]: the gdb arguments, one per line, that load
# the vmlinux a VM booted with the tree's gdb helpers and connect to its
# gdb stub. KBUILD is the kernel's build folder: the workbook's x86
# kernel's, or what RUNDIR/kbuild names (a tour's guest of another
# architecture, vm/xkernel.sh). Reading vmlinux's DWARF costs gdb about
# 10 s of both cores, taken from the VM it debugs; gdb's index cache (by
# build id, in the cache folder) turns that into half a second for a
# kernel it has read before.
wb_gdb_args() {
	local kb
	kb=${2:-$(cat "$1/kbuild" 2>/dev/null || echo "$WB_KBUILD")}
	printf '%s\n' -q -nx -ex 'set pagination off' -ex 'set confirm off' \
		-ex "set index-cache directory $WB_CACHE/gdb-index" \
		-ex 'set index-cache enabled on' \
		-ex "add-auto-load-safe-path $kb" \
		-ex "file $1/vmlinux" -ex "source $kb/vmlinux-gdb.py" \
		-ex "source $WB_ROOT/vm/workbook.gdb" \
		-ex "python wb_symbol_folders = '$(cat "$1/build" 2>/dev/null) $1/modules'" \
		-ex "target remote $1/gdb.sock"
}

# wb_accel: tcg, unless ACCEL says otherwise or a probe boot has shown
# that KVM really runs a guest on this machine. On these machines
# /dev/kvm opens but a KVM guest hangs after the BIOS, so the probe gives
# the guest a few seconds and remembers the answer.
wb_accel() {
	case ${ACCEL:-auto} in
	tcg | kvm) echo "$ACCEL"; return 0 ;;
	auto) ;;
	*) wb_die "ACCEL must be tcg, kvm or auto, not '$ACCEL'" ;;
	esac
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo tcg
		return 0
	fi
	key="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
	if [ ! -f "$WB_KVM_PROBE" ] || [ "$(sed -n 2p "$WB_KVM_PROBE")" != "$key" ]; then
		wb_say "probing KVM (a short boot, at most ${WB_KVM_PROBE_SECONDS:-10} s; the answer is kept in $WB_KVM_PROBE)"
		pdir=$(mktemp -d "$WB_CACHE/probe.XXXXXX")
		mkdir "$pdir/verdict" "$pdir/out"
		wb_rundir_kernel "$pdir"
		# shellcheck disable=SC2046
		IFS='
' set -- $(wb_qemu_args kvm probe probe "$pdir" "$pdir")
		if timeout -k 2 "${WB_KVM_PROBE_SECONDS:-10}" \
			qemu-system-x86_64 "$@" </dev/null >/dev/null 2>&1 &&
			grep -q WB-PROBE-OK "$pdir/console.log" 2>/dev/null; then
			printf 'kvm\n%s\n' "$key" >"$WB_KVM_PROBE"
		else
			printf 'tcg\n%s\n' "$key" >"$WB_KVM_PROBE"
			wb_say "KVM did not boot the guest in time: using TCG (software emulation)"
		fi
		rm -rf "$pdir"
	fi
	head -n 1 "$WB_KVM_PROBE"
}

# Kill what a boot left running: QEMU, the timeout wrapper and gdb, and
# wait (at most 5 s each) until they are gone, so that nothing outlives
# the harness even for a moment.
wb_kill_rundir() {
	for f in $WB_PIDFILES; do
		f=$1/$f.pid
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		if [ -n "$pid" ]; then
			kill -KILL "$pid" 2>/dev/null || :
		fi
	done
	for f in $WB_PIDFILES; do
		f=$1/$f.pid
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		[ -n "$pid" ] || continue
		# Reaped here if it is this shell's child; otherwise its parent
		# or init reaps it.
		wait "$pid" 2>/dev/null || :
		n=0
		while kill -0 "$pid" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
	done
}

# wb_media_service RUNDIR BUILD: while the VM runs, carry out the
# guest's requests for its CD drive. The guest writes one line to
# /build/out/media.request ("insert NAME", NAME a file of /build/out, or
# "eject"); this sends the matching command to QEMU's monitor, waits for
# its prompt (the command is done), and answers in media.done with the
# request's number. Nothing else reaches the monitor: a name with any
# character but letters, digits, dot, dash and underscore, or any other
# request, is refused. wb_boot stops it with the VM,
# wb_kill_rundir too (its pid file), and it ends by itself when QEMU is
# gone.
wb_media_service() {
	rundir=$1 build=$2
	req=$build/out/media.request
	rm -f "$req" "$build/out/media.done"
	cat "$rundir/monitor.out" >"$rundir/monitor.log" &
	mcat=$!
	trap 'kill "$mcat" 2>/dev/null; exit 0' TERM INT
	# Read-write: opening a FIFO so never blocks, even before QEMU has it.
	exec 3<>"$rundir/monitor.in"
	n=0
	while :; do
		if [ -f "$req" ]; then
			line=$(cat "$req")
			rm -f "$req"
			n=$((n + 1))
			name=${line#insert }
			cmd=
			# A name is letters, digits, dot, dash and underscore
			# only: nothing the guest writes becomes monitor syntax.
			case $line in
			eject) cmd="eject -f cd0" ;;
			"insert "*[!A-Za-z0-9._-]* | "insert " | "insert ."*) ;;
			"insert "*) [ -f "$build/out/$name" ] && cmd="change cd0 $build/out/$name raw" ;;
			esac
			answer="refused: $line"
			if [ -n "$cmd" ]; then
				prompts=$(grep -o '(qemu)' "$rundir/monitor.log" | wc -l)
				printf '%s\n' "$cmd" >&3
				i=0
				while [ "$(grep -o '(qemu)' "$rundir/monitor.log" | wc -l)" -le "$prompts" ] && [ $i -lt 50 ]; do
					sleep 0.1
					i=$((i + 1))
				done
				answer="done: $line"
			fi
			echo "$n $answer" >"$build/out/media.done.tmp"
			mv "$build/out/media.done.tmp" "$build/out/media.done"
		fi
		if wb_qemu_ended "$rundir"; then
			kill "$mcat" 2>/dev/null || :
			exit 0
		fi
		sleep 0.2
	done
}

# wb_qemu_ended RUNDIR: true once the QEMU that wrote RUNDIR/qemu.pid is
# gone; the services beside a VM end with it.
wb_qemu_ended() {
	local pid
	pid=
	read -r pid 2>/dev/null <"$1/qemu.pid" || :
	[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null
}

# The media service runs beside a VM that has a CD drive.
wb_media_start() {
	msvc=
	[ -p "$1/monitor.in" ] || return 0
	wb_media_service "$1" "$2" &
	msvc=$!
	echo "$msvc" >"$1/media.pid"
}

wb_media_stop() {
	[ -n "$msvc" ] || return 0
	kill "$msvc" 2>/dev/null || :
	wait "$msvc" 2>/dev/null || :
}

# The part of the console after the first crash line, or nothing. A lab
# whose steps crash the kernel on purpose names that crash in its
# manifest (EXPECT_OOPS, an extended regular expression, passed here as
# WB_EXPECT_OOPS, read from the environment so that awk leaves its
# backslashes alone): a report whose first line matches it is skipped up
# to its end marker; any other crash still counts. An expected report
# that the kernel then made fatal (panic_on_oops, set in the guest: the
# debugging lab does so to keep a dump of it) is that panic's cause: it
# is shown before the panic.
wb_crash_text() {
	# The terminal's escape sequences that an interactive shell leaves on
	# a console line go, then the kernel's time stamps.
	tr -d '\r' <"$1" | sed 's/\x1b\[[?0-9;]*[A-Za-z]//g; s/^\[ *[0-9.]*\] //' |
		awk -v detected="$WB_DETECTED" -v hangs="$WB_HANGS" '
		BEGIN { expect = ENVIRON["WB_EXPECT_OOPS"] }
		skip && /---\[ end trace / { skip = 0; next }
		skip { if (held < 40) line[++held] = $0; next }
		!n && held && /Kernel panic - not syncing: Fatal exception/ {
			for (i = 1; i <= held; i++) print "    " line[i]
		}
		# The session relays the reports of the detectors as KTAP
		# diagnostics ("# BUG: KFENCE: ..."): no kernel line starts so.
		!n && ($0 ~ detected || $0 ~ hangs || /^# /) { next }
		/Kernel panic - not syncing|Oops:|BUG: |general protection fault|kernel BUG at/ && !n {
			if (expect != "" && $0 ~ expect) { skip = 1; held = 1; line[1] = $0; next }
			n = 1
		}
		n && n <= 40 { print "    " $0; n++ }'
}

# wb_boot ACCEL MODE LAB BUILD RUNDIR TIMEOUT: boot the VM and return the
# session's status. In shell mode the console is the terminal and there
# is no time limit; otherwise the console goes to stdout (or only to the
# log with WB_QUIET=1), and the boot is killed after TIMEOUT seconds.
# With WB_GDB_SCRIPT, QEMU starts paused and gdb runs the script in batch
# mode against it; its output goes to RUNDIR/gdb.log.
wb_boot() {
	accel=$1 mode=$2 lab=$3 build=$4 rundir=$5 limit=$6
	# A user QEMU cannot become stops the boot: it never runs as root
	# instead.
	if [ -n "$(wb_qemu_runas "$mode")" ] && ! id -u "$WB_QEMU_USER" >/dev/null 2>&1; then
		wb_die "WB_QEMU_USER is '$WB_QEMU_USER', which is not a user of this machine (the user QEMU runs as when the grader is root; nobody by default)"
	fi
	mkdir -p "$rundir"
	rm -f "$rundir/console.log" "$rundir/gdb.log" "$rundir/qemu.pid" "$rundir/gdb.pid" \
		"$rundir/ktap" "$rundir/ktap.broken" "$rundir/steps.status"
	# The verdict channel's host side (see vm/guest/init).
	rm -rf "$rundir/verdict"
	mkdir "$rundir/verdict"
	rm -f "$rundir/monitor.in" "$rundir/monitor.out" "$rundir/monitor.log" \
		"$rundir/dump.in" "$rundir/dump.out" "$rundir/dump.info" "$rundir/dump.taking"
	rm -rf "$rundir/dump.d"
	mkfifo "$rundir/dump.in" "$rundir/dump.out"
	mkdir "$rundir/dump.d"
	case " $(wb_manifest "$lab" DEVICES) " in
	*" cdrom "*) mkfifo "$rundir/monitor.in" "$rundir/monitor.out" ;;
	esac
	[ -n "${WB_GDB_SCRIPT:-}" ] && WB_PAUSED=1
	wb_runas_prepare "$rundir" "$build" "$mode" "$lab"
	IFS='
'
	# shellcheck disable=SC2046
	set -- $(wb_qemu_args "$accel" "$mode" "$lab" "$build" "$rundir")
	unset IFS
	wb_say "VM: $accel, lab $lab, gdb stub on unix socket $rundir/gdb.sock (attach: make gdb LAB=$lab)"
	echo "$accel" >"$rundir/accel"
	rm -f "$rundir/noboot" "$rundir/qemu.err" "$rundir/timed-out" "$rundir/over-budget" "$rundir/hung" "$rundir/dump.kept"
	started=$(date +%s)
	# Ctrl-C or a TERM to the harness: stop what this boot started, say
	# so, and end with 130 (or 143).
	trap 'wb_boot_interrupted "$rundir" 130' INT
	trap 'wb_boot_interrupted "$rundir" 143' TERM
	if [ "$mode" = shell ]; then
		wb_say "Ctrl-a x quits QEMU; 'exit' in the guest powers it off"
		wb_boot_watchdog "$rundir" "$build" "$mode" 0 &
		wdog=$!
		wb_media_start "$rundir" "$build"
		rc=0
		qemu-system-x86_64 "$@" 2>"$rundir/qemu.err" || rc=$?
		[ -f "$rundir/dump.taking" ] || kill "$wdog" 2>/dev/null || :
		wait "$wdog" 2>/dev/null || :
		wb_media_stop
		wb_dump_keep "$rundir" "$lab" "$build"
		trap - INT TERM
		if [ -f "$rundir/noboot" ] || [ -f "$rundir/dump.info" ]; then
			wb_verdict "$rundir" 0 0
			return
		fi
		# Ctrl-a x, or 'exit' in the guest, end a shell normally; QEMU
		# stopped by a signal from outside does not.
		wb_qemu_failed "$rundir" "$rc" && return "$WB_EXIT_NO_VERDICT"
		wb_killed_from_outside "$rundir" "$rc" && return "$WB_EXIT_NO_VERDICT"
		wb_qemu_err "$rundir"
		return 0
	fi
	# QEMU's output goes to the harness's own stdout, inherited and not
	# opened again (opening /dev/stdout would truncate a file that the
	# output is redirected to).
	# TERM first: timeout(1) survives it and reaps QEMU, so that no
	# orphan is left behind; KILL five seconds later if QEMU ignores it.
	# The watchdog ends the run at the lab's limit, after a dump of the
	# guest; timeout(1) is the backstop, that long later.
	backstop=$((limit + ${WB_DUMP_LIMIT:-120}))
	if [ "${WB_QUIET:-0}" = 1 ]; then
		timeout -k 5 "$backstop" qemu-system-x86_64 "$@" </dev/null >/dev/null 2>"$rundir/qemu.err" &
	else
		timeout -k 5 "$backstop" qemu-system-x86_64 "$@" </dev/null 2>"$rundir/qemu.err" &
	fi
	echo $! >"$rundir/timeout.pid"
	qpid=$!
	wb_runas_release "$rundir" "$mode" || :
	[ -z "${WB_GDB_SCRIPT:-}" ] || wb_gdb_batch "$rundir" "$limit" gdb
	wb_boot_watchdog "$rundir" "$build" "$mode" "$limit" &
	wdog=$!
	wb_media_start "$rundir" "$build"
	dsvc=
	if [ -n "${WB_DRGN_SCRIPT:-}" ]; then
		wb_drgn_service "$rundir" "$build" &
		dsvc=$!
		echo "$dsvc" >"$rundir/drgn.pid"
	fi
	rc=0
	wait "$qpid" || rc=$?
	wb_media_stop
	# The drgn script may still be reading its snapshot (bounded by
	# WB_DUMP_LIMIT); the service ends by itself once QEMU is gone.
	[ -z "$dsvc" ] || wait "$dsvc" 2>/dev/null || :
	# A dump the watchdog is taking ends with QEMU: the watchdog then
	# writes what it took.
	[ ! -f "$rundir/dump.taking" ] || wait "$wdog" 2>/dev/null || :
	# timeout(1) says 124 when its TERM ended QEMU, 137 when it had to
	# KILL; a 137 before the limit is someone else's KILL.
	if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ $(($(date +%s) - started)) -ge "$backstop" ]; }; then
		touch "$rundir/timed-out"
	fi
	kill "$wdog" 2>/dev/null || :
	wait "$wdog" 2>/dev/null || :
	if [ -f "$rundir/gdb.pid" ]; then
		gpid=$(cat "$rundir/gdb.pid")
		n=0
		while kill -0 "$gpid" 2>/dev/null && [ $n -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -KILL "$gpid" 2>/dev/null || :
		wait "$gpid" 2>/dev/null || :
	fi
	wb_kill_rundir "$rundir"
	wb_runas_restore "$rundir" "$build" "$mode"
	wb_dump_keep "$rundir" "$lab" "$build"
	trap - INT TERM
	wb_verdict "$rundir" "$rc" "$limit"
}

# wb_dump_keep RUNDIR LAB BUILD: a dump the watchdog took goes to its own
# folder of WB_DUMPS, with the vmlinux the VM booted (a hard link), the
# tree's modules it had, the lab's own modules as built for the run (ko/),
# the console log and what the run was (lab, variant). The last
# WB_KEEP_DUMPS (3) of each lab are kept; RUNDIR/dump.kept names it.
wb_dump_keep() {
	local rundir lab build dir ko
	rundir=$1 lab=$2 build=$3
	[ -s "$rundir/dump.d/vmcore" ] || return 0
	dir=$WB_DUMPS/$lab/$(date +%Y%m%d-%H%M%S).$$
	mkdir -p "$dir/ko" || return 0
	mv "$rundir/dump.d/vmcore" "$dir/vmcore"
	ln "$rundir/vmlinux" "$dir/vmlinux" 2>/dev/null || cp "$rundir/vmlinux" "$dir/vmlinux"
	[ ! -d "$rundir/modules" ] || cp -al "$rundir/modules" "$dir/modules" 2>/dev/null ||
		cp -a "$rundir/modules" "$dir/modules"
	for ko in "$build"/.mod-*/*.ko; do
		[ ! -f "$ko" ] || cp "$ko" "$dir/ko/"
	done
	for f in console.log dump.info lab variant build; do
		[ ! -f "$rundir/$f" ] || cp "$rundir/$f" "$dir/"
	done
	echo "$dir" >"$rundir/dump.kept"
	# shellcheck disable=SC2012
	ls -dt "$WB_DUMPS/$lab"/*/ | tail -n +$((${WB_KEEP_DUMPS:-3} + 1)) | while read -r old; do
		rm -rf "$old"
	done
}

# wb_dump_said RUNDIR: where the dump of this run went, and how to open it.
wb_dump_said() {
	local dir why took kb lab
	[ -f "$1/dump.kept" ] || return 0
	dir=$(cat "$1/dump.kept")
	read -r why took kb <"$dir/dump.info" || :
	lab=$(cat "$dir/lab" 2>/dev/null || :)
	wb_say "the guest's memory at the $why: $dir/vmcore ($((${kb:-0} / 1024)) MiB, taken in ${took:-?} s); make postmortem LAB=$lab opens it in drgn (TOOL=crash: in crash)"
}

# wb_boot_interrupted RUNDIR STATUS: the harness was interrupted during
# a boot; nothing it started may outlive it.
wb_boot_interrupted() {
	trap - INT TERM
	wb_kill_rundir "$1"
	wb_say "interrupted: the VM was stopped (run folder: $1). Nothing was graded; run the same command again to start over."
	exit "$2"
}

# wb_qemu_failed RUNDIR STATUS: true, after saying so, when QEMU itself
# failed: it ended on a signal of its own making (an assertion's abort, a
# crash) without saying that a signal stopped it, or it exited with an
# error of its own before the guest reached its init. Seen on a 2-core
# cloud machine: KVM with a CPU model it cannot set up ("failed to set
# MSR 0x10a", then an assertion and SIGABRT).
wb_qemu_failed() {
	local sig how
	sig=
	[ "$2" -le 128 ] || sig=$(($2 - 128))
	if grep -q 'terminating on signal' "$1/qemu.err" 2>/dev/null || [ -f "$1/timed-out" ]; then
		return 1
	fi
	case $sig in
	4 | 6 | 7 | 8 | 11) how="ended on signal $sig ($(kill -l "$sig")), raised by QEMU itself" ;;
	'')
		# An exit with status 1 and a message, before the guest's init
		# said it was up: QEMU refused to run (a bad option, an
		# accelerator it cannot open).
		[ "$2" = 1 ] && [ -s "$1/qemu.err" ] && ! grep -q WB-READY "$1/console.log" 2>/dev/null ||
			return 1
		how="exited with status 1"
		;;
	*) return 1 ;;
	esac
	wb_say "error: QEMU itself failed: it $how, with the message below. This is QEMU on this machine, not the lab or the guest; nothing was graded."
	wb_qemu_err "$1"
	if [ "$(cat "$1/accel" 2>/dev/null)" = kvm ]; then
		wb_say "This run used KVM, which this QEMU cannot use here: run it again with ACCEL=tcg (or ACCEL=auto, which probes KVM first)."
	else
		wb_say "Run the same command again; if QEMU fails the same way, its message above is what to look up (qemu-system-x86_64 --version: $(qemu-system-x86_64 --version | head -n 1))."
	fi
	return 0
}

# wb_killed_from_outside RUNDIR STATUS: true, after saying so, when QEMU
# (or timeout(1) around it) ended because of a signal that the harness
# did not send. STATUS is the exit status of the command that ran QEMU.
wb_killed_from_outside() {
	sig=$(sed -n 's/.*terminating on signal \([0-9]*\).*/\1/p' "$1/qemu.err" 2>/dev/null | head -n 1)
	if [ -z "$sig" ] && [ "$2" -gt 128 ] && [ ! -f "$1/timed-out" ]; then
		sig=$(($2 - 128))
	fi
	[ -n "$sig" ] || return 1
	wb_say "error: QEMU was stopped by signal $sig ($(kill -l "$sig" 2>/dev/null || echo "?")) from outside the harness, before the guest finished: something on this machine killed it (a kill command, the OOM killer, a CI job's timeout). Nothing was graded. Run the same command again; if it happens again, look at dmesg and at free -m."
	wb_qemu_err "$1"
	return 0
}

# The watchdog of a boot, beside QEMU until it ends:
# - a guest that has not reached its init script WB_BOOT_LIMIT seconds
#   after QEMU started will not: it is killed rather than left to the
#   lab's timeout (not with a gdb script attached: the guest may sit at
#   a breakpoint, and the lab's timeout decides);
# - what the guest writes on the host is bounded: the console log to
#   WB_CONSOLE_LIMIT bytes (default 16 MiB), /build/out and the verdict
#   channel together to WB_OUT_LIMIT KiB (default 64 MiB). A guest that
#   writes more is stopped, and the run fails ("over-budget"), so that
#   no lab fills the disk under the next one;
# - a guest that hangs is recognised, not waited out: once the console
#   shows one of the kernel's own hang reports (WB_HANGS), the run is
#   stopped WB_HANG_GRACE seconds later (default 10) and said to have
#   hung ("hung" holds the report's first line). Not in an interactive
#   shell, nor with a gdb script: there the student or gdb may be
#   holding the guest on purpose.
wb_boot_watchdog() {
	local rundir build mode limit n ready pid hang_at start why
	rundir=$1 build=$2 mode=${3:-run} limit=${4:-0}
	n=0 ready='' hang_at='' why=''
	start=$(date +%s)
	[ -z "${WB_GDB_SCRIPT:-}" ] || ready=1
	while :; do
		sleep 0.2
		n=$((n + 1))
		# QEMU gone (however it ended), or never started: nothing left
		# to watch.
		! wb_qemu_ended "$rundir" || return 0
		[ -f "$rundir/qemu.pid" ] || [ $n -lt $((${WB_BOOT_LIMIT:-60} * 5)) ] || return 0
		if [ -z "$ready" ]; then
			if grep -q WB-READY "$rundir/console.log" 2>/dev/null; then
				ready=1
			elif [ $n -ge $((${WB_BOOT_LIMIT:-60} * 5)) ]; then
				touch "$rundir/noboot"
				break
			fi
		fi
		[ $((n % 5)) = 0 ] || continue
		# A panic: the guest is paused there (pvpanic); dump it.
		if grep -q 'Kernel panic - not syncing' "$rundir/console.log" 2>/dev/null; then
			why=panic
			break
		fi
		# The lab's time limit (timeout(1) is only the backstop).
		if [ "$limit" -gt 0 ] && [ $(($(date +%s) - start)) -ge "$limit" ]; then
			touch "$rundir/timed-out"
			why=timeout
			break
		fi
		if [ "$mode" != shell ] && [ -z "${WB_GDB_SCRIPT:-}" ]; then
			if [ -z "$hang_at" ]; then
				! tr -d '\r' <"$rundir/console.log" 2>/dev/null | grep -Eq "$WB_HANGS" || hang_at=$n
			elif [ $((n - hang_at)) -ge $((${WB_HANG_GRACE:-10} * 5)) ]; then
				tr -d '\r' <"$rundir/console.log" | grep -Em 1 "$WB_HANGS" >"$rundir/hung"
				echo $(((n - hang_at) / 5)) >>"$rundir/hung"
				why=hang
				break
			fi
		fi
		if [ "$(wc -c <"$rundir/console.log" 2>/dev/null || echo 0)" -gt "${WB_CONSOLE_LIMIT:-16777216}" ] ||
			[ "$(du -sk "$build/out" "$rundir/verdict" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')" \
				-gt "${WB_OUT_LIMIT:-65536}" ]; then
			touch "$rundir/over-budget"
			break
		fi
	done
	[ -z "$why" ] || wb_dump "$rundir" "$why"
	pid=$(cat "$rundir/qemu.pid" 2>/dev/null || :)
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	return 0
}

# wb_dump RUNDIR WHY: the guest's memory, before QEMU goes, into
# RUNDIR/dump.d/vmcore, through QEMU's monitor: dump-guest-memory stops
# the guest, writes the dump and returns, and quit then ends QEMU. The
# dump is an ELF core of the guest's memory as its page tables map it
# (-p), each segment with its virtual address: drgn 0.0.22 (Debian 12)
# needs those to read the kernel's, and crash reads it too (QEMU 7.2's
# compressed kdump is "flattened", which this drgn does not read). Its
# pages of zeros become holes of the file, so that it takes on disk
# about what the guest had in use. At most
# WB_DUMP_LIMIT seconds (120 by default); RUNDIR/dump.info says why, how
# long it took and the KiB it takes. WB_DUMP=0 takes none.
wb_dump() {
	local rundir t0 n pid
	rundir=$1
	[ "${WB_DUMP:-1}" != 0 ] && [ -p "$rundir/dump.in" ] || return 0
	touch "$rundir/dump.taking"
	t0=$(date +%s)
	wb_dump_request "$rundir" quit || return 0
	pid=$(cat "$rundir/qemu.pid" 2>/dev/null || :)
	n=0
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $n -lt $((${WB_DUMP_LIMIT:-120} * 5)) ]; do
		sleep 0.2
		n=$((n + 1))
	done
	wb_dump_written "$rundir" "$2" "$t0"
}

# wb_dump_request RUNDIR THEN [FILE]: ask the VM's dump monitor for the
# dump of wb_dump, into FILE (RUNDIR/dump.d/vmcore), then for the
# monitor command THEN.
wb_dump_request() {
	# shellcheck disable=SC2016
	timeout 5 sh -c 'printf "dump-guest-memory -p %s\n%s\n" "$2" "$3" >"$1"' sh \
		"$1/dump.in" "${3:-$1/dump.d/vmcore}" "$2"
}

# wb_dump_answered RUNDIR: wait for the answer to the "info status" that
# followed a dump request, which comes once the dump is written; at most
# WB_DUMP_LIMIT seconds (120). False when none came.
wb_dump_answered() {
	# shellcheck disable=SC2016
	timeout "${WB_DUMP_LIMIT:-120}" sh -c 'while IFS= read -r l; do
		case $l in *"VM status"*) exit 0 ;; esac
	done <"$1"' sh "$1/dump.out"
}

# wb_dump_written RUNDIR WHY T0: the dump's pages of zeros made holes,
# and RUNDIR/dump.info: why, the seconds since T0, the KiB it takes.
wb_dump_written() {
	fallocate --dig-holes "$1/dump.d/vmcore" 2>/dev/null || :
	printf '%s %s %s\n' "$2" $(($(date +%s) - $3)) \
		"$(du -k "$1/dump.d/vmcore" 2>/dev/null | cut -f1)" >"$1/dump.info"
}

# wb_snapshot RUNDIR LAB: the memory of a guest that goes on running,
# for make drgn: the same dump as wb_dump's, without the quit. QEMU
# pauses the guest while it writes, then lets it go on (or stays
# stopped, if gdb held it); "info status" after the dump answers once it
# is written. The snapshot is kept as a dump is (wb_dump_keep), and its
# folder printed.
wb_snapshot() {
	local rundir t0 build
	rundir=$1
	if [ ! -p "$rundir/dump.in" ] || [ ! -p "$rundir/dump.out" ]; then
		wb_die "the VM of $rundir has no dump monitor (started before this workbook had one?): stop it and start it again"
	fi
	rm -f "$rundir/dump.d/vmcore" "$rundir/dump.kept"
	t0=$(date +%s)
	wb_dump_request "$rundir" "info status" || wb_die "the VM's dump monitor does not answer"
	wb_dump_answered "$rundir" || wb_die "the snapshot did not end within ${WB_DUMP_LIMIT:-120} s"
	[ -s "$rundir/dump.d/vmcore" ] || wb_die "QEMU wrote no snapshot (its error, if any: $rundir/qemu.err)"
	wb_dump_written "$rundir" snapshot "$t0"
	build=$(cat "$rundir/build" 2>/dev/null || :)
	wb_dump_keep "$rundir" "$2" "$build"
	cat "$rundir/dump.kept"
}

# wb_drgn_service RUNDIR BUILD: beside a VM booted with a drgn script
# (WB_DRGN_SCRIPT: make check's run of a lab that has a lab.drgn). When
# the lab's steps reach wb_drgn_point (vm/guest/lib.sh), the guest asks
# in BUILD/out/drgn.request and waits; this takes a snapshot of its
# memory (as wb_snapshot does: the guest pauses while QEMU writes it),
# lets the guest go on (BUILD/out/drgn.done), and runs the script on the
# snapshot with the vmlinux and modules that booted, into RUNDIR/drgn.log
# (RUNDIR/drgn.info: the seconds the snapshot and drgn took). The
# snapshot is deleted then, unless drgn failed (RUNDIR/drgn.d: vmcore and
# vmlinux, for the script's author). One snapshot per boot; the service
# ends after it, or with QEMU.
wb_drgn_service() {
	local rundir build req t0 t1 rc n
	rundir=$1 build=$2
	req=$build/out/drgn.request
	rm -f "$req" "$build/out/drgn.done" "$rundir/drgn.log" "$rundir/drgn.info"
	rm -rf "$rundir/drgn.d"
	while [ ! -f "$req" ]; do
		! wb_qemu_ended "$rundir" || return 0
		sleep 0.2
	done
	mkdir -p "$rundir/drgn.d"
	t0=$(date +%s)
	rc=0
	{ wb_dump_request "$rundir" "info status" "$rundir/drgn.d/vmcore" && wb_dump_answered "$rundir"; } || rc=$?
	echo taken >"$build/out/drgn.done"
	t1=$(date +%s)
	if [ "$rc" != 0 ] || [ ! -s "$rundir/drgn.d/vmcore" ]; then
		echo "wb_drgn_service: QEMU wrote no snapshot (status $rc)" >"$rundir/drgn.log"
	else
		IFS='
'
		# shellcheck disable=SC2046
		set -- $(wb_drgn_files "$rundir/vmlinux" "$rundir/modules" "$build"/.mod-*)
		unset IFS
		# drgn is this shell's child, its pid in a file of the run
		# folder, so that wb_kill_rundir stops it with the VM; it has
		# WB_DUMP_LIMIT seconds.
		drgn -q -c "$rundir/drgn.d/vmcore" "$@" "$WB_DRGN_SCRIPT" \
			>"$rundir/drgn.log" 2>&1 </dev/null &
		echo $! >"$rundir/drgnrun.pid"
		n=0
		while kill -0 $! 2>/dev/null && [ $n -lt $((${WB_DUMP_LIMIT:-120} * 5)) ]; do
			sleep 0.2
			n=$((n + 1))
		done
		kill -KILL $! 2>/dev/null || :
		rc=0
		wait $! || rc=$?
		if [ "$rc" != 0 ]; then
			ln "$rundir/vmlinux" "$rundir/drgn.d/vmlinux" 2>/dev/null || :
			echo "wb_drgn_service: drgn ended with status $rc; the snapshot is kept for the script's author:" \
				"drgn -c $rundir/drgn.d/vmcore -s $rundir/drgn.d/vmlinux" >>"$rundir/drgn.log"
		fi
	fi
	echo "$((t1 - t0)) $(($(date +%s) - t1))" >"$rundir/drgn.info"
	[ "$rc" != 0 ] || rm -rf "$rundir/drgn.d"
}

# wb_live_rundir LAB: the run folder of the newest running VM of LAB,
# or a stop that says how to start one (make gdb, make drgn). Every run
# folder under $WB_CACHE/run says which lab it boots (RUNDIR/lab).
wb_live_rundir() {
	local d pid live
	live=
	for d in "$WB_CACHE"/run/*; do
		[ "$(cat "$d/lab" 2>/dev/null)" = "$1" ] || continue
		pid=$(cat "$d/qemu.pid" 2>/dev/null || :)
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ -S "$d/gdb.sock" ]; then
			live="$live $d/qemu.pid"
		fi
	done
	[ -n "$live" ] || wb_die "no VM of lab $1 is running; start one in another terminal with: make lab LAB=$1"
	# shellcheck disable=SC2086,SC2012
	dirname "$(ls -t $live | head -n 1)"
}

# What QEMU itself said (RUNDIR/qemu.err), indented, on stderr.
wb_qemu_err() {
	[ ! -s "$1/qemu.err" ] || sed 's/^/    qemu: /' "$1/qemu.err" >&2
}

# The last lines of a console log, indented, on stderr.
wb_console_tail() {
	tr -d '\r' <"$1" | tail -n 15 | sed 's/^/    /' >&2
}

# Read the console: a crash, a timeout, or the session's own status.
wb_verdict() {
	rundir=$1 rc=$2 limit=$3
	log=$rundir/console.log
	[ -f "$log" ] || : >"$log"
	crash=$(wb_crash_text "$log")
	if [ -n "$crash" ]; then
		wb_say "error: the guest kernel crashed (console: $log):"
		printf '%s\n' "$crash" | wb_decode "$rundir" >&2
		wb_dump_said "$rundir"
		return "$WB_EXIT_OOPS"
	fi
	if [ -f "$rundir/over-budget" ]; then
		echo "over budget" >"$rundir/ktap.broken"
		wb_say "error: the guest wrote more than the harness keeps (console log over ${WB_CONSOLE_LIMIT:-16777216} bytes, or /build/out and the checker's report over ${WB_OUT_LIMIT:-65536} KiB) and was stopped: counted as failed. Last console lines:"
		wb_console_tail "$log"
		return "$WB_EXIT_FAIL"
	fi
	if [ -f "$rundir/noboot" ]; then
		wb_say "error: the guest did not boot within ${WB_BOOT_LIMIT:-60} s and was stopped. With ACCEL=kvm on a machine where KVM hangs, use ACCEL=tcg. Last console lines:"
		wb_console_tail "$log"
		return "$WB_EXIT_TIMEOUT"
	fi
	if [ -f "$rundir/hung" ]; then
		wb_say "error: the guest hung: the kernel reported \"$(sed -n 1p "$rundir/hung" | sed 's/^\[ *[0-9.]*\] //')\", and the run was stopped $(sed -n 2p "$rundir/hung") s later instead of waiting for the lab's TIMEOUT. What the kernel said from there:"
		tr -d '\r' <"$log" | awk -v re="$WB_HANGS" '$0 ~ re { on = 1 } on && n < 30 { print "    " $0; n++ }' |
			wb_decode "$rundir" >&2
		wb_dump_said "$rundir"
		return "$WB_EXIT_TIMEOUT"
	fi
	if [ -f "$rundir/timed-out" ]; then
		wb_say "error: the guest did not finish within $limit s (the lab's TIMEOUT); it was killed. Last console lines:"
		wb_console_tail "$log"
		wb_dump_said "$rundir"
		return "$WB_EXIT_TIMEOUT"
	fi
	wb_qemu_failed "$rundir" "$rc" && return "$WB_EXIT_NO_VERDICT"
	if wb_killed_from_outside "$rundir" "$rc"; then
		wb_say "last console lines:"
		wb_console_tail "$log"
		return "$WB_EXIT_NO_VERDICT"
	fi
	# The verdict comes from the channel that only the guest's init and
	# session write (vm/guest/init), never from the console: anything in
	# the guest can print "ok" there.
	v=$rundir/verdict/verdict
	if [ ! -f "$v" ] || ! grep -qx end "$v"; then
		wb_say "error: the guest stopped without a verdict (QEMU exit status $rc): the session did not reach its end, so it was killed, or the guest powered off early. Last console lines:"
		wb_console_tail "$log"
		wb_qemu_err "$rundir"
		return "$WB_EXIT_NO_VERDICT"
	fi
	sed -n 's/^steps-end //p' "$v" >"$rundir/steps.status"
	if ! grep -qx check-begin "$v"; then
		status=$(sed -n 's/^status //p' "$v" | tail -n 1)
		return "${status:-$WB_EXIT_NO_VERDICT}"
	fi
	sed -n 's/^K //p' "$v" >"$rundir/ktap"
	cstatus=$(sed -n 's/^check-status //p' "$v")
	# The report must be whole (wb_ktap check), then the checker's own
	# exit.
	short=$(wb_ktap check "$rundir/ktap")
	if [ -z "$cstatus" ] || [ -n "$short" ]; then
		echo "${short:-no exit status}" >"$rundir/ktap.broken"
		wb_say "error: the checker's report is not whole (${short:-no exit status}; the checker's exit status: ${cstatus:-none}): it was stopped or killed midway, or something else wrote into its output. This counts as a failure."
		return "$WB_EXIT_FAIL"
	fi
	if [ "$cstatus" = 0 ] && [ "$(wb_ktap_count "$rundir/ktap" fail)" != 0 ]; then
		wb_say "error: the checker exited with status 0 but reported a failure: counted as failed"
		return "$WB_EXIT_FAIL"
	fi
	case $cstatus in
	0 | 1) ;;
	*)
		wb_say "error: the checker exited with status $cstatus (a checker exits 0 or 1): counted as failed"
		return "$WB_EXIT_FAIL"
		;;
	esac
	# The detectors' results (D records, vm/guest/detectors.sh) follow
	# the checker's, their frames decoded; one that failed fails the lab.
	# There is one per detector of vm/detectors.tab, or the run fails:
	# a program of the lab's that ended the pass early earns nothing by
	# it. With WB_DETECTORS=0 the guest read none.
	[ "${WB_DETECTORS:-1}" != 0 ] || return "$cstatus"
	sed -n 's/^D //p' "$v" | wb_decode "$rundir" >"$rundir/detectors"
	short=$(wb_detectors_whole "$rundir/detectors")
	grep -qx detectors-end "$v" || short="no end"
	if [ -n "$short" ]; then
		echo "detectors: $short" >"$rundir/ktap.broken"
		wb_say "error: the kernel's detectors did not all report ($short): counted as failed"
		return "$WB_EXIT_FAIL"
	fi
	points=$(wb_manifest "$(cat "$rundir/lab")" DETECTOR_POINTS)
	wb_ktap_append "$rundir/ktap" "$rundir/detectors" "${points:-1}" >"$rundir/ktap.all"
	mv "$rundir/ktap.all" "$rundir/ktap"
	short=$(wb_ktap check "$rundir/ktap")
	if [ -n "$short" ]; then
		echo "$short" >"$rundir/ktap.broken"
		wb_say "error: the detectors' report is not whole ($short): counted as failed"
		return "$WB_EXIT_FAIL"
	fi
	if grep -q '^not ok' "$rundir/detectors"; then
		wb_say "error: the kernel's detectors reported a bug (their results follow the checker's)"
		return "$WB_EXIT_FAIL"
	fi
	return "$cstatus"
}
