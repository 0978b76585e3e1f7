#!/bin/sh
# folio-walk, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=folio-walk" >&2; exit 1; }
. /wb/lib.sh

. /lab/walk.sh

# orders: how many folios of each order a walk listed.
orders() {
	awk '{ n[$2]++ } END { for (o in n) printf "%d folios of order %d\n", n[o], o }'
}

echo "== 1. Load the module"
lsmod | grep -q '^folio_walk ' || wb_run insmod /build/folio_walk.ko
wb_run ls "$D"

echo "== 2. A 4 MiB file on tmpfs with huge=always"
# A second run starts from fresh file systems.
umount /mnt/always /mnt/never /mnt/ramfs 2>/dev/null || :
mkdir -p /mnt/always /mnt/never /mnt/ramfs
wb_run mount -t tmpfs -o huge=always,size=16m fw-always /mnt/always
wb_run grep ShmemHugePages /proc/meminfo
wb_run dd if=/dev/zero of=/mnt/always/f bs=1M count=4 status=none
wb_run grep ShmemHugePages /proc/meminfo
wb_run walk /mnt/always/f || :

echo "== 3. The same file on tmpfs with huge=never, then on ramfs"
wb_run mount -t tmpfs -o huge=never,size=16m fw-never /mnt/never
wb_run dd if=/dev/zero of=/mnt/never/f bs=1M count=4 status=none
echo "# walk /mnt/never/f >/tmp/never"
walk /mnt/never/f >/tmp/never || :
wb_run head -n 3 /tmp/never
orders </tmp/never
wb_run mount -t ramfs fw-ramfs /mnt/ramfs
wb_run dd if=/dev/zero of=/mnt/ramfs/f bs=1M count=4 status=none
echo "# walk /mnt/ramfs/f >/tmp/ramfs"
walk /mnt/ramfs/f >/tmp/ramfs || :
wb_run tail -n 2 /tmp/ramfs
orders </tmp/ramfs

echo "== 4. A sparse file on tmpfs: only the pages written are cached"
wb_run truncate -s 4M /mnt/never/sparse
wb_run dd if=/dev/urandom of=/mnt/never/sparse bs=4k seek=3 count=1 conv=notrunc status=none
wb_run dd if=/dev/urandom of=/mnt/never/sparse bs=4k seek=700 count=1 conv=notrunc status=none
echo "# cat /mnt/never/sparse >/dev/null"
cat /mnt/never/sparse >/dev/null
wb_run walk /mnt/never/sparse || :

echo "== 5. Read part of a sparse file on ramfs, then dirty one page of it"
wb_run truncate -s 4M /mnt/ramfs/sparse
wb_run dd if=/mnt/ramfs/sparse of=/dev/null bs=4k skip=256 count=2 status=none
wb_run walk /mnt/ramfs/sparse || :
wb_run dd if=/dev/urandom of=/mnt/ramfs/sparse bs=4k seek=257 count=1 conv=notrunc status=none
wb_run walk /mnt/ramfs/sparse || :

echo "== 6. Two walks in a row: the refs column must not move"
echo "# echo 1 >/proc/sys/vm/compact_memory"
echo 1 >/proc/sys/vm/compact_memory
echo "# walk /mnt/ramfs/f >/tmp/walk1; walk /mnt/ramfs/f >/tmp/walk2"
walk /mnt/ramfs/f >/tmp/walk1 || :
walk /mnt/ramfs/f >/tmp/walk2 || :
wb_run tail -n 2 /tmp/walk1
wb_run tail -n 2 /tmp/walk2
wb_run cmp /tmp/walk1 /tmp/walk2 && echo "same refs on both walks"

echo "== 7. Paths the walk refuses"
wb_run choose /mnt/never/nothing-here || :
wb_run choose /mnt/never || :
echo "# choose /mnt/never/00000...0 (a name of 300 zeros)"
choose "/mnt/never/$(printf '%0300d' 0)" || :
echo "# choose /00000...0 (one slash and 5000 zeros)"
choose "/$(printf '%05000d' 0)" || :

echo "== 8. What cc_platform_has() answers, and where it lives"
wb_run cat "$D/cc_attrs"
wb_run grep -w cc_platform_has /proc/kallsyms

wb_run umount /mnt/always /mnt/never /mnt/ramfs
