// SPDX-License-Identifier: GPL-2.0
/*
 * licmod: a module that declares whatever license it is built with, to
 * watch what the kernel does with that declaration. (The source is GPL
 * like the rest of the workbook; the string below is the experiment.)
 *
 * lab.sh builds it as it is: licmod.ko, "Proprietary", using only symbols
 * exported with EXPORT_SYMBOL(). hostbuild.sh builds two more modules
 * from it with LICMOD_GPL_SYMBOL defined, so that they also call
 * ktime_get(), which kernel/time/timekeeping.c exports with
 * EXPORT_SYMBOL_GPL():
 *   licmod_gpl.ko   with LICMOD_LICENSE "GPL"
 *   licmod_prop.ko  with the default "Proprietary"
 */
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

#ifndef LICMOD_LICENSE
#define LICMOD_LICENSE "Proprietary"
#endif

static int __init licmod_init(void)
{
#ifdef LICMOD_GPL_SYMBOL
	/* TODO 4: print ktime_get() (an EXPORT_SYMBOL_GPL symbol) in ns */

#endif
	/* jiffies is exported with EXPORT_SYMBOL(): any module may read it. */
	pr_info("%s: loaded, license \"%s\", jiffies %lu\n", KBUILD_MODNAME,
		LICMOD_LICENSE, jiffies);
	return 0;
}

static void __exit licmod_exit(void)
{
	pr_info("%s: unloaded\n", KBUILD_MODNAME);
}

module_init(licmod_init);
module_exit(licmod_exit);
MODULE_DESCRIPTION("Declare a license and see what it allows (kernel workbook)");
MODULE_LICENSE(LICMOD_LICENSE);
