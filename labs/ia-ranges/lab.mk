# Filesystems and block I/O: independent access ranges of a multi-actuator
# disk, emulated by scsi_debug answering VPD page B9h.
CHAPTER := 03
TITLE := Independent access ranges from an emulated multi-actuator disk
TIMEOUT := 300
FILES := drivers/scsi/scsi_debug.c:tree iaranges.c:prog
