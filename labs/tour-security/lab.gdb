# The security tour under gdb: the open_how that audit keeps for the
# OPENAT2 record, and the decision seccomp no longer makes about
# speculation.
#
# __audit_openat2_how() (kernel/auditsc.c) runs in openat2() only for a
# task whose audit context is live: in this tour, auditnl's child while
# the rule of step 1 is in place. The condition picks the first call
# (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, 0xc); how is the kernel's copy
# of the user's struct open_how, taken before O_LARGEFILE is added, so
# the flags are the child's own: O_CREAT | O_WRONLY, 0101 in octal.
#
# arch_seccomp_spec_mitigate() (arch/x86/kernel/cpu/bugs.c; the empty
# __weak one of kernel/seccomp.c is the fallback of other architectures,
# hence the file name on the breakpoint) is called
# when a task installs a seccomp filter without
# SECCOMP_FILTER_FLAG_SPEC_ALLOW; specstat of step 4 is the only task of
# the guest that does. Before 5.16 it forced the store-bypass and the
# indirect-branch mitigations on for the task, because the default
# modes were SPEC_STORE_BYPASS_SECCOMP and SPECTRE_V2_USER_SECCOMP. In
# 6.1 the defaults are the prctl modes (or none, on a CPU that cannot
# mitigate), so the function does nothing.
#
# The test suite runs this file in batch mode against the VM while the
# tour's steps run, and checks its output against each "expect:" line.

break __audit_openat2_how if how->resolve == 0xc
wb-continue
print/o how->flags
print/o how->mode
print/x how->resolve
print $lx_current().comm
delete
break arch/x86/kernel/cpu/bugs.c:arch_seccomp_spec_mitigate
wb-continue
print task->comm
print ssb_mode
print spectre_v2_user_stibp
print spectre_v2_user_ibpb
delete
# expect: Breakpoint 1, __audit_openat2_how \(how=
# expect: ^\$1 = 0101$
# expect: ^\$2 = 0640$
# expect: ^\$3 = 0xc$
# expect: ^\$4 = "auditnl\\000
# expect: Breakpoint 2, arch_seccomp_spec_mitigate \(task=.*bugs\.c:
# expect: ^\$5 = "specstat\\000
# expect: ^\$6 = SPEC_STORE_BYPASS_NONE$
# expect: ^\$7 = SPECTRE_V2_USER_NONE$
# expect: ^\$8 = SPECTRE_V2_USER_NONE$
