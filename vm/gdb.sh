#!/bin/sh
# make gdb LAB=x: attach gdb to the newest running VM of that lab, with
# vmlinux, the tree's gdb helpers (lx-symbols, lx-dmesg, lx-ps...) and the
# symbols of the lab's modules. A guest of another architecture (a
# tour's, vm/xkernel.sh) names its gdb (gdb-multiarch) in its run folder.
#
#   vm/gdb.sh LAB [gdb arguments...]
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"

lab=${1:-}
[ -n "$lab" ] || lab=$(wb_lab_names | head -n 1)
wb_lab_require "$lab"
shift $(($# > 0 ? 1 : 0))
rundir=$(wb_live_rundir "$lab")
gdb=$(cat "$rundir/gdb" 2>/dev/null || echo gdb)
wb_need_cmds "$gdb:$gdb"
wb_say "attaching $gdb to $rundir/gdb.sock (VM of $rundir)"
IFS='
'
# shellcheck disable=SC2046
set -- $(wb_gdb_args "$rundir") -ex wb-symbols "$@"
unset IFS
exec "$gdb" "$@"
