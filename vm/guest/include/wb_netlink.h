/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink helpers shared by the workbook's guest programs; vm/lab.sh puts
 * this folder on the include path of every lab program.
 */
#ifndef WB_NETLINK_H
#define WB_NETLINK_H

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

/*
 * The text of the kernel's extended ack, or NULL. An error with
 * NLM_F_ACK_TLVS carries attributes after the request it answers (after
 * its header alone if NLM_F_CAPPED): the message is NLMSGERR_ATTR_MSG.
 */
static inline const char *wb_extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*nlh) + sizeof(*e);
	const struct nlattr *attr;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (off >= nlh->nlmsg_len)
		return NULL;
	for (attr = (const struct nlattr *)((const char *)nlh + off);
	     mnl_attr_ok(attr, (const char *)nlh + nlh->nlmsg_len - (const char *)attr);
	     attr = mnl_attr_next(attr)) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			return mnl_attr_get_str(attr);
	}
	return NULL;
}

#endif /* WB_NETLINK_H */
