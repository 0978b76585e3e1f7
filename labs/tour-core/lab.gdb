# The core kernel tour under gdb: one futex_waitv() call as the kernel
# sees it, then the new printing helper as BPF calls it.
#
# futex_wait_multiple() (kernel/futex/waitwake.c) is where every
# futex_waitv() call sleeps, and nothing else in the guest calls it. The
# first call with four futexes is run.sh's "waitv wake 4 2": the array
# futex_parse_waitv() copied in (the per-futex flags are still the
# user's, FUTEX_32 | FUTEX_PRIVATE_FLAG = 0x82; every expected value is
# 0), and an hrtimer for the absolute deadline. The return value comes
# after the sleep, and the woken task may go on on another vCPU, which
# gdb sees as another thread; "finish" would wait for the thread it
# started on only. So a temporary breakpoint goes to the return address
# (on the stack at the function's first instruction), for any vCPU, and
# %eax there is what futex_wait_multiple() returned: the index of the
# futex that woke it, 2.
#
# bpf_trace_vprintk() (kernel/trace/bpf_trace.c) is reached from the
# BPF program of step 3, at its first bpf_printk() with more than three
# values. BPF_CALL_4() makes every argument a u64: fmt is the format in
# the program's read-only data, args an array of data_len / 8 values
# (comm, pid, count, flags, then the four expected values of
# "waitv stale 4 2"). It returns the length of the formatted line.
#
# The test suite runs this file in batch mode against the VM while the
# tour's steps run, and checks its output against each "expect:" line.
break futex_wait_multiple if count == 4
wb-continue
print count
print vs[0].w.flags
print vs[2].w.val
print to != 0
set $wb_ret = *(unsigned long *)$sp
delete
tbreak *$wb_ret
wb-continue
print (int)$rax
break bpf_trace_vprintk
wb-continue
print (char *)fmt
print data_len / 8
print ((unsigned long long *)args)[2]
print/x ((unsigned long long *)args)[3]
print ((unsigned long long *)args)[6]
finish
delete
# expect: Breakpoint 1, futex_wait_multiple \(.*count=(count@entry=)?4
# expect: ^\$1 = 4$
# expect: ^\$2 = 130$
# expect: ^\$3 = 0$
# expect: ^\$4 = 1$
# expect: Temporary breakpoint 2, 0x[0-9a-f]+ in __do_sys_futex_waitv
# expect: ^\$5 = 2$
# expect: Breakpoint 3, bpf_trace_vprintk
# expect: ^\$6 = 0x[0-9a-f]+ "waitv, more than 3: %s pid %d, %u futexes
# expect: ^\$7 = 8$
# expect: ^\$8 = 4$
# expect: ^\$9 = 0x82$
# expect: ^\$10 = 1$
# expect: ^Value returned is \$11 = [1-9][0-9]+$
