# Netfilter on egress under gdb, while run.sh creates its first egress
# chain (step 2, on veth0 of namespace a) and pings through it.
#
# 1. nf_register_net_hook() is reached for that chain: its ops say
#    family 5 (NFPROTO_NETDEV), hook NF_NETDEV_EGRESS, device veth0.
# 2. A hardware watchpoint on the egress static key,
#    nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_EGRESS], catches it going
#    from 0 to -1 (being switched on: the jump sites are being patched)
#    and then to 1, in static_key_slow_inc_cpuslocked().
# 3. nf_hook_slow() is the out-of-line part of the hook: nf_hook_egress()
#    is inlined into __dev_queue_xmit(), but gdb still shows it as a
#    frame. The condition keeps only netdev egress calls; the state says
#    which hook and which output device.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.
break nf_register_net_hook
wb-continue
print (enum nf_dev_hooks)reg->hooknum
print/d reg->pf
print reg->dev->name
print nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_EGRESS].enabled.counter
watch nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_EGRESS].enabled.counter
delete 1
wb-continue
backtrace 5
wb-continue
delete
print nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_EGRESS].enabled.counter
print egress_needed_key.key.enabled.counter
break nf_hook_slow if state->pf == NFPROTO_NETDEV && state->hook == NF_NETDEV_EGRESS
wb-continue
print (enum nf_dev_hooks)state->hook
print state->out->name
print state->in
backtrace 3
delete
# expect: Breakpoint 1, nf_register_net_hook
# expect: ^\$1 = NF_NETDEV_EGRESS$
# expect: ^\$2 = 5$
# expect: ^\$3 = "veth0
# expect: ^\$4 = 0$
# expect: [Ww]atchpoint 2: nf_hooks_needed\[NFPROTO_NETDEV\]\[NF_NETDEV_EGRESS\]\.enabled\.counter
# expect: ^New value = -1$
# expect: static_key_slow_inc_cpuslocked
# expect: __nf_register_net_hook|nf_register_net_hook
# expect: ^New value = 1$
# expect: ^\$5 = 1$
# expect: ^\$6 = 1$
# expect: Breakpoint 3, nf_hook_slow
# expect: ^\$7 = NF_NETDEV_EGRESS$
# expect: ^\$8 = "veth0
# expect: ^\$9 = \(struct net_device \*\) 0x0( |$)
# expect: nf_hook_egress
# expect: __dev_queue_xmit
