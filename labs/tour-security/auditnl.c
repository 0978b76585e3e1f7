// SPDX-License-Identifier: GPL-2.0
/*
 * auditnl: a very small audit daemon for one event. It registers itself
 * with the kernel's audit subsystem over NETLINK_AUDIT, adds one rule
 * that matches only a child it forks, lets the child make one kind of
 * call, and prints every record of the events that rule produced.
 *
 *   auditnl openat2 DIR   openat2() creates DIR/made (RESOLVE_BENEATH |
 *                         RESOLVE_NO_SYMLINKS), then tries "../escape"
 *                         with RESOLVE_BENEATH; the rule: syscall openat2
 *   auditnl openat DIR    the same two names through plain openat();
 *                         the rule: syscall openat
 *   auditnl uring FILE    io_uring's IORING_OP_OPENAT reads FILE, sent
 *                         to the io-wq workers (IOSQE_ASYNC); the rule:
 *                         the io_uring filter, operation OPENAT
 *
 * The records arrive as netlink messages whose type is the record type
 * and whose text starts with "audit(SECONDS.MS:SERIAL): ". Records of
 * one event share the serial. auditnl prints, per event, one line per
 * record: "TYPE NAME FIELDS", without the time stamp.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEY "tour"
#define MAX_EVENTS 8

static int nl;
static unsigned int seq;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* Send one request and wait for the kernel's answer to it. */
static int request(int type, const void *data, size_t len)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	unsigned int mine = ++seq;

	memset(buf, 0, NLMSG_SPACE(len));
	nh->nlmsg_len = NLMSG_LENGTH(len);
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = mine;
	memcpy(NLMSG_DATA(nh), data, len);
	if (send(nl, buf, nh->nlmsg_len, 0) < 0)
		die("send");
	/* Records that kauditd had queued may come before the answer. */
	for (;;) {
		ssize_t n = recv(nl, buf, sizeof(buf), 0);

		if (n < 0)
			die("recv");
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_type == NLMSG_ERROR && nh->nlmsg_seq == mine)
				return e->error;
		}
	}
}

static void audit_set(__u32 enabled, __u32 pid)
{
	struct audit_status s = {
		.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID,
		.enabled = enabled,
		.pid = pid,
	};
	int err = request(AUDIT_SET, &s, sizeof(s));

	if (err) {
		errno = -err;
		die("AUDIT_SET");
	}
}

/*
 * One rule: on LIST, ALWAYS record, for call NR (a system call number or
 * an io_uring opcode), for the task group PID only, with the key KEY.
 */
static int rule(int type, __u32 list, int nr, pid_t pid, int b64)
{
	char buf[sizeof(struct audit_rule_data) + sizeof(KEY)];
	struct audit_rule_data *r = (struct audit_rule_data *)buf;
	__u32 n = 0;

	memset(buf, 0, sizeof(buf));
	r->flags = list;
	r->action = AUDIT_ALWAYS;
	r->mask[AUDIT_WORD(nr)] = AUDIT_BIT(nr);
	r->fields[n] = AUDIT_PID;
	r->fieldflags[n] = AUDIT_EQUAL;
	r->values[n++] = pid;
	if (b64) {
		r->fields[n] = AUDIT_ARCH;
		r->fieldflags[n] = AUDIT_EQUAL;
		r->values[n++] = AUDIT_ARCH_X86_64;
	}
	r->fields[n] = AUDIT_FILTERKEY;
	r->fieldflags[n] = AUDIT_EQUAL;
	r->values[n++] = strlen(KEY);
	r->field_count = n;
	r->buflen = strlen(KEY);
	memcpy(r->buf, KEY, strlen(KEY));
	return request(type, buf, sizeof(*r) + strlen(KEY));
}

