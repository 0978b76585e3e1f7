#!/bin/sh
# Independent access ranges, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=ia-ranges" >&2; exit 1; }
. /wb/lib.sh
. /lab/disk.sh
export DISK_SHOW=1

Q=queue/independent_access_ranges

echo "== 1. A dual-actuator disk: scsi_debug with two ranges, 8 MiB of 512-byte blocks"
disk_load cpr_ranges=2
echo "the disk is $DISK"
wb_run cat "/sys/block/$DISK/size"
echo "# VPD pages the disk supports: $(disk_vpd_pages)"
wb_run ls "/sys/block/$DISK/$Q"
wb_run dmesg | grep -E "\[$DISK\] (Attached|[0-9]+ concurrent)"

echo "== 2. The ranges, in 512-byte sectors; a rescan reads page B9h again"
wb_run find "/sys/block/$DISK/$Q" -type f | sort
disk_rescan
wb_run grep -r . "/sys/block/$DISK/$Q" | sed "s#/sys/block/$DISK/$Q/##" | sort

echo "== 3. Check the rules with the lab's program"
wb_run /build/iaranges "$DISK"

echo "== 4. Four ranges on a disk with 4096-byte blocks: sysfs still counts 512-byte sectors"
disk_load cpr_ranges=4 sector_size=4096
wb_run cat "/sys/block/$DISK/queue/logical_block_size"
wb_run /build/iaranges "$DISK"
# make check's drgn script (lab.drgn) reads the kernel here.
wb_drgn_point

echo "== 5. One range is the whole disk: sd does not publish it"
disk_load cpr_ranges=1
wb_run ls "/sys/block/$DISK/$Q" || :
wb_run /build/iaranges "$DISK" || :

echo "== 6. Reading from two ranges at once"
disk_load cpr_ranges=2 dev_size_mb=64
wb_run /build/iaranges -l 2 "$DISK"

echo "== 7. Parameters that cannot describe a disk are refused at load"
disk_unload
# (The kernel's reason shows on the console; dmesg keeps it too.)
for p in cpr_ranges=0 cpr_ranges=3 cpr_ranges=17; do
	wb_run modprobe scsi_debug "$p" || :
done

echo "== 8. Overlapping ranges: the block layer rejects the page"
disk_load cpr_ranges=2 cpr_overlap=1
wb_run dmesg | grep -i 'independent access ranges' | tail -n 1
wb_run ls "/sys/block/$DISK/$Q" || :

echo "== 9. Valid ranges, then an invalid page at the next revalidation"
disk_load cpr_ranges=2
wb_run ls "/sys/block/$DISK/$Q"
echo "# echo 1 > /sys/module/scsi_debug/parameters/cpr_overlap"
echo 1 >/sys/module/scsi_debug/parameters/cpr_overlap
disk_rescan
wb_run ls "/sys/block/$DISK/$Q" || :
disk_unload
