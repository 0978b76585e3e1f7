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

rundir=$(wb_live_rundir "$lab")
wb_say "attaching to $rundir/gdb.sock (VM of $rundir)"
IFS='
'
# shellcheck disable=SC2046
set -- $(wb_gdb_args "$rundir") -ex wb-symbols "$@"
unset IFS
exec gdb "$@"