static void try_open(const char *how, int dir, const char *name)
{
	struct open_how oh = {
		.flags = O_CREAT | O_WRONLY,
		.mode = 0640,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
	};
	long fd;

	if (!strcmp(how, "openat2")) {
		if (strstr(name, ".."))
			oh.resolve = RESOLVE_BENEATH;
		fd = syscall(SYS_openat2, dir, name, &oh, sizeof(oh));
	} else {
		fd = openat(dir, name, O_CREAT | O_WRONLY, 0640);
	}
	if (fd < 0)
		printf("child: %s(\"%s\") failed: %s\n", how, name, strerror(errno));
	else
		printf("child: %s(\"%s\") returned fd %ld\n", how, name, fd);
}

static void uring_open(const char *path)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret = io_uring_queue_init(4, &ring, 0);

	if (ret < 0) {
		printf("child: io_uring_queue_init: %s\n", strerror(-ret));
		return;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY, 0);
	io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
	io_uring_submit(&ring);
	ret = io_uring_wait_cqe(&ring, &cqe);
	if (ret == 0)
		ret = cqe->res;
	if (ret < 0)
		printf("child: IORING_OP_OPENAT failed: %s\n", strerror(-ret));
	else
		printf("child: IORING_OP_OPENAT returned fd %d\n", ret);
	io_uring_queue_exit(&ring);
}

/*
 * The child waits until its rule is in place. DIR was opened before the
 * fork: an open() of its own would be one more openat event.
 */
static void child(int go, const char *mode, const char *arg, int dir)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
	if (!strcmp(mode, "uring")) {
		uring_open(arg);
	} else {
		try_open(mode, dir, "made");
		try_open(mode, dir, "../escape");
	}
	fflush(stdout);
	_exit(0);
}

static const char *type_name(int type)
{
	switch (type) {
	case AUDIT_SYSCALL: return "SYSCALL";
	case AUDIT_PATH: return "PATH";
	case AUDIT_CWD: return "CWD";
	case AUDIT_EOE: return "EOE";
	case AUDIT_PROCTITLE: return "PROCTITLE";
	case AUDIT_URINGOP: return "URINGOP";
	case AUDIT_OPENAT2: return "OPENAT2";
	case AUDIT_CONFIG_CHANGE: return "CONFIG_CHANGE";
	default: return "OTHER";
	}
}

struct record {
	int type;
	unsigned long serial;
	char text[1024];
};

static struct record recs[256];
static int nrecs;

/* Whether record R belongs to the child PID's events (its serial does). */
static int of_child(const struct record *r, pid_t pid)
{
	char want[32];
	int i;

	snprintf(want, sizeof(want), " pid=%d ", pid);
	for (i = 0; i < nrecs; i++)
		if (recs[i].serial == r->serial && strstr(recs[i].text, want))
			return 1;
	return 0;
}

/* How many of the child's events are complete: their EOE has come. */
static int complete(pid_t pid)
{
	int i, n = 0;

	for (i = 0; i < nrecs; i++)
		if (recs[i].type == AUDIT_EOE && of_child(&recs[i], pid))
			n++;
	return n;
}

/*
 * Keep every record until WANT events of the child are complete, or
 * until nothing new has come for QUIET ms (kauditd sends the records
 * when it gets to run, which under emulation may be a while after the
 * child has exited). kauditd sends each record in a datagram of its own,
 * and its nlmsg_len leaves out the netlink header (audit_log_end() in
 * kernel/audit.c; auditd copes with the same quirk): the text is what
 * the datagram holds past the header, whatever nlmsg_len says.
 */
static void collect(pid_t pid, int want, int quiet)
{
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct pollfd p = { .fd = nl, .events = POLLIN };

	while (nrecs < 256 && complete(pid) < want && poll(&p, 1, quiet) == 1) {
		ssize_t n = recv(nl, buf, sizeof(buf), 0);
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;
		struct record *r = &recs[nrecs];
		char *colon, *body;
		size_t len;

		if (n < 0)
			die("recv");
		if (n < NLMSG_HDRLEN)
			continue;
		len = n - NLMSG_HDRLEN;
		if (len >= sizeof(r->text))
			len = sizeof(r->text) - 1;
		memcpy(r->text, NLMSG_DATA(nh), len);
		r->text[len] = '\0';
		colon = strchr(r->text, ':');
		body = strstr(r->text, "): ");
		if (strncmp(r->text, "audit(", 6) || !colon || !body)
			continue;
		r->type = nh->nlmsg_type;
		r->serial = strtoul(colon + 1, NULL, 10);
		memmove(r->text, body + 3, strlen(body + 3) + 1);
		nrecs++;
	}
}

