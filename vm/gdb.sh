#!/bin/sh
# make gdb LAB=x: attach gdb to the newest running VM of that lab, with
# vmlinux, the tree's gdb helpers (lx-symbols, lx-dmesg, lx-ps...) and the
# symbols of the lab's modules.
#
#   vm/gdb.sh LAB [gdb arguments...]
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"

lab=${1:-}
[ -n "$lab" ] || lab=$(wb_lab_names | head -n 1)
wb_lab_require "$lab"
shift $(($# > 0 ? 1 : 0))
wb_need_cmds gdb:gdb

[ -f "$WB_KBUILD/vmlinux" ] || wb_die "no vmlinux in $WB_KBUILD yet: run make kernel first"
live=
for d in "$WB_CACHE"/run/"$lab".* "$WB_CACHE"/run/check-"$lab"-*; do
	pid=$(cat "$d/qemu.pid" 2>/dev/null || :)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ -S "$d/gdb.sock" ]; then
		live="$live $d/qemu.pid"
	fi
done
sock=
if [ -n "$live" ]; then
	# The newest running VM of the lab.
	# shellcheck disable=SC2086,SC2012
	rundir=$(dirname "$(ls -t $live | head -n 1)")
	sock=$rundir/gdb.sock
fi
[ -n "$sock" ] || wb_die "no VM of lab $lab is running; start one in another terminal with: make lab LAB=$lab"

wb_say "attaching to $sock (VM of $rundir)"
symbols=$(cat "$rundir/build" 2>/dev/null || echo "$WB_CACHE/labs/$lab")
IFS='
'
# shellcheck disable=SC2046
set -- $(wb_gdb_args "$sock") -ex "lx-symbols $symbols" "$@"
unset IFS
exec gdb "$@"
