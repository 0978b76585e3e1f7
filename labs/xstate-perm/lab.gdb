# xstate permissions under gdb: stop in fpu_xstate_prctl() twice, at the
# first call of each of two options that run.sh's xfeatures makes.
#
# 1. Step 2's "xfeatures" asks for ARCH_GET_XCOMP_SUPP (0x1021, 4129)
#    first. fpu_user_cfg is what the kernel decided at boot for user
#    space: the largest and the default XSAVE sizes and feature masks.
#    max_features and default_features differ only by the dynamic
#    feature, XTILE_DATA (bit 18), and only on a CPU with AMX. The
#    permission lives in the thread group leader's struct fpu; xfeatures
#    has one thread, so it is its own leader. finish shows the value the
#    option returns: 0, put_user() wrote the mask.
# 2. Step 3's "xfeatures request 18", ARCH_REQ_XCOMP_PERM (0x1023, 4131)
#    for XTILE_DATA. Without AMX in fpu_user_cfg.max_features, the request
#    fails with -EOPNOTSUPP (-95) and the leader's permission keeps bit
#    18 clear; with AMX it returns 0 and sets it.
#
# Nothing else in the guest calls the xstate options of arch_prctl(),
# and the breakpoint's Python stop() checks the option and the program
# (the task's comm, read through the tree's $lx_current()), so that no
# other call, such as the selftest's, can stop here first. (gdb cannot
# evaluate $lx_current() in a breakpoint's "if" condition; Python can.)
# Each breakpoint is deleted before finish: under TCG with two vCPUs,
# QEMU's gdb stub may report a breakpoint again for the same call, which
# would cut finish short. The leader's permission is read through Python
# too: "print $lx_current().group_leader->thread.fpu.perm" gives the same
# value, but gdb's expression parser spent 13 to 20 s on its first use in
# the lab's runs, where Python's field access takes no time at all.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

python
class XcompCall(gdb.Breakpoint):
	"""fpu_xstate_prctl() for one option, called by xfeatures."""

	def __init__(self, option):
		super().__init__("fpu_xstate_prctl")
		self.option = option

	def stop(self):
		if int(gdb.parse_and_eval("option")) != self.option:
			return False
		task = gdb.parse_and_eval("$lx_current()")
		return task["comm"].string() == "xfeatures"


def leader_perm():
	"""The permission of the calling task's thread group."""
	task = gdb.parse_and_eval("$lx_current()")
	return task["group_leader"].dereference()["thread"]["fpu"]["perm"]


def show_perm():
	perm = leader_perm()
	print("leader's perm: %s" % perm)
	print("leader's perm, XTILE_DATA: %#x" % (int(perm["__state_perm"]) & 0x40000))
end
python stop = XcompCall(0x1021)
wb-continue
print option
print fpu_user_cfg
print/x fpu_user_cfg.max_features
print/x fpu_user_cfg.max_features ^ fpu_user_cfg.default_features
python task = gdb.parse_and_eval("$lx_current()")
python print("its own leader: %s" % (int(task["group_leader"]) == int(task.address)))
python show_perm()
backtrace 3
python stop.delete()
finish
python stop = XcompCall(0x1023)
wb-continue
print arg2
print/x fpu_user_cfg.max_features & 0x40000
python stop.delete()
finish
python show_perm()
# expect: Breakpoint 1, fpu_xstate_prctl \(option=(option@entry=)?4129,
# expect: ^\$1 = 4129$
# expect: ^\$2 = \{max_size = [0-9]+, default_size = [0-9]+, max_features = [0-9]+, default_features = [0-9]+, legacy_features = 3, independent_features = 0\}$
# expect: ^\$3 = 0x[0-9a-f]*[13579bdf]$
# expect: ^\$4 = 0x(0|40000)$
# expect: ^its own leader: True$
# expect: ^leader's perm: \{__state_perm = [0-9]+, __state_size = [0-9]+, __user_state_size = [0-9]+\}$
# expect: ^leader's perm, XTILE_DATA: 0x0$
# expect: ^#1 .* in do_arch_prctl_common \(
# expect: ^#2 .* in __do_sys_arch_prctl \(
# expect: ^Value returned is \$5 = 0$
# expect: Breakpoint 2, fpu_xstate_prctl \(option=(option@entry=)?4131, arg2=(arg2@entry=)?18\)
# expect: ^\$6 = 18$
# expect: ^\$7 = 0x(0|40000)$
# expect: ^Value returned is \$8 = (-95|0)$
# expect: ^leader's perm, XTILE_DATA: 0x(0|40000)$
