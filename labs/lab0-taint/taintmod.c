// SPDX-License-Identifier: GPL-2.0
/*
 * taintmod: sets one taint flag, chosen at load time, so that lab 0 can
 * watch the mask change. Being built outside the tree, loading it also
 * sets the out-of-tree flag (O) on the kernel and on the module.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/panic.h>

static int flag = -1;
module_param(flag, int, 0444);
MODULE_PARM_DESC(flag, "taint bit to set when loading (TAINT_USER is 6)");

static int __init taintmod_init(void)
{
	/* TODO 1: refuse a flag that is not a taint bit: message and -EINVAL */

	/* TODO 2: set the flag; the kernel stays fit for lockdep */

	pr_info("taintmod: set taint bit %d\n", flag);
	return 0;
}

static void __exit taintmod_exit(void)
{
	pr_info("taintmod: unloaded; taint flags stay set until reboot\n");
}

module_init(taintmod_init);
module_exit(taintmod_exit);
MODULE_DESCRIPTION("Set a taint flag on request (kernel workbook, lab 0)");
MODULE_LICENSE("GPL");
