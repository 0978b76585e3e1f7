// SPDX-License-Identifier: GPL-2.0
/*
 * iaranges: list the independent access ranges of a disk and check the
 * rules of Documentation/ABI/stable/sysfs-block, or read from two ranges
 * at once.
 *
 *   iaranges DISK              print the ranges and check them
 *   iaranges -q DISK           check only; the exit status says
 *   iaranges -l SECONDS DISK   random 4 KiB direct reads, first in one
 *                              range from two threads, then in ranges 0
 *                              and 1 from one thread each
 *
 * Exit status: 0 the ranges follow the rules, 1 they break one (each
 * broken rule is printed), 2 the disk has no ranges, 3 usage or I/O error.
 * IARANGES_SYSFS, when set, replaces /sys (the checker points it at
 * hand-made trees that break the rules).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_RANGES 256
#define IO_SIZE 4096

struct range {
	uint64_t sector;
	uint64_t nr_sectors;
};

static const char *sysfs = "/sys";
static const char *disk;
static int broken;

static void rule(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report a rule that does not hold; count it. */
static void rule(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	broken++;
	fprintf(stderr, "iaranges: %s: ", disk);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Read one unsigned number from a sysfs file; -1 if it cannot. */
static int read_u64(const char *path, uint64_t *val)
{
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%" SCNu64, val);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/*
 * Load the ranges from /sys/block/DISK/queue/independent_access_ranges.
 * Returns their number, 0 if the directory does not exist, -1 on error.
 * Every entry of the directory must be a range number below the count.
 */
static int load_ranges(struct range *r)
{
	char dir[256], path[512];
	struct dirent *e;
	int n = 0, entries = 0;
	DIR *d;

	snprintf(dir, sizeof(dir),
		 "%s/block/%s/queue/independent_access_ranges", sysfs, disk);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] != '.')
			entries++;
	}
	closedir(d);

	for (n = 0; n < MAX_RANGES; n++) {
		snprintf(path, sizeof(path), "%s/%d/sector", dir, n);
		if (read_u64(path, &r[n].sector))
			break;
		snprintf(path, sizeof(path), "%s/%d/nr_sectors", dir, n);
		if (read_u64(path, &r[n].nr_sectors)) {
			fprintf(stderr, "iaranges: cannot read %s\n", path);
			return -1;
		}
	}
	rule(entries == n,
	     "the directory holds %d entries but ranges 0 to %d only",
	     entries, n - 1);
	return n;
}

static void check(const struct range *r, int n, int quiet)
{
	uint64_t size, lbs, total = 0, per_lb;
	char path[256];
	int i;

	snprintf(path, sizeof(path), "%s/block/%s/size", sysfs, disk);
	if (read_u64(path, &size)) {
		fprintf(stderr, "iaranges: cannot read %s\n", path);
		exit(3);
	}
	snprintf(path, sizeof(path), "%s/block/%s/queue/logical_block_size",
		 sysfs, disk);
	if (read_u64(path, &lbs) || lbs < 512) {
		fprintf(stderr, "iaranges: cannot read %s\n", path);
		exit(3);
	}
	per_lb = lbs / 512;

	if (!quiet)
		printf("%-5s %12s %12s %10s %12s\n", "range", "sector",
		       "nr_sectors", "MiB", "blocks");
	rule(n >= 2, "%d range: the kernel lists ranges only for two or more",
	     n);
	rule(r[0].sector == 0, "range 0 starts at sector %" PRIu64 ", not 0",
	     r[0].sector);
	for (i = 0; i < n; i++) {
		if (!quiet)
			printf("%-5d %12" PRIu64 " %12" PRIu64 " %10.2f %12"
			       PRIu64 "\n", i, r[i].sector, r[i].nr_sectors,
			       r[i].nr_sectors / 2048.0, r[i].nr_sectors / per_lb);
		rule(r[i].nr_sectors > 0, "range %d is empty", i);
		/* TODO 1: from range 1 on: it starts after range i - 1, not inside it, and with no hole in between */
		if (i > 0) {
			uint64_t end = r[i - 1].sector + r[i - 1].nr_sectors;

			rule(r[i].sector > r[i - 1].sector,
			     "range %d does not start after range %d", i, i - 1);
			rule(r[i].sector >= end, "range %d starts at %" PRIu64
			     ", inside range %d, which ends at %" PRIu64,
			     i, r[i].sector, i - 1, end);
			rule(r[i].sector <= end, "a hole of %" PRIu64
			     " sectors before range %d", r[i].sector - end, i);
		}

		/* 512-byte units: every boundary falls on a logical block. */
		rule(r[i].sector % per_lb == 0 && r[i].nr_sectors % per_lb == 0,
		     "range %d is not a whole number of %" PRIu64
		     "-byte blocks in 512-byte units", i, lbs);
		total += r[i].nr_sectors;
	}
	rule(total == size, "the ranges add up to %" PRIu64
	     " sectors, the disk has %" PRIu64, total, size);
	if (!quiet)
		printf("%d ranges, %" PRIu64 " sectors of 512 bytes, logical block %"
		       PRIu64 " bytes: %s\n", n, total, lbs,
		       broken ? "rules broken" : "all rules hold");
}

