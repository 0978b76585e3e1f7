#!/bin/sh
# make postmortem [LAB=name] [TOOL=drgn|crash] [BATCH=1]: open the last
# dump of a guest that broke (a panic, a hang, the lab's time limit; see
# wb_dump in vm/qemu.sh) with the vmlinux it booted and its modules.
#
#   drgn    (default) its first page (vm/postmortem.py: the log, the
#           crashed task's stack with the lab's locals, the lab's
#           modules), then drgn's interactive prompt
#   crash   crash, with the lab's modules' symbols loaded
#
# BATCH=1 prints the first page (drgn), or crash's log and backtrace,
# and exits: what the tests run. SCRIPT=FILE runs that drgn script (a
# lab's lab.drgn) on the dump instead of the first page and the prompt.
# Without LAB, the newest dump of any lab.
#
# make drgn [LAB=name] [TOOL=...] (vm/postmortem.sh --live LAB): the same
# on a snapshot of the lab's running VM (wb_snapshot), which goes on.
set -eu
. "$(dirname "$0")/lib.sh"

live=0
if [ "${1:-}" = --live ]; then
	live=1
	shift
fi
lab=${1:-}
tool=${TOOL:-drgn}
if [ "$live" = 1 ]; then
	. "$(dirname "$0")/qemu.sh"
	[ -n "$lab" ] || lab=$(wb_lab_names | head -n 1)
	wb_lab_require "$lab"
	rundir=$(wb_live_rundir "$lab")
	wb_say "a snapshot of the VM of $rundir: the guest pauses while it is written"
	dir=$(wb_snapshot "$rundir" "$lab")
else
	if [ -n "$lab" ]; then
		wb_lab_require "$lab"
		where=$WB_DUMPS/$lab
	else
		where=$WB_DUMPS
	fi
	# shellcheck disable=SC2012
	dump=$(ls -dt "$where"/*/vmcore "$where"/*/*/vmcore 2>/dev/null | head -n 1)
	if [ -z "$dump" ]; then
		wb_die "no dump${lab:+ of lab $lab} in $where: a dump is taken when the guest panics, hangs or reaches the lab's time limit (make drgn takes one of a running VM)"
	fi
	dir=$(dirname "$dump")
fi
read -r why took kb <"$dir/dump.info" || :
wb_say "dump: $dir ($(cat "$dir/lab" 2>/dev/null || echo ?), at the ${why:-?}, $((${kb:-0} / 1024)) MiB, taken in ${took:-?} s)"

# The kernel, the lab's modules as built for that run, and the tree's
# modules it had.
IFS='
'
# shellcheck disable=SC2046
set -- $(wb_drgn_files "$dir/vmlinux" "$dir/ko" "$dir/modules")
unset IFS

case $tool in
drgn)
	wb_need_cmds drgn:python3-drgn
	if [ -n "${SCRIPT:-}" ]; then
		[ -f "$SCRIPT" ] || wb_die "SCRIPT=$SCRIPT: no such file (a drgn script, such as labs/$lab/lab.drgn)"
		exec drgn -q -c "$dir/vmcore" "$@" "$SCRIPT"
	fi
	drgn -q -c "$dir/vmcore" "$@" "$WB_ROOT/vm/postmortem.py" "$dir"
	[ "${BATCH:-0}" = 1 ] && exit 0
	exec drgn -q -c "$dir/vmcore" "$@"
	;;
crash)
	wb_need_cmds crash:crash
	cmds=$(mktemp) || exit 1
	trap 'rm -f "$cmds"' EXIT
	for ko in "$dir"/ko/*.ko; do
		[ ! -f "$ko" ] || echo "mod -s $(basename "$ko" .ko) $ko" >>"$cmds"
	done
	if [ "${BATCH:-0}" = 1 ]; then
		printf 'log\nbt\nquit\n' >>"$cmds"
		crash -s -i "$cmds" "$dir/vmlinux" "$dir/vmcore" </dev/null
	else
		crash -i "$cmds" "$dir/vmlinux" "$dir/vmcore"
	fi
	;;
*) wb_die "TOOL is drgn or crash, not '$tool'" ;;
esac
