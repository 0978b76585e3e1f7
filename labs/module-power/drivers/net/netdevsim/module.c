// SPDX-License-Identifier: GPL-2.0
/*
 * A simulated transceiver module, shared by the ports of a netdevsim
 * device the way a breakout cable is shared by split ports.
 *
 * The module answers on the management interface with page 00h of its
 * memory map: lower memory (bytes 0-127) and upper page 00h (bytes
 * 128-255), laid out as CMIS (QSFP-DD) or SFF-8636 (QSFP28) define them.
 * Every other page reads as zeros. The power mode lives where the two
 * specifications put it, so that "ethtool -m" decodes what the driver did:
 *
 *   CMIS      byte 3, bits 3-1: Module State (1 ModuleLowPwr, 3 ModuleReady)
 *             byte 26, bit 4: LowPwrRequestSW, bit 6: LowPwrAllowRequestHW
 *   SFF-8636  byte 93, bit 0: Power override, bit 1: Power set,
 *             bit 2: High Power Class (classes 5-7) enable
 *
 * LowPwrAllowRequestHW stays off and Power override stays on: the module
 * never looks at the LPMode pin, only at what the host writes.
 *
 * debugfs, in /sys/kernel/debug/netdevsim/netdevsim<ID>/module/:
 *   type     "cmis" or "sff8636"; writing plugs in a new module of that type
 *   plugged  Y or N; plugging in starts from a fresh memory map
 *   get_err  an errno that get_module_power_mode returns, with a message
 *   set_err  the same for set_module_power_mode
 *   eeprom   page 00h as the module last held it (read-only)
 */

#include <linux/debugfs.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "netdevsim.h"

#define NSIM_MODULE_I2C_ADDRESS		0x50

#define NSIM_MODULE_ID			0	/* SFF-8024 identifier */
#define NSIM_MODULE_REV			1	/* revision compliance */
#define NSIM_MODULE_ID_UPPER		128	/* the identifier again */

#define NSIM_CMIS_STATE			3
#define NSIM_CMIS_STATE_MASK		GENMASK(3, 1)
#define NSIM_CMIS_STATE_LOW_PWR		1
#define NSIM_CMIS_STATE_READY		3
#define NSIM_CMIS_CONTROL		26
#define NSIM_CMIS_LOW_PWR_REQUEST_SW	BIT(4)
#define NSIM_CMIS_LOW_PWR_ALLOW_HW	BIT(6)
#define NSIM_CMIS_POWER_CLASS		200
#define NSIM_CMIS_MAX_POWER		201	/* in units of 0.25 W */
#define NSIM_CMIS_CONNECTOR		203
#define NSIM_CMIS_VENDOR_NAME		129
#define NSIM_CMIS_VENDOR_PN		148
#define NSIM_CMIS_VENDOR_REV		164
#define NSIM_CMIS_VENDOR_SN		166
#define NSIM_CMIS_DATE_CODE		182

#define NSIM_SFF8636_POWER		93
#define NSIM_SFF8636_POWER_OVERRIDE	BIT(0)
#define NSIM_SFF8636_POWER_SET		BIT(1)
#define NSIM_SFF8636_HIGH_POWER_CLASS	BIT(2)
#define NSIM_SFF8636_EXT_ID		129
#define NSIM_SFF8636_CONNECTOR		130
#define NSIM_SFF8636_VENDOR_NAME	148
#define NSIM_SFF8636_VENDOR_PN		168
#define NSIM_SFF8636_VENDOR_REV		184
#define NSIM_SFF8636_VENDOR_SN		196
#define NSIM_SFF8636_DATE_CODE		212

#define NSIM_SFF8024_ID_QSFP28		0x11
#define NSIM_SFF8024_ID_QSFP_DD		0x18
#define NSIM_SFF8024_CONNECTOR_MPO	0x0c

static const char * const nsim_module_type_names[] = {
	[NSIM_MODULE_CMIS] = "cmis",
	[NSIM_MODULE_SFF8636] = "sff8636",
};

static struct nsim_module *nsim_module_of(struct net_device *dev)
{
	struct netdevsim *ns = netdev_priv(dev);

	return &ns->nsim_dev->module;
}

/* ASCII fields of the memory map are padded with spaces. */
static void nsim_module_put_ascii(u8 *map, unsigned int offset,
				  unsigned int len, const char *s)
{
	memset(map + offset, ' ', len);
	memcpy(map + offset, s, min_t(size_t, strlen(s), len));
}

/* Is the module in low power mode? Read back from the memory map, as a
 * host reads it from a real module.
 */
