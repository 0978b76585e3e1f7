# bpf-license under gdb: stop in the verifier where a helper call is
# checked, for with_printk's call of bpf_trace_printk (helper 6), and
# show the flag that bpf_prog_load() set from the license string.
#
# check_helper_call() (kernel/bpf/verifier.c) is a function of its own
# in the lab's vmlinux, called by do_check() for each BPF_CALL to a
# helper; insn->imm is the helper's number. run.sh's first licload loads
# with_printk three times: libbpf's own load (the object's license,
# "GPL"), then licload's loads as "GPL" and as "Proprietary". At the
# third stop, finish shows check_helper_call() returning -EINVAL.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.
break check_helper_call if insn->imm == 6
wb-continue
print env->prog->aux->name
print env->prog->gpl_compatible
wb-continue
print env->prog->gpl_compatible
wb-continue
print env->prog->aux->name
print env->prog->gpl_compatible
print bpf_trace_printk_proto.gpl_only
finish
delete
# expect: Breakpoint 1, check_helper_call
# expect: ^\$1 = "with_printk
# expect: ^\$2 = 1$
# expect: ^\$3 = 1$
# expect: ^\$4 = "with_printk
# expect: ^\$5 = 0$
# expect: ^\$6 = true$
# expect: Value returned is \$7 = -22$
