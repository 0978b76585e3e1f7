# Filesystems and block I/O tour: the chapter's items without a lab,
# in one boot: a CD drive on virtio-scsi (the timed media-change ioctl)
# and EROFS on two loop devices.
CHAPTER := 03
TITLE := Tour: CD media-change times, EROFS on several devices
# 240 s: the steps and the checker each run a tracer (bpftrace takes
# about 10 s to start under TCG, trace-cmd about 7 s from start to
# reset), and a run beside another guest once took more than 120 s.
TIMEOUT := 240
KIND := tour
DEVICES := cdrom
FILES := cdwatch.c:prog
