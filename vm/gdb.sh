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

# Every run folder under $WB_CACHE/run says which lab it boots
# (RUNDIR/lab, written by vm/lab.sh).
live=
for d in "$WB_CACHE"/run/*; do
	[ "$(cat "$d/lab" 2>/dev/null)" = "$lab" ] || continue
	pid=$(cat "$d/qemu.pid" 2>/dev/null || :)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ -S "$d/gdb.sock" ]; then
		live="$live $d/qemu.pid"
	fi
done
[ -n "$live" ] || wb_die "no VM of lab $lab is running; start one in another terminal with: make lab LAB=$lab"

# The newest running VM of the lab.
# shellcheck disable=SC2086,SC2012
rundir=$(dirname "$(ls -t $live | head -n 1)")
wb_say "attaching to $rundir/gdb.sock (VM of $rundir)"
symbols=$(cat "$rundir/build" 2>/dev/null || echo "$WB_LABWORK/$lab")
IFS='
'
# shellcheck disable=SC2046
set -- $(wb_gdb_args "$rundir") -ex "lx-symbols $symbols $rundir/modules" "$@"
unset IFS
exec gdb "$@"
