// SPDX-License-Identifier: GPL-2.0
/*
 * waitv: sleep on several futexes with one futex_waitv() call (system
 * call 449 on x86-64; Debian 12's C library has no wrapper for it).
 *
 *   waitv wake N K       wait on N futex words, all 0; a second thread
 *                        wakes word K with an ordinary FUTEX_WAKE
 *   waitv stale N K      the same, but the value expected for word K is 1
 *                        while the word holds 0: the call must not sleep
 *   waitv timeout N MS   nobody wakes anything: the absolute
 *                        CLOCK_MONOTONIC deadline MS ms from now ends it
 *
 * The futexes are private (FUTEX_PRIVATE_FLAG): they live in this
 * process only. struct futex_waitv and FUTEX_32 come from the C
 * library's <linux/futex.h> (Debian's linux-libc-dev 6.1).
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

static uint32_t words[FUTEX_WAITV_MAX];
static unsigned int wake_index;
static int woken, tries;

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * The waker cannot know when the main thread is asleep, and changing the
 * word first would make the sleeper see a stale value instead of a wake.
 * So it leaves the word alone and repeats FUTEX_WAKE until the call
 * reports that it woke somebody: only a queued waiter counts.
 */
static void *waker(void *arg)
{
	(void)arg;
	while (woken == 0 && tries < 5000) {
		tries++;
		woken = syscall(SYS_futex, &words[wake_index], FUTEX_WAKE_PRIVATE,
				1, NULL, NULL, 0);
		if (woken == 0)
			usleep(1000);
	}
	return NULL;
}

static const char *errname(int e)
{
	switch (e) {
	case EAGAIN:
		return "EAGAIN";
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EINVAL:
		return "EINVAL";
	case EINTR:
		return "EINTR";
	}
	return "?";
}

int main(int argc, char **argv)
{
	struct futex_waitv w[FUTEX_WAITV_MAX];
	struct timespec deadline;
	unsigned int n, i, arg;
	pthread_t thread;
	long ms = 5000, t0, ret;
	const char *mode;

	if (argc != 4) {
		fprintf(stderr, "usage: waitv wake|stale N K | waitv timeout N MS\n");
		return 2;
	}
	mode = argv[1];
	n = strtoul(argv[2], NULL, 0);
	arg = strtoul(argv[3], NULL, 0);
	if (n < 1 || n > FUTEX_WAITV_MAX ||
	    (strcmp(mode, "timeout") != 0 && arg >= n)) {
		fprintf(stderr, "waitv: N is 1..%d and K below N\n", FUTEX_WAITV_MAX);
		return 2;
	}
	if (strcmp(mode, "timeout") == 0)
		ms = arg;
	else
		wake_index = arg;

	memset(w, 0, sizeof(w));
	for (i = 0; i < n; i++) {
		w[i].uaddr = (uintptr_t)&words[i];
		w[i].val = 0;
		w[i].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
	}
	if (strcmp(mode, "stale") == 0)
		w[wake_index].val = 1;

	printf("waiting on %u futexes, expecting", n);
	for (i = 0; i < n && i < 8; i++)
		printf(" %llu", (unsigned long long)w[i].val);
	printf("%s (words hold 0), flags FUTEX_32|FUTEX_PRIVATE_FLAG\n", n > 8 ? " ..." : "");

	if (strcmp(mode, "wake") == 0 &&
	    pthread_create(&thread, NULL, waker, NULL) != 0) {
		perror("pthread_create");
		return 1;
	}

	t0 = now_ns();
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	ret = syscall(SYS_futex_waitv, w, n, 0, &deadline, CLOCK_MONOTONIC);
	if (ret < 0)
		printf("futex_waitv: -1, errno %s, after %ld ms\n", errname(errno),
		       (now_ns() - t0) / 1000000);
	else
		printf("futex_waitv: returned %ld, woken through futex %ld\n", ret, ret);

	if (strcmp(mode, "wake") == 0) {
		pthread_join(thread, NULL);
		printf("waker: FUTEX_WAKE on futex %u woke %d waiter(s), try %d\n",
		       wake_index, woken, tries);
	}
	return ret < 0 && strcmp(mode, "wake") == 0;
}
