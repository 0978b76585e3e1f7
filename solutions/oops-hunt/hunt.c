// SPDX-License-Identifier: GPL-2.0
/*
 * hunt: the module of the debugging lab. It keeps a list of named
 * counters, which /proc/hunt reads and writes:
 *
 *   echo "add NAME" >/proc/hunt   NAME counts one more (a new name
 *                                 starts at 1)
 *   echo "del NAME" >/proc/hunt   NAME is forgotten
 *   cat /proc/hunt                a line "NAME COUNT" per name, then
 *                                 "total N", the adds so far
 *
 * The lab's skeleton has three bugs in it, one per TODO. The lab's page
 * finds each one with a different tool: the oops report and the dump,
 * ftrace, and a gdb watchpoint.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define HUNT_NAME_LEN 32

struct hunt_entry {
	struct list_head list;
	unsigned int count;
	char name[HUNT_NAME_LEN];
};

static LIST_HEAD(hunt_list);
static DEFINE_MUTEX(hunt_lock);		/* the list and hunt_adds */
static unsigned long hunt_adds;
static struct proc_dir_entry *hunt_proc;

static struct hunt_entry *hunt_find(const char *name)
{
	struct hunt_entry *e;

	list_for_each_entry(e, &hunt_list, list)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static int hunt_add(const char *name)
{
	struct hunt_entry *e = hunt_find(name);

	if (!e) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			return -ENOMEM;
		strscpy(e->name, name, sizeof(e->name));
		list_add_tail(&e->list, &hunt_list);
	}
	e->count++;
	hunt_adds++;
	return 0;
}

static int hunt_del(const char *name)
{
	struct hunt_entry *e = hunt_find(name);

	/* TODO 1: a name that is not in the list: -ENOENT */
	if (!e)
		return -ENOENT;

	/* TODO 2: take the entry out of the list, and give its memory back */
	/* skeleton: list_del(&e->list); */
	list_del(&e->list);
	kfree(e);

	return 0;
}

static int hunt_show(struct seq_file *m, void *v)
{
	struct hunt_entry *e;

	mutex_lock(&hunt_lock);
	list_for_each_entry(e, &hunt_list, list)
		seq_printf(m, "%s %u\n", e->name, e->count);
	/* TODO 3: the adds so far; reading the file changes nothing */
	/* skeleton: seq_printf(m, "total %lu\n", ++hunt_adds); */
	seq_printf(m, "total %lu\n", hunt_adds);

	mutex_unlock(&hunt_lock);
	return 0;
}

static int hunt_open(struct inode *inode, struct file *file)
{
	return single_open(file, hunt_show, NULL);
}

static ssize_t hunt_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	char buf[8 + HUNT_NAME_LEN];
	char *name;
	bool add;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (!strncmp(buf, "add ", 4))
		add = true;
	else if (!strncmp(buf, "del ", 4))
		add = false;
	else
		return -EINVAL;
	name = strim(buf + 4);
	if (!*name || strlen(name) >= HUNT_NAME_LEN)
		return -EINVAL;

	mutex_lock(&hunt_lock);
	ret = add ? hunt_add(name) : hunt_del(name);
	mutex_unlock(&hunt_lock);
	return ret ? ret : len;
}

static const struct proc_ops hunt_ops = {
	.proc_open = hunt_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = hunt_write,
};

static int __init hunt_init(void)
{
	hunt_proc = proc_create("hunt", 0644, NULL, &hunt_ops);
	return hunt_proc ? 0 : -ENOMEM;
}

static void __exit hunt_exit(void)
{
	struct hunt_entry *e, *next;

	proc_remove(hunt_proc);
	list_for_each_entry_safe(e, next, &hunt_list, list)
		kfree(e);
}

module_init(hunt_init);
module_exit(hunt_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The debugging lab's list of counters, with three bugs to find");
