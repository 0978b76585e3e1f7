#!/bin/sh
# The filesystems and block I/O tour's checks (KTAP). Self-contained: it
# changes the CD drive's media itself and makes its own EROFS images.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=tour-fs" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

ktap_plan 12

ktap_expect "the drive answers CDROM_TIMED_MEDIA_CHANGE (it can report media changes)" \
	"$(/build/cdwatch timed "$CD" 0 2>&1)" '^last [0-9]+ changed 1$' 'not implemented'
t0=$(last)
disc check-a.img
before=$(/build/cdwatch uptime)
wb_media insert check-a.img
first=$(/build/cdwatch old "$CD" 2>&1)
second=$(/build/cdwatch old "$CD" 2>&1)
ktap_expect "CDROM_MEDIA_CHANGED: the first caller after the change sees it" \
	"$first" '^changed 1$' '^changed 0$'
ktap_expect "CDROM_MEDIA_CHANGED: a second caller has lost it (the first one consumed it)" \
	"$second" '^changed 0$' '^changed 1$'
a=$(/build/cdwatch timed "$CD" "$t0" 2>&1)
b=$(/build/cdwatch timed "$CD" "$t0" 2>&1)
t1=$(last)
ktap_expect "CDROM_TIMED_MEDIA_CHANGE: a caller that last looked at $t0 ms sees the change" \
	"$a" "^last $t1 changed 1\$" '^last [0-9]+ changed 0$'
ktap_expect "CDROM_TIMED_MEDIA_CHANGE: a second such caller sees it too: nothing was consumed" \
	"$b" "^last $t1 changed 1\$" '^last [0-9]+ changed 0$'
ktap_expect "CDROM_TIMED_MEDIA_CHANGE: asked with the change's own time, nothing changed since" \
	"$(/build/cdwatch timed "$CD" "$t1" 2>&1)" '^last [0-9]+ changed 0$' 'changed 1$'
ktap_expect "the change is stamped on the monotonic clock, within 2 s after the disc went in" \
	"$((t1 - before))" '^1?[0-9]{1,3}$' '^-[0-9]+$'
# The functions of the graph, in the order they were entered, each
# repeat of one in a row counted once.
called=$(cd_graph 0 | grep -v '^#' | grep -oE '[A-Za-z0-9_]+\(\)' | tr -d '()' | uniq | tr '\n' ' ')
ktap_expect "ftrace's graph: the timed ioctl (inlined in cdrom_ioctl) asks the driver through cdrom_ioctl_media_changed(), then copies in and out" \
	"$called" '^cdrom_ioctl cdrom_ioctl_media_changed sr_check_events __might_fault $' 'cdrom_ioctl_timed_media_change'

erofs_images
ktap_expect "mkfs.erofs --blobdev: the metadata image is one block, the 256 KiB of data are on the blob" \
	"meta=$(stat -c %s "$W/meta.img") blob=$(stat -c %s "$W/blob.img")" \
	'^meta=4096 blob=26[0-9]{4}$' '^meta=26[0-9]{4}'
meta=$(losetup -f --show "$W/meta.img")
blob=$(losetup -f --show "$W/blob.img")
mount -t erofs "$meta" "$W/mnt" 2>/dev/null && { umount "$W/mnt"; echo mounted; }
ktap_expect "without device=, the mount fails: the image's device table has no path for the blob" \
	"$(dmesg | grep erofs | tail -n 1)" 'empty device tag' 'mounted|given 1\)'
mount -t erofs -o device="$blob" -o device="$blob" "$meta" "$W/mnt" 2>/dev/null && umount "$W/mnt"
ktap_expect "two device= options for a table of one device are refused" \
	"$(dmesg | grep erofs | tail -n 1)" 'ondisk 1, given 2' 'given 1\)'
same=differ
if mount -t erofs -o device="$blob" "$meta" "$W/mnt" 2>/dev/null; then
	cmp -s "$W/src/big" "$W/mnt/big" && same=same
	umount "$W/mnt"
fi
ktap_expect "with device=$blob it mounts, and the file reads back byte for byte" \
	"$same" '^same$' '^differ$'
losetup -d "$meta" "$blob"
ktap_done
