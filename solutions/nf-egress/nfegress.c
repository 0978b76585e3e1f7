// SPDX-License-Identifier: GPL-2.0
/*
 * nfegress: a netfilter hook on the way out of one network device.
 *
 * The device is named at load time (dev=, a device of the initial
 * network namespace). The hook counts what leaves it by layer-3
 * protocol and drops one EtherType on request (drop=). The counters are
 * in debugfs, /sys/kernel/debug/nfegress/counters. The hook goes away
 * with the device (deleted, or moved to another namespace) or with the
 * module, whichever comes first.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/if_ether.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>

static char *devname;
module_param_named(dev, devname, charp, 0444);
MODULE_PARM_DESC(dev, "device whose egress is hooked, in the initial namespace (required)");

static ushort drop;
module_param(drop, ushort, 0444);
MODULE_PARM_DESC(drop, "EtherType to drop, e.g. 0x86dd for IPv6 (default 0: drop nothing)");

enum nfe_counter {
	NFE_IPV4,
	NFE_IPV6,
	NFE_ARP,
	NFE_OTHER,
	NFE_DROPPED,
	NFE_COUNTERS
};

static const char * const nfe_names[NFE_COUNTERS] = {
	[NFE_IPV4] = "ipv4",
	[NFE_IPV6] = "ipv6",
	[NFE_ARP] = "arp",
	[NFE_OTHER] = "other",
	[NFE_DROPPED] = "dropped",
};

static atomic_long_t nfe_count[NFE_COUNTERS];

/* Runs for every packet queued on the device, before tc egress. */
static unsigned int nfe_hook(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	/* TODO 3: count the packet by its protocol; drop the EtherType asked for */
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		atomic_long_inc(&nfe_count[NFE_IPV4]);
		break;
	case htons(ETH_P_IPV6):
		atomic_long_inc(&nfe_count[NFE_IPV6]);
		break;
	case htons(ETH_P_ARP):
		atomic_long_inc(&nfe_count[NFE_ARP]);
		break;
	default:
		atomic_long_inc(&nfe_count[NFE_OTHER]);
		break;
	}
	if (drop && skb->protocol == htons(drop)) {
		atomic_long_inc(&nfe_count[NFE_DROPPED]);
		return NF_DROP;
	}

	return NF_ACCEPT;
}

/*
 * The hook, and the device it is on: dev is NULL while the hook is off.
 * dev changes under RTNL only, and the reference held on it (tracked by
 * tracker) keeps it from being freed while the hook is on.
 */
static struct {
	struct nf_hook_ops ops;
	struct net_device *dev;
	netdevice_tracker tracker;
	struct dentry *dir;
} nfe = {
	.ops.hook = nfe_hook,
};

/* Put the hook on the device called @name. Caller holds RTNL. */
static int nfe_attach(const char *name)
{
	struct net_device *dev;
	int err = 0;

	dev = name ? __dev_get_by_name(&init_net, name) : NULL;

	/* TODO 1: refuse a missing name (-EINVAL) and an unknown device (-ENODEV), saying which */
	if (!name || !*name) {
		pr_err("nfegress: no device given: load with dev=<name>\n");
		return -EINVAL;
	}
	if (!dev) {
		pr_err("nfegress: no device %s in the initial network namespace\n",
		       name);
		return -ENODEV;
	}

	/* TODO 2: make nfe.ops the egress hook of dev, register it, then hold dev in nfe.dev */
	nfe.ops.pf = NFPROTO_NETDEV;
	nfe.ops.hooknum = NF_NETDEV_EGRESS;
	nfe.ops.dev = dev;
	nfe.ops.priority = 0;
	err = nf_register_net_hook(dev_net(dev), &nfe.ops);
	if (!err) {
		netdev_hold(dev, &nfe.tracker, GFP_KERNEL);
		nfe.dev = dev;
	}

	return err;
}

/* Take the hook off its device, if it is still on. Caller holds RTNL. */
static void nfe_detach(void)
{
	ASSERT_RTNL();
	if (!nfe.dev)
		return;

	/* TODO 5: unregister the hook in the device's namespace; release the device */
	nf_unregister_net_hook(dev_net(nfe.dev), &nfe.ops);
	netdev_put(nfe.dev, &nfe.tracker);

	nfe.dev = NULL;
}

static int nfe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	/* TODO 4: when our device is unregistered, take the hook off it */
	if (event == NETDEV_UNREGISTER &&
	    netdev_notifier_info_to_dev(ptr) == nfe.dev) {
		pr_info("nfegress: %s is going away: hook removed\n",
			nfe.dev->name);
		nfe_detach();
	}

	return NOTIFY_DONE;
}

static struct notifier_block nfe_notifier = {
	.notifier_call = nfe_netdev_event,
};

static int nfe_counters_show(struct seq_file *m, void *v)
{
	int i;

	rtnl_lock();
	seq_printf(m, "device %s\n", nfe.dev ? nfe.dev->name : "-");
	rtnl_unlock();
	for (i = 0; i < NFE_COUNTERS; i++)
		seq_printf(m, "%s %ld\n", nfe_names[i],
			   atomic_long_read(&nfe_count[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nfe_counters);

static int __init nfe_init(void)
{
	int err;

	err = register_netdevice_notifier(&nfe_notifier);
	if (err)
		return err;

	rtnl_lock();
	err = nfe_attach(devname);
	rtnl_unlock();
	if (err) {
		unregister_netdevice_notifier(&nfe_notifier);
		return err;
	}

	nfe.dir = debugfs_create_dir("nfegress", NULL);
	debugfs_create_file("counters", 0444, nfe.dir, NULL,
			    &nfe_counters_fops);
	pr_info("nfegress: hooked the egress of %s (drop=%#06x)\n",
		devname, drop);
	return 0;
}

static void __exit nfe_exit(void)
{
	debugfs_remove_recursive(nfe.dir);

	rtnl_lock();
	nfe_detach();
	rtnl_unlock();

	unregister_netdevice_notifier(&nfe_notifier);
	pr_info("nfegress: unloaded\n");
}

module_init(nfe_init);
module_exit(nfe_exit);
MODULE_DESCRIPTION("Count and filter one device's egress with a netfilter hook (kernel workbook)");
MODULE_LICENSE("GPL");
