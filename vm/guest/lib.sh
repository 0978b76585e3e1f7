# shellcheck shell=sh
# Guest-side helpers, at /wb/lib.sh inside the workbook VM. Every lab
# script sources it first; sourcing it anywhere else stops the script,
# so that no lab step ever touches the host's kernel.

if ! grep -q 'wb\.vm=kernel-workbook' /proc/cmdline 2>/dev/null; then
	echo "refusing to run: this is not the workbook VM (no wb.vm marker in /proc/cmdline). Use: make lab LAB=<name>" >&2
	exit 1
fi

# The KTAP emitter the checkers print with (ktap_plan, ktap_ok,
# ktap_fail, ktap_eq, ...): vm/ktap.sh, the same file the harness's own
# tests use on the host, put next to this one by vm/initramfs.sh.
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
