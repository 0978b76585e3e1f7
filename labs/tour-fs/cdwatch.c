// SPDX-License-Identifier: GPL-2.0
/*
 * cdwatch: ask a CD drive whether its media changed, the old way or the
 * 5.16 way.
 *
 *   cdwatch old DEVICE          CDROM_MEDIA_CHANGED: "changed 0|1"
 *   cdwatch timed DEVICE SINCE  CDROM_TIMED_MEDIA_CHANGE with SINCE (ms):
 *                               "last N changed 0|1"
 *   cdwatch uptime              the monotonic clock in ms, the clock the
 *                               driver stamps changes with
 *
 * The device is opened with O_NONBLOCK, as a media player would, so that
 * an empty tray does not make open() fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/cdrom.h>

static int open_drive(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "cdwatch: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

static int old_style(const char *path)
{
	int fd = open_drive(path);
	int ret = ioctl(fd, CDROM_MEDIA_CHANGED, CDSL_CURRENT);

	if (ret < 0) {
		fprintf(stderr, "cdwatch: CDROM_MEDIA_CHANGED: %s\n", strerror(errno));
		return 1;
	}
	printf("changed %d\n", ret);
	close(fd);
	return 0;
}

static int timed(const char *path, const char *since)
{
	struct cdrom_timed_media_change_info info = { 0 };
	int fd = open_drive(path);

	info.last_media_change = strtoll(since, NULL, 10);
	if (ioctl(fd, CDROM_TIMED_MEDIA_CHANGE, &info) < 0) {
		fprintf(stderr, "cdwatch: CDROM_TIMED_MEDIA_CHANGE: %s\n", strerror(errno));
		return 1;
	}
	printf("last %lld changed %d\n", (long long)info.last_media_change,
	       !!(info.media_flags & MEDIA_CHANGED_FLAG));
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec ts;

	if (argc == 2 && !strcmp(argv[1], "uptime")) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("%lld\n", (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "old"))
		return old_style(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "timed"))
		return timed(argv[2], argv[3]);
	fprintf(stderr, "usage: cdwatch old DEVICE | timed DEVICE SINCE_MS | uptime\n");
	return 2;
}
