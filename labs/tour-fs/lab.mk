# Filesystems and block I/O tour: the chapter's items without a lab,
# in one boot: a CD drive on virtio-scsi (the timed media-change ioctl)
# and EROFS on two loop devices.
CHAPTER := 03
TITLE := Tour: CD media-change times, EROFS on several devices
TIMEOUT := 120
KIND := tour
DEVICES := cdrom
FILES := cdwatch.c:prog