/* Print the child's events, each with all its records, in arrival order. */
static void report(pid_t pid)
{
	unsigned long serials[MAX_EVENTS];
	int i, j, k, nev = 0;

	for (i = 0; i < nrecs && nev < MAX_EVENTS; i++) {
		if (!of_child(&recs[i], pid))
			continue;
		for (j = 0; j < nev && serials[j] != recs[i].serial; j++)
			;
		if (j == nev)
			serials[nev++] = recs[i].serial;
	}
	printf("events: %d\n", nev);
	for (j = 0; j < nev; j++) {
		printf("event %d:\n", j + 1);
		for (k = 0; k < nrecs; k++)
			if (recs[k].serial == serials[j])
				printf("  %d %s %s\n", recs[k].type,
				       type_name(recs[k].type), recs[k].text);
	}
}

int main(int argc, char **argv)
{
	int go[2], uring, err, status, dir = -1, nr;
	__u32 list;
	pid_t pid;

	if (argc != 3 || (strcmp(argv[1], "openat2") &&
			  strcmp(argv[1], "openat") && strcmp(argv[1], "uring"))) {
		fprintf(stderr, "usage: auditnl openat2|openat DIR | auditnl uring FILE\n");
		return 2;
	}
	uring = !strcmp(argv[1], "uring");
	list = uring ? AUDIT_FILTER_URING_EXIT : AUDIT_FILTER_EXIT;
	nr = uring ? IORING_OP_OPENAT :
	     !strcmp(argv[1], "openat2") ? SYS_openat2 : SYS_openat;
	/*
	 * Audit names the parent of a relative path after the task's working
	 * directory (audit_log_name() in kernel/auditsc.c), even when the
	 * path was relative to a descriptor: work from DIR, so that the PATH
	 * records name the directory that was searched.
	 */
	if (!uring) {
		dir = open(argv[2], O_PATH | O_DIRECTORY);
		if (dir < 0 || fchdir(dir))
			die(argv[2]);
	}
	nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (nl < 0)
		die("socket(NETLINK_AUDIT)");
	/*
	 * Enabled, with this process as the audit daemon: records go to this
	 * socket, not to the kernel log. A task gets the context that audit
	 * needs at fork, once audit has been enabled: fork after this.
	 */
	audit_set(1, getpid());
	if (pipe(go))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		child(go[0], argv[1], argv[2], dir);
	err = rule(AUDIT_ADD_RULE, list, nr, pid, !uring);
	if (err) {
		fprintf(stderr, "AUDIT_ADD_RULE: %s\n", strerror(-err));
		kill(pid, SIGKILL);
		audit_set(0, 0);
		return 2;
	}
	printf("rule: %s, %s = %s %d, pid=%d, key=%s\n",
	       uring ? "io_uring exit filter" : "syscall exit filter",
	       uring ? "IORING_OP_OPENAT" : argv[1],
	       uring ? "operation" : "syscall", nr, pid, KEY);
	fflush(stdout);
	if (write(go[1], "g", 1) != 1)
		die("write");
	waitpid(pid, &status, 0);
	/*
	 * The child makes two calls, or submits one request; then a short
	 * wait for anything more, so that an event too many would show.
	 */
	collect(pid, uring ? 1 : 2, 5000);
	collect(pid, MAX_EVENTS + 1, 200);
	rule(AUDIT_DEL_RULE, list, nr, pid, !uring);
	audit_set(0, 0);
	report(pid);
	return 0;
}
