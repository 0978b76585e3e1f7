// SPDX-License-Identifier: GPL-2.0
/*
 * modset: read or set a transceiver module's power mode policy with our
 * own ethtool netlink request, built with libmnl, so that any value can
 * be sent. ethtool(8) only knows the words "high" and "auto" and refuses
 * anything else itself; here the kernel's attribute policy decides, and
 * its extended ack says why a request was refused.
 *
 *   modset IFNAME                   print the policy and the power mode
 *   modset IFNAME high|auto|NUMBER  set the policy
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "wb_netlink.h"

struct reply {
	int family;		/* the ethtool family's id */
	int policy;		/* 0: not in the reply */
	int mode;
};

static void print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s IFNAME [high|auto|NUMBER]\n", prog);
	exit(2);
}

/* A generic netlink request: netlink header, then genetlink header. */
static struct nlmsghdr *genl_request(char *buf, int type, int cmd, int flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = time(NULL);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* CTRL_CMD_NEWFAMILY: the id of the family we asked for. */
static int family_attr(const struct nlattr *attr, void *data)
{
	struct reply *r = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		r->family = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

/* ETHTOOL_MSG_MODULE_GET_REPLY: policy and mode, each only if present. */
static int module_attr(const struct nlattr *attr, void *data)
{
	struct reply *r = data;

	if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
		return MNL_CB_OK;
	if (mnl_attr_get_type(attr) == ETHTOOL_A_MODULE_POWER_MODE_POLICY)
		r->policy = mnl_attr_get_u8(attr);
	else if (mnl_attr_get_type(attr) == ETHTOOL_A_MODULE_POWER_MODE)
		r->mode = mnl_attr_get_u8(attr);
	return MNL_CB_OK;
}

static int answer(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct reply *r = data;

	if (nlh->nlmsg_type == GENL_ID_CTRL)
		mnl_attr_parse(nlh, sizeof(*g), family_attr, r);
	else if (g->cmd == ETHTOOL_MSG_MODULE_GET_REPLY)
		mnl_attr_parse(nlh, sizeof(*g), module_attr, r);
	return MNL_CB_OK;
}

/* Send one request and read the answers up to the acknowledgment. An
 * error is printed with the kernel's message; the status is 0 or 1.
 */
static int talk(struct mnl_socket *nl, struct nlmsghdr *nlh, struct reply *r)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = nlh->nlmsg_seq;
	int len, ret;

	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("sendto");
		return 1;
	}
	do {
		len = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (len < 0) {
			perror("recvfrom");
			return 1;
		}
		nlh = (struct nlmsghdr *)buf;
		if (mnl_nlmsg_ok(nlh, len) && nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			const char *msg = wb_extack_msg(nlh);

			if (!e->error)
				return 0;
			fprintf(stderr, "kernel: %s%s%s\n", strerror(-e->error),
				msg ? ": " : "", msg ? msg : "");
			return 1;
		}
		ret = mnl_cb_run(buf, len, seq, mnl_socket_get_portid(nl),
				 answer, r);
	} while (ret > 0);
	if (ret < 0) {
		perror("netlink");
		return 1;
	}
	return 0;
}

static long policy_arg(const char *prog, const char *s)
{
	char *end;
	long v;

	if (!strcmp(s, "high"))
		return ETHTOOL_MODULE_POWER_MODE_POLICY_HIGH;
	if (!strcmp(s, "auto"))
		return ETHTOOL_MODULE_POWER_MODE_POLICY_AUTO;
	v = strtol(s, &end, 0);
	if (*s == '\0' || *end != '\0' || v < 0 || v > 255) {
		fprintf(stderr, "%s: policy '%s' is not high, auto or 0..255\n",
			prog, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct reply r = { 0 };
	struct nlmsghdr *nlh;
	struct mnl_socket *nl;
	struct nlattr *nest;
	long policy = -1;
	int one = 1, ret;

	if (argc < 2 || argc > 3)
		print_usage(argv[0]);
	if (argc == 3)
		policy = policy_arg(argv[0], argv[2]);

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));

	nlh = genl_request(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	if (talk(nl, nlh, &r) || !r.family) {
		fprintf(stderr, "%s: no %s netlink family\n", argv[0],
			ETHTOOL_GENL_NAME);
		return 1;
	}

	nlh = genl_request(buf, r.family, policy < 0 ? ETHTOOL_MSG_MODULE_GET :
			   ETHTOOL_MSG_MODULE_SET, 0);
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_MODULE_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, argv[1]);
	mnl_attr_nest_end(nlh, nest);
	/* TODO 1: when setting, put ETHTOOL_A_MODULE_POWER_MODE_POLICY as a u8, unchecked */
	if (policy >= 0)
		mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_POWER_MODE_POLICY, policy);

	ret = talk(nl, nlh, &r);
	mnl_socket_close(nl);
	if (ret || policy >= 0)
		return ret;
	if (r.policy)
		printf("power-mode-policy %d\n", r.policy);
	if (r.mode)
		printf("power-mode %d\n", r.mode);
	return 0;
}
