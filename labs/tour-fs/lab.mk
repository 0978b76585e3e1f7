# Filesystems and block I/O tour: the chapter's items without a lab.
CHAPTER := 03
TITLE := Tour: CD media-change times, EROFS on several devices
TIMEOUT := 120
KIND := tour
