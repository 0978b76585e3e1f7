# shellcheck shell=sh
# Guest-side helpers, at /wb/lib.sh inside the workbook VM. Every lab
# script sources it first; sourcing it anywhere else stops the script,
# so that no lab step ever touches the host's kernel.

if ! grep -q 'wb\.vm=kernel-workbook' /proc/cmdline 2>/dev/null; then
	echo "refusing to run: this is not the workbook VM (no wb.vm marker in /proc/cmdline). Use: make lab LAB=<name>" >&2
	exit 1
fi

# The KTAP emitter the checkers print with (ktap_plan, ktap_ok,
# ktap_fail, ktap_eq, ktap_expect...): vm/ktap.sh, the same file the
# harness's own tests use on the host, put next to this one by
# vm/initramfs.sh.
. /wb/ktap.sh

# wb_param NAME: the value of NAME=value on the kernel command line.
wb_param() {
	sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline
}

# Show a command before running it, as the student would type it.
wb_run() {
	echo "# $*"
	"$@"
}

# wb_typed 'CMD': show CMD as a reader would type it, quotes, pipes and
# redirections included, then run it through the shell (wb_run shows its
# arguments without their quotes).
wb_typed() {
	printf '# %s\n' "$1"
	eval "$1"
}

# A tour's negative run (wb.negative=1 on the kernel command line): its
# checker's ktap_expect (vm/ktap.sh) uses each result's wrong
# expectation.
# shellcheck disable=SC2034 # read by vm/ktap.sh
KTAP_NEGATIVE=$(wb_param wb.negative)

# wb_media insert NAME | wb_media eject: change the media of the VM's CD
# drive (a lab with DEVICES := cdrom). NAME is a file of /build/out. The
# harness's media service does it through QEMU's monitor and answers;
# this waits for that answer (at most 10 s) and fails on a refusal.
wb_media() {
	[ -d /build/out ] || { echo "wb_media: no /build/out" >&2; return 1; }
	prev=$(cut -d' ' -f1 /build/out/media.done 2>/dev/null || echo 0)
	echo "$*" >/build/out/media.request.tmp
	mv /build/out/media.request.tmp /build/out/media.request
	i=0
	while [ $i -lt 100 ]; do
		now=$(cut -d' ' -f1 /build/out/media.done 2>/dev/null || echo 0)
		if [ "$now" != "$prev" ]; then
			grep -q ' done: ' /build/out/media.done && return 0
			echo "wb_media: $(cut -d' ' -f2- /build/out/media.done)" >&2
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	echo "wb_media: no answer from the harness (is DEVICES := cdrom in lab.mk?)" >&2
	return 1
}

# wb_drgn_point: the moment of the guided steps that the lab's lab.drgn
# reads. In make check's run of a lab with a lab.drgn (wb.drgn=1 on the
# kernel command line), the harness takes a snapshot of the guest's
# memory here, the guest paused while QEMU writes it, and runs the
# script on it (wb_drgn_service, vm/qemu.sh); this waits for the
# snapshot, at most 120 s. Anywhere else it returns at once: in a shell,
# take the snapshot yourself with make drgn LAB=... on the host.
wb_drgn_point() {
	[ "$(wb_param wb.drgn)" = 1 ] && [ -d /build/out ] || return 0
	: >/build/out/drgn.request
	i=0
	while [ ! -f /build/out/drgn.done ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -f /build/out/drgn.done ] || echo "wb_drgn_point: no snapshot within 120 s" >&2
}
