// SPDX-License-Identifier: GPL-2.0
/*
 * ioam6dump: read a capture that tcpdump wrote with -w and print, for each
 * IPv6 packet, its headers one by one (an outer header, the hop-by-hop
 * header, an inner header) and the records of an IOAM pre-allocated trace,
 * in the order the nodes wrote them.
 *
 *   ioam6dump FILE.pcap
 *
 * Only the classic pcap format is read, with Ethernet or Linux "cooked"
 * link headers, which is what tcpdump writes for a veth or for "-i any".
 * Every multi-byte field is read byte by byte, in network order, so the
 * program needs no kernel header and runs the same on any host.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINKTYPE_ETHERNET 1
#define LINKTYPE_LINUX_SLL 113
#define LINKTYPE_LINUX_SLL2 276

#define NH_HOP 0
#define NH_TCP 6
#define NH_UDP 17
#define NH_IPV6 41
#define NH_ICMPV6 58
#define NH_NONE 59

#define OPT_PAD1 0
#define OPT_PADN 1
#define OPT_IOAM 49
#define IOAM_PREALLOC 0

#define MAX_RECORDS 64

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static const char *nh_name(int nh)
{
	switch (nh) {
	case NH_HOP: return "hop-by-hop";
	case NH_TCP: return "tcp";
	case NH_UDP: return "udp";
	case NH_IPV6: return "ipv6";
	case NH_ICMPV6: return "icmpv6";
	case NH_NONE: return "none";
	default: return "other";
	}
}

/* The size in bytes of trace field "bit" (0 is the most significant). */
static int field_size(int bit)
{
	if (bit >= 8 && bit <= 10)
		return 8;
	return 4;
}

/* One node's record: the fields its trace type asks for, bit 0 first. */
static void print_record(int n, const uint8_t *p, uint32_t type, int oplen)
{
	int bit;

	printf("    node %d:", n);
	for (bit = 0; bit < 12; bit++) {
		if (!(type & (0x800000u >> bit)))
			continue;
		switch (bit) {
		case 0:
			printf(" hlim %u id %u", p[0], get32(p) & 0xffffff);
			break;
		case 1:
			printf(" in %u out %u", get16(p), get16(p + 2));
			break;
		case 2:
			printf(" ts %u", get32(p));
			break;
		case 3:
			printf(".%06u", get32(p));
			break;
		case 4:
			printf(" delay %u", get32(p));
			break;
		case 5:
			printf(" nsdata 0x%08x", get32(p));
			break;
		case 6:
			printf(" queue %u", get32(p));
			break;
		case 7:
			printf(" csum 0x%08x", get32(p));
			break;
		case 8:
			printf(" hlim %u wide-id %llu", p[0],
			       (unsigned long long)(get64(p) & 0xffffffffffffffull));
			break;
		case 9:
			printf(" wide-in %u wide-out %u", get32(p), get32(p + 4));
			break;
		case 10:
			printf(" nsdata-wide 0x%016llx",
			       (unsigned long long)get64(p));
			break;
		case 11:
			printf(" buffer %u", get32(p));
			break;
		}
		p += field_size(bit);
	}
	if (type & 0x000002) {
		printf(" schema %u", get32(p) & 0xffffff);
		if (oplen > 4)
			printf(" \"%.*s\"", oplen - 4, (const char *)p + 4);
	}
	printf("\n");
}

/*
 * The trace: a header, then remlen free 4-byte words, then the records.
 * Each node writes its record just before the previous one, so the first
 * record after the free space is the newest. Print them oldest first.
 */
static void print_trace(const uint8_t *t, int len)
{
	const uint8_t *rec[MAX_RECORDS];
	int oplen[MAX_RECORDS];
	int nodelen = 0, remlen = 0, off, n = 0;
	uint32_t type = 0;

	if (len < 8) {
		printf("    truncated trace header\n");
		return;
	}
	/* TODO 1: nodelen: top 5 bits of byte 2; remlen: low 7 bits of byte 3; type: bytes 4-6 */
	nodelen = t[2] >> 3;
	remlen = t[3] & 0x7f;
	type = get32(t + 4) >> 8;

	printf("    ioam trace: ns %u, type 0x%06x, nodelen %d, remlen %d, overflow %d\n",
	       get16(t), type, nodelen, remlen, !!(t[2] & 0x04));
	t += 8;
	len -= 8;
	off = remlen * 4;
	while (off < len && n < MAX_RECORDS) {
		int size = nodelen * 4;

		oplen[n] = 0;
		if (type & 0x000002) {
			if (off + size + 4 > len)
				break;
			oplen[n] = 4 + t[off + size] * 4;
			size += oplen[n];
		}
		if (off + size > len)
			break;
		rec[n++] = t + off;
		off += size;
	}
	if (!n)
		printf("    no node data\n");
	for (off = n - 1; off >= 0; off--)
		print_record(n - off, rec[off], type, oplen[off]);
}

