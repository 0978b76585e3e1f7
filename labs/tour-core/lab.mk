# Core kernel tour: the chapter's items without a lab, shown in one boot.
CHAPTER := 02
TITLE := Tour: futex_waitv(), tracefs owners, unprivileged BPF, bpf_trace_vprintk()
# 240 s: the steps and the checker each run a tracer (bpftrace takes
# about 10 s to start under TCG, trace-cmd about 7 s from start to
# reset), and a run beside another guest once took more than 120 s.
TIMEOUT := 240
KIND := tour
FILES := waitv.c:prog bpfcall.c:prog vprint.c:prog vprint.bpf.c:bpf tools/testing/selftests/futex/functional/futex_waitv.c:ktool
KTOOL_INCLUDES := tools/testing/selftests/futex/include tools/testing/selftests
# The futex selftest's own Makefile compiles with -D_GNU_SOURCE: it
# calls basename() from <string.h>, and without the define that call has
# no prototype, its pointer is cut to an int and the test crashes at its
# first message.
KTOOL_CFLAGS := -D_GNU_SOURCE
LDLIBS := -lbpf -lelf -lz -lpthread
