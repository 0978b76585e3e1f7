// SPDX-License-Identifier: GPL-2.0
/*
 * folio_walk: a file's page cache, one folio at a time, and the
 * confidential-computing attributes the kernel believes it has.
 *
 * Two debugfs files, in /sys/kernel/debug/folio_walk/:
 *
 *   walk      write the path of a regular file to it; read it back to get
 *             one line per folio in that file's page cache, in index
 *             order: "index order size dirty refs". index is the page
 *             index of the folio's first page, order and size its
 *             allocation order and its size in bytes, dirty 1 or 0, refs
 *             the folio's reference count, the walk's own one included.
 *   cc_attrs  one line per enum cc_attr of 6.1: the constant's name and
 *             what cc_platform_has() answers, true or false.
 *
 * Written against Linux 6.1, in which filemap_get_folio() returns NULL
 * when nothing is cached at an index (later kernels return an error
 * pointer instead).
 */
#include <linux/cc_platform.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/* The path last written to the walk file, or NULL; fw_lock guards it. */
static char *fw_path;
static DEFINE_MUTEX(fw_lock);
static struct dentry *fw_dir;

/*
 * Print the line of one folio; false once the seq_file buffer is full.
 * Kept out of line so that gdb can stop here with the folio in hand
 * (break fw_show_folio).
 */
static noinline bool fw_show_folio(struct seq_file *m, struct folio *folio)
{
	/* TODO 1: print "index order size dirty refs" with the folio accessors */
	seq_printf(m, "%lu %u %zu %d %d\n", folio->index, folio_order(folio),
		   folio_size(folio), folio_test_dirty(folio) ? 1 : 0,
		   folio_ref_count(folio));

	return !seq_has_overflowed(m);
}

/*
 * Walk the page cache of @mapping from index 0 up to (not including)
 * @end, the first index past the end of the file.
 */
static int fw_walk(struct seq_file *m, struct address_space *mapping,
		   pgoff_t end)
{
	/* TODO 2: from 0 to end: look up each folio, print it, step past all its pages, put it */
	for (pgoff_t index = 0; index < end;) {
		struct folio *folio;
		bool more;

		cond_resched();
		if (fatal_signal_pending(current))
			return -EINTR;
		folio = filemap_get_folio(mapping, index);
		if (!folio) {
			index++;
			continue;
		}
		more = fw_show_folio(m, folio);
		index = folio_next_index(folio);
		folio_put(folio);
		if (!more)
			break;
	}

	return 0;
}

static int fw_walk_show(struct seq_file *m, void *v)
{
	struct inode *inode;
	struct path path;
	int err;

	mutex_lock(&fw_lock);
	err = fw_path ? kern_path(fw_path, LOOKUP_FOLLOW, &path) : -EINVAL;
	mutex_unlock(&fw_lock);
	if (err)
		return err;

	/* The reference on the path keeps the inode alive during the walk. */
	inode = d_inode(path.dentry);
	err = fw_walk(m, inode->i_mapping,
		      DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE));
	path_put(&path);
	return err;
}

static int fw_walk_open(struct inode *inode, struct file *file)
{
	return single_open(file, fw_walk_show, NULL);
}

/*
 * Choose the file to walk. The path is checked here, so that a bad one
 * fails the write; it is looked up again by each read, because the file
 * may have gone in between (and holding it would keep its file system
 * from being unmounted).
 */
static ssize_t fw_walk_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct path path;
	char *name;
	int err;

	if (count > PATH_MAX)
		return -ENAMETOOLONG;
	name = memdup_user_nul(ubuf, count);
	if (IS_ERR(name))
		return PTR_ERR(name);
	if (count && name[count - 1] == '\n')
		name[count - 1] = '\0';
	if (strlen(name) >= PATH_MAX) {
		err = -ENAMETOOLONG;
		goto out;
	}

	err = kern_path(name, LOOKUP_FOLLOW, &path);
	if (err)
		goto out;
	if (!d_is_reg(path.dentry))
		err = -EINVAL;
	path_put(&path);
	if (err)
		goto out;

	mutex_lock(&fw_lock);
	swap(fw_path, name);
	mutex_unlock(&fw_lock);
	err = count;
out:
	kfree(name);
	return err;
}

static const struct file_operations fw_walk_fops = {
	.owner = THIS_MODULE,
	.open = fw_walk_open,
	.read = seq_read,
	.write = fw_walk_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* enum cc_attr of 6.1, by value. */
static const char * const fw_cc_names[] = {
	[CC_ATTR_MEM_ENCRYPT] = "CC_ATTR_MEM_ENCRYPT",
	[CC_ATTR_HOST_MEM_ENCRYPT] = "CC_ATTR_HOST_MEM_ENCRYPT",
	[CC_ATTR_GUEST_MEM_ENCRYPT] = "CC_ATTR_GUEST_MEM_ENCRYPT",
	[CC_ATTR_GUEST_STATE_ENCRYPT] = "CC_ATTR_GUEST_STATE_ENCRYPT",
	[CC_ATTR_GUEST_UNROLL_STRING_IO] = "CC_ATTR_GUEST_UNROLL_STRING_IO",
	[CC_ATTR_GUEST_SEV_SNP] = "CC_ATTR_GUEST_SEV_SNP",
	[CC_ATTR_HOTPLUG_DISABLED] = "CC_ATTR_HOTPLUG_DISABLED",
};

static int fw_cc_attrs_show(struct seq_file *m, void *v)
{
	/* TODO 3: one line per attribute: its name, then what cc_platform_has() answers */
	for (unsigned int attr = 0; attr < ARRAY_SIZE(fw_cc_names); attr++)
		seq_printf(m, "%s %s\n", fw_cc_names[attr],
			   cc_platform_has(attr) ? "true" : "false");

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fw_cc_attrs);

static int __init fw_init(void)
{
	fw_dir = debugfs_create_dir("folio_walk", NULL);
	debugfs_create_file("walk", 0600, fw_dir, NULL, &fw_walk_fops);
	debugfs_create_file("cc_attrs", 0444, fw_dir, NULL, &fw_cc_attrs_fops);
	pr_info("folio_walk: ready in /sys/kernel/debug/folio_walk\n");
	return 0;
}

static void __exit fw_exit(void)
{
	debugfs_remove_recursive(fw_dir);
	kfree(fw_path);
}

module_init(fw_init);
module_exit(fw_exit);
MODULE_DESCRIPTION("Walk a file's page cache by folio; list cc_platform_has() (kernel workbook)");
MODULE_LICENSE("GPL");
