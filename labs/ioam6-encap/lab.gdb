# IOAM under gdb: which mode does ioam6_output() take, where does the
# packet go, and on which side is the trace record written?
#
# ioam6_output() is the lwtunnel's output method. At its entry the state
# is not in a local variable yet, so $ilwt is computed from the packet
# the way the function does it: skb_dst(skb)->lwtstate->data. One
# conditional breakpoint per mode, in the order run.sh uses them:
# inline (1) on alpha, encap (2) on alpha with tundst db01::1, auto (3)
# on beta, first for its own packet (no skb->dev), then for a forwarded
# one (skb->dev is the device it came in on).
#
# __ioam6_fill_trace_data() is inlined into ioam6_fill_trace_data();
# gdb still stops at the inlined copy and shows its is_input argument:
# false on alpha (the sender, from ioam6_do_fill()), true on beta (the
# receiver, from ipv6_hop_ioam()).
#
# IPv6 is a module (ipv6.ko, loaded by the guest's init), and so is
# ip6_tunnel: their symbols and types come with lx-symbols, at a first
# stop in vmlinux that only this lab reaches, lwtunnel_build_state() for
# the first ioam6 route of run.sh. lx-symbols adds a breakpoint of its
# own (on do_init_module), which takes a number too: the expectations
# below check what is printed, not the breakpoints' numbers.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

define ip6
	set $a = (unsigned char *)&($arg0)
	printf "%x:%x:%x:%x:%x:%x:%x:%x\n", $a[0] << 8 | $a[1], $a[2] << 8 | $a[3], $a[4] << 8 | $a[5], $a[6] << 8 | $a[7], $a[8] << 8 | $a[9], $a[10] << 8 | $a[11], $a[12] << 8 | $a[13], $a[14] << 8 | $a[15]
end

define ilwt
	set $ilwt = (struct ioam6_lwt *)((struct dst_entry *)(skb->_skb_refdst & ~1UL))->lwtstate->data
end

break lwtunnel_build_state if encap_type == LWTUNNEL_ENCAP_IOAM6
wb-continue
python import os; gdb.execute("lx-symbols " + os.path.dirname(gdb.current_progspace().filename))
delete
break ioam6_output if ((struct ioam6_lwt *)((struct dst_entry *)(skb->_skb_refdst & ~1UL))->lwtstate->data)->mode == 1
break __ioam6_fill_trace_data
wb-continue
ilwt
print $ilwt->mode
ip6 $ilwt->tundst
wb-continue
print is_input
print ((struct dst_entry *)(skb->_skb_refdst & ~1UL))->dev->nd_net.net->ipv6.sysctl.ioam6_id
wb-continue
print is_input
print skb->dev->nd_net.net->ipv6.sysctl.ioam6_id
print skb->dev->name
delete
break ioam6_output if ((struct ioam6_lwt *)((struct dst_entry *)(skb->_skb_refdst & ~1UL))->lwtstate->data)->mode == 2
wb-continue
ilwt
print $ilwt->mode
ip6 $ilwt->tundst
delete
break ioam6_output if ((struct ioam6_lwt *)((struct dst_entry *)(skb->_skb_refdst & ~1UL))->lwtstate->data)->mode == 3
wb-continue
ilwt
print $ilwt->mode
ip6 $ilwt->tundst
print skb->dev
wb-continue
print $ilwt->mode
print skb->dev->name
delete
# expect: Breakpoint [0-9]+, lwtunnel_build_state
# expect: Breakpoint [0-9]+, ioam6_output
# expect: ^\$1 = 1 '\\001'$
# expect: ^0:0:0:0:0:0:0:0$
# expect: Breakpoint [0-9]+, .*__ioam6_fill_trace_data
# expect: ^\$2 = false$
# expect: ^\$3 = 1$
# expect: ^\$4 = true$
# expect: ^\$5 = 2$
# expect: ^\$6 = "veth0
# expect: Breakpoint [0-9]+, ioam6_output
# expect: ^\$7 = 2 '\\002'$
# expect: ^db01:0:0:0:0:0:0:1$
# expect: Breakpoint [0-9]+, ioam6_output
# expect: ^\$8 = 3 '\\003'$
# expect: ^db02:0:0:0:0:0:0:2$
# expect: ^\$9 = \(struct net_device \*\) 0x0( |$)
# expect: ^\$10 = 3 '\\003'$
# expect: ^\$11 = "veth0