/* ---- two ranges at once ------------------------------------------- */

struct reader {
	int fd;
	uint64_t first, count;	/* bytes */
	double seconds;
	unsigned long ios;
	unsigned int seed;
	int err;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *reader(void *arg)
{
	struct reader *rd = arg;
	uint64_t blocks = rd->count / IO_SIZE;
	double end = now() + rd->seconds;
	void *buf;

	if (posix_memalign(&buf, IO_SIZE, IO_SIZE)) {
		rd->err = ENOMEM;
		return NULL;
	}
	while (now() < end) {
		uint64_t b = rand_r(&rd->seed) % blocks;

		if (pread(rd->fd, buf, IO_SIZE, rd->first + b * IO_SIZE) !=
		    IO_SIZE) {
			rd->err = errno ? errno : EIO;
			break;
		}
		rd->ios++;
	}
	free(buf);
	return NULL;
}

/* Two threads for SECONDS, reading in ranges a and b; 0 on success. */
static int run_pair(int fd, const struct range *r, int a, int b,
		    double seconds)
{
	struct reader rd[2] = {
		{ fd, r[a].sector * 512, r[a].nr_sectors * 512, seconds, 0, 1, 0 },
		{ fd, r[b].sector * 512, r[b].nr_sectors * 512, seconds, 0, 2, 0 },
	};
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, reader, &rd[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++) {
		if (rd[i].err) {
			fprintf(stderr, "iaranges: read: %s\n",
				strerror(rd[i].err));
			return -1;
		}
	}
	printf("ranges %d+%d: %8.0f + %8.0f reads/s = %8.0f reads/s\n", a, b,
	       rd[0].ios / seconds, rd[1].ios / seconds,
	       (rd[0].ios + rd[1].ios) / seconds);
	return 0;
}

static int load(const struct range *r, int n, double seconds)
{
	char dev[64];
	int fd, ret;

	if (n < 2) {
		fprintf(stderr, "iaranges: %s: two ranges are needed\n", disk);
		return 3;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", disk);
	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "iaranges: %s: %s\n", dev, strerror(errno));
		return 3;
	}
	ret = run_pair(fd, r, 0, 0, seconds) || run_pair(fd, r, 0, 1, seconds);
	close(fd);
	return ret ? 3 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: iaranges [-q] DISK\n"
		"       iaranges -l SECONDS DISK\n");
	exit(3);
}

int main(int argc, char **argv)
{
	static struct range r[MAX_RANGES];
	char sys[256];
	double seconds = 0;
	int quiet = 0, opt, n;

	while ((opt = getopt(argc, argv, "ql:")) != -1) {
		switch (opt) {
		case 'q':
			quiet = 1;
			break;
		case 'l':
			seconds = atof(optarg);
			if (seconds <= 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	disk = argv[optind];

	if (getenv("IARANGES_SYSFS"))
		sysfs = getenv("IARANGES_SYSFS");
	snprintf(sys, sizeof(sys), "%s/block/%s", sysfs, disk);
	if (access(sys, F_OK)) {
		fprintf(stderr, "iaranges: no disk %s in %s/block\n", disk,
			sysfs);
		return 3;
	}
	n = load_ranges(r);
	if (n < 0) {
		fprintf(stderr, "iaranges: %s: cannot read its ranges: %s\n",
			disk, strerror(errno));
		return 3;
	}
	if (n == 0) {
		if (!quiet)
			printf("%s has no independent access ranges\n", disk);
		return 2;
	}
	if (seconds > 0)
		return load(r, n, seconds);
	check(r, n, quiet);
	return broken ? 1 : 0;
}
