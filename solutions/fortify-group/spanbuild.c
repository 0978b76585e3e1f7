// SPDX-License-Identifier: GPL-2.0
/*
 * spanbuild: the field-spanning memcpy() of the fortify-group lab, with a
 * size the compiler knows. FORTIFY_SOURCE then reports the write past the
 * destination field while the module is being built, and once more at run
 * time when the module is loaded. A flow key of four fields is copied in
 * one piece; the key is a struct_group(), so the copy can name it.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

struct spanbuild_flow {
	/* The key, compared and copied as one. */
	struct_group(key, __be32 addr; __be16 port; u8 proto; u8 pad;);
	u32 packets;
};

static int __init spanbuild_init(void)
{
	/* 192.0.2.1, port 8080, TCP, as it would arrive from the wire. */
	static const u8 key[8] = { 192, 0, 2, 1, 0x1f, 0x90, 6, 0 };
	struct spanbuild_flow flow = { .packets = 1 };

	/* TODO 1: copy the key to its group, so that the size fits the destination */
	/* skeleton: memcpy(&flow.addr, key, sizeof(key)); */
	memcpy(&flow.key, key, sizeof(flow.key));

	pr_info("spanbuild: key %*ph, %u packet\n", (int)sizeof(flow.key),
		&flow.key, flow.packets);
	return 0;
}

static void __exit spanbuild_exit(void)
{
}

module_init(spanbuild_init);
module_exit(spanbuild_exit);
MODULE_DESCRIPTION("A constant-size copy into a struct_group() (kernel workbook)");
MODULE_LICENSE("GPL");
