# Security tour: the chapter's items without a lab.
CHAPTER := 06
TITLE := Tour: openat2() and io_uring audit records, IMA group rules, seccomp and SSB
# 240 s: the steps and the checker each run a tracer (bpftrace takes
# about 10 s to start under TCG, trace-cmd about 7 s from start to
# reset), and a run beside another guest once took more than 120 s.
TIMEOUT := 240
KIND := tour
FILES := auditnl.c:prog specstat.c:prog
LDLIBS := -luring
