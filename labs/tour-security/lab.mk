# Security tour: the chapter's items without a lab.
CHAPTER := 06
TITLE := Tour: openat2() and io_uring audit records, IMA group rules, seccomp and SSB
TIMEOUT := 120
KIND := tour
FILES := auditnl.c:prog specstat.c:prog
LDLIBS := -luring
