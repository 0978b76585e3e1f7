#!/bin/sh
# The filesystems and block I/O tour, in the workbook VM: a CD drive's
# media changes seen the old way and the timed way, then an EROFS file
# system on two devices.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-fs" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

echo "== 1. A CD drive with an empty tray"
wb_run grep -E '^(drive name|Can change speed|Can read MCN|Can play audio):' /proc/sys/dev/cdrom/info
echo "# asked with 0, the timed ioctl returns the drive's last change (its registration)"
wb_run /build/cdwatch timed "$CD" 0
t0=$(last)

echo "== 2. A disc goes in (the harness types 'change cd0 /build/out/disc-a.img raw' into QEMU's monitor)"
disc disc-a.img
wb_run wb_media insert disc-a.img
echo "# two programs that use the old ioctl, one after the other:"
wb_run /build/cdwatch old "$CD"
wb_run /build/cdwatch old "$CD"
echo "# two programs that use the timed ioctl, both last saw the drive at $t0:"
wb_run /build/cdwatch timed "$CD" "$t0"
wb_run /build/cdwatch timed "$CD" "$t0"
t1=$(last)
echo "# the change was stamped at $t1 ms; asking with that time:"
wb_run /build/cdwatch timed "$CD" "$t1"

echo "== 3. Another disc"
disc disc-b.img
wb_run wb_media insert disc-b.img
wb_run /build/cdwatch timed "$CD" "$t1"
wb_run /build/cdwatch uptime

echo "== 4. EROFS: metadata on one device, file data on another"
erofs_images
wb_run sed -n 1p "$W/mkfs.log"
wb_run ls -l "$W/meta.img" "$W/blob.img" "$W/src"
wb_run dump.erofs --device="$W/blob.img" -s "$W/meta.img"
meta=$(losetup -f --show "$W/meta.img")
blob=$(losetup -f --show "$W/blob.img")
echo "# $W/meta.img is $meta, $W/blob.img is $blob"
echo "# without device=, the kernel looks for the extra device in the image's device table:"
wb_run mount -t erofs "$meta" "$W/mnt"
echo "# the kernel's reason, in its log:"
wb_run sh -c 'dmesg | grep erofs: | tail -n 1'
wb_run mount -t erofs -o device="$blob" "$meta" "$W/mnt"
wb_run grep erofs /proc/mounts
wb_run cmp "$W/src/big" "$W/mnt/big"
wb_run cat "$W/mnt/small"
wb_run umount "$W/mnt"
losetup -d "$meta" "$blob"

echo "== 5. The timed ioctl in the kernel: ftrace's function graph, through trace-cmd"
cd_graph 0
