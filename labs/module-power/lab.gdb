# Module power mode under gdb: follow the first ETHTOOL_MSG_MODULE_SET
# of run.sh (policy high to auto on the CMIS module) from the netlink
# handler into netdevsim, then the second one, which asks for the same
# policy again and must end before the driver and the notification.
#
# ethnl_set_module() is the genetlink doit of the request. When it runs,
# the attributes were parsed and checked against ethnl_module_set_policy
# already; the policy attribute (type 2) carries its u8 after a 4-byte
# header. module_set_power_mode() is inlined into ethnl_set_module().
#
# netdevsim is a module: its symbols are loaded by lx-symbols (from the
# tree's gdb scripts) once it is loaded, at the first stop, from the
# kernel's build folder, where vmlinux is. netdev_priv()
# is inline too: the private area follows struct net_device, aligned to
# 32 bytes (NETDEV_ALIGN). ETHTOOL_MSG_MODULE_NTF is 36.
#
# The hit counts at the end come from wb-hits (vm/workbook.gdb): gdb's
# own count would also count a stop that the gdb stub reported twice.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

define policy_attr
	print (enum ethtool_module_power_mode_policy)*(unsigned char *)((char *)info->attrs[2] + 4)
end

break ethnl_set_module
wb-continue
policy_attr
python import os; gdb.execute("lx-symbols " + os.path.dirname(gdb.current_progspace().filename))
break nsim_set_module_power_mode
break ethtool_notify if cmd == 36
wb-continue
set $ns = (struct netdevsim *)((char *)dev + ((sizeof(struct net_device) + 31) & ~31))
set $m = &$ns->nsim_dev->module
print $m->type
print $m->policy
print params->policy
print/x $m->eeprom[3]
wb-finish
print $m->policy
print/x $m->eeprom[3]
print/x $m->eeprom[26]
wb-continue
print cmd
backtrace 2
wb-continue
policy_attr
print $m->policy
wb-finish
wb-hits ethnl_set_module nsim_set_module_power_mode ethtool_notify
delete
# expect: Breakpoint 1, ethnl_set_module
# expect: ^\$1 = ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO$
# expect: Breakpoint 2, nsim_set_module_power_mode
# expect: ^\$2 = NSIM_MODULE_CMIS$
# expect: ^\$3 = ETHTOOL_MODULE_POWER_MODE_POLICY_HIGH$
# expect: ^\$4 = ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO$
# expect: ^\$5 = 0x6$
# expect: in module_set_power_mode \(
# expect: ^Value returned is \$6 = 0$
# expect: ^\$7 = ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO$
# expect: ^\$8 = 0x2$
# expect: ^\$9 = 0x10$
# expect: Breakpoint 3, ethtool_notify
# expect: ^\$10 = 36$
# expect: ^#1 .* ethnl_set_module
# expect: ^\$11 = ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO$
# expect: ^\$12 = ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO$
# expect: ^genl_family_rcv_msg_doit \(
# expect: ^Value returned is \$13 = 0$
# expect: ^hits: ethnl_set_module 2, nsim_set_module_power_mode 1, ethtool_notify 1$