static bool nsim_module_is_low_power(const struct nsim_module *m)
{
	const u8 *map = m->eeprom;
	u8 bits;

	if (m->type == NSIM_MODULE_CMIS) {
		bits = map[NSIM_CMIS_STATE] & NSIM_CMIS_STATE_MASK;
		return bits >> 1 == NSIM_CMIS_STATE_LOW_PWR;
	}

	bits = NSIM_SFF8636_POWER_OVERRIDE | NSIM_SFF8636_POWER_SET;
	return (map[NSIM_SFF8636_POWER] & bits) == bits;
}

/* Move the module to low or high power mode: the host's write on the
 * management interface, and the module's answer to it.
 */
static void nsim_module_low_power_set(struct nsim_module *m, bool low)
{
	u8 *map = m->eeprom;

	/* TODO 1: CMIS: LowPwrRequestSW (byte 26) requests low power; Module State (byte 3) */

	/* TODO 2: SFF-8636 byte 93: Power override; Power set if low, High Power Class if high */

	dev_dbg(m->dev, "module in %s power mode\n", low ? "low" : "high");
}

/* A module was plugged in: it comes with its identification and nothing
 * else, and the host then applies the power mode policy to it.
 */
static void nsim_module_plug(struct nsim_module *m)
{
	u8 *map = m->eeprom;
	bool low;

	memset(map, 0, sizeof(m->eeprom));
	if (m->type == NSIM_MODULE_CMIS) {
		map[NSIM_MODULE_ID] = NSIM_SFF8024_ID_QSFP_DD;
		map[NSIM_MODULE_REV] = 0x50;	/* CMIS 5.0 */
		map[NSIM_MODULE_ID_UPPER] = NSIM_SFF8024_ID_QSFP_DD;
		map[NSIM_CMIS_POWER_CLASS] = 0x60;	/* class 4 */
		map[NSIM_CMIS_MAX_POWER] = 40;		/* 10 W */
		map[NSIM_CMIS_CONNECTOR] = NSIM_SFF8024_CONNECTOR_MPO;
		nsim_module_put_ascii(map, NSIM_CMIS_VENDOR_NAME, 16,
				      "NETDEVSIM");
		nsim_module_put_ascii(map, NSIM_CMIS_VENDOR_PN, 16,
				      "NSIM-QSFP-DD");
		nsim_module_put_ascii(map, NSIM_CMIS_VENDOR_REV, 2, "A0");
		nsim_module_put_ascii(map, NSIM_CMIS_VENDOR_SN, 16, "0001");
		nsim_module_put_ascii(map, NSIM_CMIS_DATE_CODE, 8, "211006");
	} else {
		map[NSIM_MODULE_ID] = NSIM_SFF8024_ID_QSFP28;
		map[NSIM_MODULE_REV] = 0x08;	/* SFF-8636 2.5 to 2.7 */
		map[NSIM_MODULE_ID_UPPER] = NSIM_SFF8024_ID_QSFP28;
		map[NSIM_SFF8636_EXT_ID] = 0xc3;	/* power class 7, 5 W */
		map[NSIM_SFF8636_CONNECTOR] = NSIM_SFF8024_CONNECTOR_MPO;
		nsim_module_put_ascii(map, NSIM_SFF8636_VENDOR_NAME, 16,
				      "NETDEVSIM");
		nsim_module_put_ascii(map, NSIM_SFF8636_VENDOR_PN, 16,
				      "NSIM-QSFP28");
		nsim_module_put_ascii(map, NSIM_SFF8636_VENDOR_REV, 2, "A0");
		nsim_module_put_ascii(map, NSIM_SFF8636_VENDOR_SN, 16, "0001");
		nsim_module_put_ascii(map, NSIM_SFF8636_DATE_CODE, 8, "211006");
	}
	m->plugged = true;

	low = m->policy == ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO &&
	      !m->ports_up;
	nsim_module_low_power_set(m, low);
}

int nsim_get_module_eeprom_by_page(struct net_device *dev,
				   const struct ethtool_module_eeprom *page,
				   struct netlink_ext_ack *extack)
{
	struct nsim_module *m = nsim_module_of(dev);

	if (!m->plugged) {
		NL_SET_ERR_MSG_MOD(extack, "No module is plugged in");
		return -EIO;
	}
	if (page->i2c_address != NSIM_MODULE_I2C_ADDRESS) {
		NL_SET_ERR_MSG_MOD(extack, "The module only answers on I2C address 0x50");
		return -EINVAL;
	}

	/* The core checked that the range stays within one 256-byte page. */
	if (page->page || page->bank)
		memset(page->data, 0, page->length);
	else
		memcpy(page->data, m->eeprom + page->offset, page->length);