/* The options of a hop-by-hop header: only the IOAM trace is decoded. */
static void print_hbh(const uint8_t *p, int len)
{
	int off = 2;

	printf("  hop-by-hop: %d bytes, next %d (%s)\n", len, p[0], nh_name(p[0]));
	while (off < len) {
		int type = p[off], olen;

		if (type == OPT_PAD1) {
			off++;
			continue;
		}
		if (off + 2 > len)
			break;
		olen = p[off + 1];
		if (off + 2 + olen > len)
			break;
		if (type == OPT_IOAM && olen >= 2 && p[off + 3] == IOAM_PREALLOC)
			print_trace(p + off + 4, olen - 2);
		else if (type != OPT_PADN)
			printf("    option %d, %d bytes\n", type, olen);
		off += 2 + olen;
	}
}

static void print_ipv6(const uint8_t *p, int len, int depth)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	int nh, hlen;

	if (len < 40 || p[0] >> 4 != 6) {
		printf("  not an IPv6 header\n");
		return;
	}
	inet_ntop(AF_INET6, p + 8, src, sizeof(src));
	inet_ntop(AF_INET6, p + 24, dst, sizeof(dst));
	nh = p[6];
	printf("  %s: %s > %s, hlim %u, next %d (%s), payload %u\n",
	       depth ? "inner ipv6" : "ipv6", src, dst, p[7], nh, nh_name(nh),
	       get16(p + 4));
	p += 40;
	len -= 40;
	if (nh == NH_HOP) {
		if (len < 8)
			return;
		hlen = (p[1] + 1) * 8;
		if (hlen > len)
			hlen = len;
		print_hbh(p, hlen);
		nh = p[0];
		p += hlen;
		len -= hlen;
	}
	if (nh == NH_IPV6 && depth < 2)
		print_ipv6(p, len, depth + 1);
	else if (nh == NH_ICMPV6 && len >= 1)
		printf("  icmpv6 type %u%s\n", p[0],
		       p[0] == 128 ? " (echo request)" :
		       p[0] == 129 ? " (echo reply)" : "");
}

int main(int argc, char **argv)
{
	uint8_t gh[24], rh[16], pkt[65536];
	uint32_t linktype, caplen;
	int n = 0, skip;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.pcap\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	if (fread(gh, sizeof(gh), 1, f) != 1 ||
	    memcmp(gh, "\xd4\xc3\xb2\xa1", 4)) {
		fprintf(stderr, "%s: not a little-endian pcap file\n", argv[1]);
		return 1;
	}
	linktype = gh[20] | gh[21] << 8 | gh[22] << 16 | (uint32_t)gh[23] << 24;
	switch (linktype) {
	case LINKTYPE_ETHERNET: skip = 14; break;
	case LINKTYPE_LINUX_SLL: skip = 16; break;
	case LINKTYPE_LINUX_SLL2: skip = 20; break;
	default:
		fprintf(stderr, "%s: link type %u is not handled\n", argv[1], linktype);
		return 1;
	}
	while (fread(rh, sizeof(rh), 1, f) == 1) {
		caplen = rh[8] | rh[9] << 8 | rh[10] << 16 | (uint32_t)rh[11] << 24;
		if (caplen > sizeof(pkt) || fread(pkt, caplen, 1, f) != 1)
			break;
		if ((int)caplen <= skip)
			continue;
		printf("packet %d: %u bytes\n", ++n, caplen - skip);
		print_ipv6(pkt + skip, caplen - skip, 0);
	}
	fclose(f);
	return n ? 0 : 1;
}
