// SPDX-License-Identifier: GPL-2.0
/*
 * mcast: send or receive one IPv4 multicast UDP datagram on a given
 * device, for the AMT part of the networking tour.
 *
 *   mcast recv GROUP PORT DEV TIMEOUT_MS
 *       join GROUP on DEV (IP_ADD_MEMBERSHIP: the kernel sends the IGMP
 *       report out of DEV), print "joined ...", then wait for one
 *       datagram and print "from SOURCE on DEV: TEXT" ("timeout" and
 *       status 1 when none came)
 *   mcast send GROUP PORT DEV TEXT
 *       send TEXT to GROUP:PORT out of DEV (IP_MULTICAST_IF)
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void group_of(struct ip_mreqn *mr, const char *group, const char *dev)
{
	memset(mr, 0, sizeof(*mr));
	if (inet_pton(AF_INET, group, &mr->imr_multiaddr) != 1) {
		fprintf(stderr, "mcast: %s is not an IPv4 address\n", group);
		exit(2);
	}
	mr->imr_ifindex = if_nametoindex(dev);
	if (!mr->imr_ifindex)
		die(dev);
}

static int do_recv(const char *group, int port, const char *dev, int ms)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char buf[256], src[INET_ADDRSTRLEN], ifname[IF_NAMESIZE] = "?";
	char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))];
	struct iovec iov = { buf, sizeof(buf) - 1 };
	struct msghdr msg = {
		.msg_name = &sin, .msg_namelen = sizeof(sin),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct ip_mreqn mr;
	struct cmsghdr *cm;
	struct pollfd pfd;
	int fd, one = 1;
	ssize_t n;

	group_of(&mr, group, dev);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	sin.sin_port = htons(port);
	sin.sin_addr = mr.imr_multiaddr;
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die("bind");
	if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)))
		die("IP_ADD_MEMBERSHIP");
	printf("joined %s on %s, waiting on port %d\n", group, dev, port);
	fflush(stdout);

	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) != 1) {
		printf("timeout: nothing received in %d ms\n", ms);
		return 1;
	}
	n = recvmsg(fd, &msg, 0);
	if (n < 0)
		die("recvmsg");
	buf[n] = '\0';
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_PKTINFO)
			if_indextoname(((struct in_pktinfo *)CMSG_DATA(cm))->ipi_ifindex,
				       ifname);
	inet_ntop(AF_INET, &sin.sin_addr, src, sizeof(src));
	printf("from %s on %s: %s\n", src, ifname, buf);
	close(fd);
	return 0;
}

static int do_send(const char *group, int port, const char *dev, const char *text)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct ip_mreqn mr;
	ssize_t n;
	int fd;

	group_of(&mr, group, dev);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mr, sizeof(mr)))
		die("IP_MULTICAST_IF");
	sin.sin_port = htons(port);
	sin.sin_addr = mr.imr_multiaddr;
	n = sendto(fd, text, strlen(text), 0, (struct sockaddr *)&sin, sizeof(sin));
	if (n < 0)
		die("sendto");
	printf("sent %zd bytes to %s:%d out of %s\n", n, group, port, dev);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], atoi(argv[3]), argv[4], atoi(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), argv[4], argv[5]);
	fprintf(stderr, "usage: mcast recv GROUP PORT DEV TIMEOUT_MS | send GROUP PORT DEV TEXT\n");
	return 2;
}
