# Architecture: the x86 xstate permission API that came with AMX
# (arch_prctl ARCH_GET_XCOMP_SUPP, ARCH_GET_XCOMP_PERM and
# ARCH_REQ_XCOMP_PERM). The exercise writes the three options of
# fpu_xstate_prctl() and the argument checks of xstate_request_perm();
# the workbook's selftest tools/testing/selftests/x86/xstate_perm.c,
# run as the tree has it, grades them. xfeatures prints the XSAVE layout
# that user space sees, for comparison with the boot log.
CHAPTER := 01
TITLE := x86 xstate permissions: arch_prctl and the AMX tile data, on a CPU without AMX
TIMEOUT := 120
# check.sh weighs the selftest's results, where the kernel exercise is
# graded, above xfeatures' (ktap_points).
FILES := arch/x86/kernel/fpu/xstate.c:tree xfeatures.c:prog tools/testing/selftests/x86/xstate_perm.c:ktool