	return page->length;
}

int nsim_get_module_power_mode(struct net_device *dev,
			       struct ethtool_module_power_mode_params *params,
			       struct netlink_ext_ack *extack)
{
	struct nsim_module *m = nsim_module_of(dev);

	/* TODO 3: injected get_err (errno and message); the policy; the mode only if plugged in */

	return 0;
}

int nsim_set_module_power_mode(struct net_device *dev,
			       const struct ethtool_module_power_mode_params *params,
			       struct netlink_ext_ack *extack)
{
	struct nsim_module *m = nsim_module_of(dev);

	/* TODO 4: injected set_err; no port up: apply the policy to a plugged module; keep it */

	return 0;
}

/* ndo_open of a port that uses the module (RTNL held). */
int nsim_module_port_up(struct netdevsim *ns)
{
	struct nsim_module *m = &ns->nsim_dev->module;

	/* TODO 5: under policy auto, the first port up moves a plugged module to high power */

	m->ports_up++;
	return 0;
}

/* ndo_stop of a port that uses the module (RTNL held). */
int nsim_module_port_down(struct netdevsim *ns)
{
	struct nsim_module *m = &ns->nsim_dev->module;

	m->ports_up--;
	/* TODO 6: under policy auto, the last port down moves a plugged module to low power */

	return 0;
}

static ssize_t nsim_module_type_read(struct file *file, char __user *data,
				     size_t count, loff_t *ppos)
{
	struct nsim_module *m = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n",
			nsim_module_type_names[m->type]);
	return simple_read_from_buffer(data, count, ppos, buf, len);
}

static ssize_t nsim_module_type_write(struct file *file,
				      const char __user *data,
				      size_t count, loff_t *ppos)
{
	struct nsim_module *m = file->private_data;
	char buf[16] = {};
	int type;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, data, count))
		return -EFAULT;
	type = sysfs_match_string(nsim_module_type_names, buf);
	if (type < 0)
		return type;

	rtnl_lock();
	m->type = type;
	nsim_module_plug(m);
	rtnl_unlock();
	return count;
}

static const struct file_operations nsim_module_type_fops = {
	.open = simple_open,
	.read = nsim_module_type_read,
	.write = nsim_module_type_write,
	.llseek = generic_file_llseek,
	.owner = THIS_MODULE,
};

static ssize_t nsim_module_plugged_read(struct file *file, char __user *data,
					size_t count, loff_t *ppos)
{
	struct nsim_module *m = file->private_data;
	char buf[] = { m->plugged ? 'Y' : 'N', '\n' };

	return simple_read_from_buffer(data, count, ppos, buf, sizeof(buf));
}

static ssize_t nsim_module_plugged_write(struct file *file,
					 const char __user *data,
					 size_t count, loff_t *ppos)
{
	struct nsim_module *m = file->private_data;
	bool plugged;
	int err;

	err = kstrtobool_from_user(data, count, &plugged);
	if (err)
		return err;

	rtnl_lock();
	if (plugged && !m->plugged)
		nsim_module_plug(m);
	m->plugged = plugged;
	rtnl_unlock();
	return count;
}

static const struct file_operations nsim_module_plugged_fops = {
	.open = simple_open,
	.read = nsim_module_plugged_read,
	.write = nsim_module_plugged_write,
	.llseek = generic_file_llseek,
	.owner = THIS_MODULE,
};

/* Called once per device, before its ports exist: a CMIS module is
 * plugged in and the policy is high, as after a reset of the device.
 */
void nsim_dev_module_init(struct nsim_dev *nsim_dev)
{
	struct nsim_module *m = &nsim_dev->module;
	struct dentry *ddir;

	m->dev = &nsim_dev->nsim_bus_dev->dev;
	m->type = NSIM_MODULE_CMIS;
	m->policy = ETHTOOL_MODULE_POWER_MODE_POLICY_HIGH;
	m->ports_up = 0;
	nsim_module_plug(m);

	ddir = debugfs_create_dir("module", nsim_dev->ddir);
	debugfs_create_file("type", 0600, ddir, m, &nsim_module_type_fops);
	debugfs_create_file("plugged", 0600, ddir, m,
			    &nsim_module_plugged_fops);
	debugfs_create_u32("get_err", 0600, ddir, &m->get_err);
	debugfs_create_u32("set_err", 0600, ddir, &m->set_err);
	m->eeprom_blob.data = m->eeprom;
	m->eeprom_blob.size = sizeof(m->eeprom);
	debugfs_create_blob("eeprom", 0400, ddir, &m->eeprom_blob);
}
