// SPDX-License-Identifier: GPL-2.0
/*
 * ioam6route: install an IPv6 route with an IOAM lightweight tunnel, the
 * way "ip -6 route add ... encap ioam6 ..." does, but with our own netlink
 * message built with libmnl. Nothing is checked here that the kernel
 * checks itself: a bad mode or an oversized trace goes to the kernel as
 * it is, and the kernel's extended ack says what is wrong.
 *
 *   ioam6route add|replace PREFIX/LEN dev IFNAME [via GATEWAY]
 *              [mode inline|encap|auto|NUMBER] [tundst ADDRESS]
 *              trace TYPE NAMESPACE SIZE
 *
 * TYPE is the 24-bit trace type (0x800000 is bit 0), SIZE the bytes
 * pre-allocated for the node records, a multiple of 4.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ioam6.h>
#include <linux/ioam6_iptunnel.h>
#include <linux/lwtunnel.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "wb_netlink.h"

struct route {
	int replace;
	struct in6_addr dst;
	unsigned int dst_len;
	unsigned int oif;
	int has_gw;
	struct in6_addr gw;
	int mode;		/* 0: let the kernel choose (inline) */
	int has_tundst;
	struct in6_addr tundst;
	unsigned long type;
	unsigned long ns;
	unsigned long size;
	struct ioam6_trace_hdr trace;
};

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s add|replace PREFIX/LEN dev IFNAME [via GATEWAY]\n"
		"          [mode inline|encap|auto|NUMBER] [tundst ADDRESS]\n"
		"          trace TYPE NAMESPACE SIZE\n", prog);
	exit(2);
}

static void addr_arg(const char *prog, const char *s, struct in6_addr *a)
{
	if (inet_pton(AF_INET6, s, a) != 1) {
		fprintf(stderr, "%s: '%s' is not an IPv6 address\n", prog, s);
		exit(2);
	}
}

static unsigned long num_arg(const char *prog, const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "%s: '%s' is not a number\n", prog, s);
		exit(2);
	}
	return v;
}

static void parse(int argc, char **argv, struct route *r)
{
	const char *prog = argv[0];
	char *slash;
	int i, has_trace = 0;

	if (argc < 3)
		usage(prog);
	if (!strcmp(argv[1], "replace"))
		r->replace = 1;
	else if (strcmp(argv[1], "add"))
		usage(prog);
	slash = strchr(argv[2], '/');
	if (!slash)
		usage(prog);
	*slash = '\0';
	addr_arg(prog, argv[2], &r->dst);
	r->dst_len = num_arg(prog, slash + 1);
	if (r->dst_len > 128)
		usage(prog);

	for (i = 3; i < argc; i++) {
		const char *key = argv[i];

		if (i + 1 >= argc)
			usage(prog);
		if (!strcmp(key, "dev")) {
			r->oif = if_nametoindex(argv[++i]);
			if (!r->oif) {
				fprintf(stderr, "%s: no device '%s'\n", prog, argv[i]);
				exit(2);
			}
		} else if (!strcmp(key, "via")) {
			addr_arg(prog, argv[++i], &r->gw);
			r->has_gw = 1;
		} else if (!strcmp(key, "tundst")) {
			addr_arg(prog, argv[++i], &r->tundst);
			r->has_tundst = 1;
		} else if (!strcmp(key, "mode")) {
			const char *m = argv[++i];

			if (!strcmp(m, "inline"))
				r->mode = IOAM6_IPTUNNEL_MODE_INLINE;
			else if (!strcmp(m, "encap"))
				r->mode = IOAM6_IPTUNNEL_MODE_ENCAP;
			else if (!strcmp(m, "auto"))
				r->mode = IOAM6_IPTUNNEL_MODE_AUTO;
			else
				r->mode = num_arg(prog, m) & 0xff;
		} else if (!strcmp(key, "trace")) {
			if (i + 3 >= argc)
				usage(prog);
			r->type = num_arg(prog, argv[++i]);
			r->ns = num_arg(prog, argv[++i]);
			r->size = num_arg(prog, argv[++i]);
			has_trace = 1;
		} else {
			usage(prog);
		}
	}
	if (!r->oif || !has_trace)
		usage(prog);
}

/* The request: an RTM_NEWROUTE with the encapsulation nested in it. */
static struct nlmsghdr *build(char *buf, struct route *r)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct rtmsg *rtm;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE;
	nlh->nlmsg_flags |= r->replace ? NLM_F_REPLACE : NLM_F_EXCL;
	nlh->nlmsg_seq = time(NULL);

	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET6;
	rtm->rtm_dst_len = r->dst_len;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_BOOT;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = RTN_UNICAST;

	mnl_attr_put(nlh, RTA_DST, sizeof(r->dst), &r->dst);
	mnl_attr_put_u32(nlh, RTA_OIF, r->oif);
	if (r->has_gw)
		mnl_attr_put(nlh, RTA_GATEWAY, sizeof(r->gw), &r->gw);

	mnl_attr_put_u16(nlh, RTA_ENCAP_TYPE, LWTUNNEL_ENCAP_IOAM6);
	nest = mnl_attr_nest_start(nlh, RTA_ENCAP);

	/* TODO 1: fill r->trace: namespace, free space in 4-octet words, type in the top 24 bits */
	memset(&r->trace, 0, sizeof(r->trace));
	r->trace.namespace_id = htons(r->ns);
	r->trace.remlen = r->size / 4;
	r->trace.type_be32 = htonl(r->type << 8);

	/* TODO 2: put IOAM6_IPTUNNEL_MODE (if given), IOAM6_IPTUNNEL_DST (if given) and the trace */
	if (r->mode)
		mnl_attr_put_u8(nlh, IOAM6_IPTUNNEL_MODE, r->mode);
	if (r->has_tundst)
		mnl_attr_put(nlh, IOAM6_IPTUNNEL_DST, sizeof(r->tundst),
			     &r->tundst);
	mnl_attr_put(nlh, IOAM6_IPTUNNEL_TRACE, sizeof(r->trace), &r->trace);

	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct route r = { 0 };
	struct nlmsghdr *nlh;
	struct mnl_socket *nl;
	const struct nlmsgerr *e;
	int one = 1, len;

	parse(argc, argv, &r);
	nlh = build(buf, &r);

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("sendto");
		return 1;
	}
	len = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	mnl_socket_close(nl);
	if (len < 0) {
		perror("recvfrom");
		return 1;
	}
	nlh = (struct nlmsghdr *)buf;
	if (!mnl_nlmsg_ok(nlh, len) || nlh->nlmsg_type != NLMSG_ERROR) {
		fprintf(stderr, "unexpected answer from the kernel\n");
		return 1;
	}
	e = mnl_nlmsg_get_payload(nlh);
	if (e->error) {
		const char *msg = wb_extack_msg(nlh);

		fprintf(stderr, "kernel: %s%s%s\n", strerror(-e->error),
			msg ? ": " : "", msg ? msg : "");
		return 1;
	}
	return 0;
}
