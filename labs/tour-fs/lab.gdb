# The filesystems and block I/O tour under gdb: the timed media-change
# ioctl as the driver answers it, then EROFS opening its extra device.
#
# cdrom_ioctl_timed_media_change() runs for run.sh's first cdwatch call;
# cdi is the drive, and last_media_change_ms is the time (on the
# monotonic clock, in ms) that the caller will get back.
# erofs_init_device() opens one extra device: its path comes from
# device= when the mount gives one, from the image's device table
# otherwise. run.sh mounts first without device= (no path: the table's
# tag is empty, the mount fails), then with it.
#
# The test suite runs this file in batch mode against the VM while the
# tour's steps run, and checks its output against each "expect:" line.

break cdrom_ioctl_timed_media_change
wb-continue
print cdi->name
print cdi->last_media_change_ms > 0
delete
break erofs_init_device
wb-continue
print dif->path == 0
wb-continue
print dif->path
delete
# expect: Breakpoint 1, .*cdrom_ioctl_timed_media_change
# expect: ^\$1 = "sr0"
# expect: ^\$2 = (true|1)$
# expect: Breakpoint 2, .*erofs_init_device
# expect: ^\$3 = (true|1)$
# expect: ^\$4 = 0x[0-9a-f]+ "/dev/loop[0-9]+"$
