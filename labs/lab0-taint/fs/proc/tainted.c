// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/tainted: the taint flags that are set, one per line.
 *
 * /proc/sys/kernel/tainted reports the taint mask as a decimal number,
 * and the letters an oops report prints are a string with one column per
 * flag. Neither says which flag a bit is without the table in
 * Documentation/admin-guide/tainted-kernels.rst. This file prints, for
 * each flag that is set, its bit number, its letter and whether a module
 * records that flag too (see /sys/module/<name>/taint).
 */
#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

static int tainted_proc_show(struct seq_file *m, void *v)
{
	unsigned long mask = get_taint();
	unsigned int bit;

	/* TODO 1: print "<bit> <letter> <module|kernel>" for each bit set in mask */

	return 0;
}

static int __init proc_tainted_init(void)
{
	proc_create_single("tainted", 0444, NULL, tainted_proc_show);
	return 0;
}
fs_initcall(proc_tainted_init);
