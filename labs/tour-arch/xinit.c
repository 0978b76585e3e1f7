// SPDX-License-Identifier: GPL-2.0
/*
 * xinit: the first and only program of tour-arch's guests (Arm, MIPS,
 * PA-RISC, RISC-V), cross-compiled and linked statically, since none of
 * these guests has a C library or a shell of its own.
 *
 * It runs the steps of one guest, named by wb.guest=NAME on the kernel
 * command line, from the file /steps/NAME of its initramfs, then
 * restarts the machine, which QEMU (-no-reboot) turns into an exit.
 * A step is one line:
 *
 *   == title, # comment   printed as they are
 *   cat FILE...           each file, as cat(1) prints it
 *   grep WORD FILE...     the lines holding WORD ("." : every non-empty
 *                         line), after "FILE:" when there are several
 *                         files, as grep(1) prints them; WORD is letters,
 *                         digits, _ and - only, where grep's regular
 *                         expression and a plain search agree
 *   echo WORD > FILE      WORD and a newline written to FILE
 *   insmod FILE [ARG...]  a module loaded, with its parameters
 *   rmmod NAME            the module NAME unloaded
 *   dmesg [| grep WORD]   the kernel's log (the lines holding WORD)
 *   dmesg -C              the kernel's log emptied
 *   sync                  sync(2) (a place for a breakpoint)
 *   sleep SECONDS         a pause (for something the host does)
 *   anything else         a program of the initramfs, run and waited for
 *
 * It refuses to run unless it is process 1 (the init of a guest's
 * kernel): its steps load modules and write sysctls.
 *
 * Every command is printed first, after "# " as the other tours print
 * theirs. Words are separated by blanks, except within double quotes,
 * which stay in the word (insmod passes them on, and the kernel's
 * parameter parser takes them off); a word holding *, ? or [ is a
 * pattern, replaced by the files it matches, as a shell would.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WORDS 64
/* klogctl(2)'s actions (the kernel's are not in its UAPI headers) */
#define LOG_READ_ALL 3
#define LOG_CLEAR 5

static char *words[MAX_WORDS];
static int nwords;
static glob_t matches;

/* The next word of *LINE, cut at a blank outside double quotes, or NULL. */
static char *next_word(char **line)
{
	char *p = *line + strspn(*line, " \t"), *w = p;
	int quoted = 0;

	if (!*p)
		return NULL;
	for (; *p && (quoted || (*p != ' ' && *p != '\t')); p++)
		if (*p == '"')
			quoted = !quoted;
	if (*p)
		*p++ = '\0';
	*line = p;
	return w;
}

/* Split LINE into words, expanding patterns; false when there are too many. */
static int split(char *line)
{
	char *w;
	int flags = 0;
	size_t i;

	nwords = 0;
	globfree(&matches);
	memset(&matches, 0, sizeof(matches));
	while ((w = next_word(&line))) {
		if (strpbrk(w, "*?[")) {
			glob(w, flags | GLOB_NOCHECK, NULL, &matches);
			flags = GLOB_APPEND;
		} else {
			glob(w, flags | GLOB_NOCHECK | GLOB_NOESCAPE | GLOB_NOMAGIC, NULL,
			     &matches);
			flags = GLOB_APPEND;
		}
	}
	if (matches.gl_pathc >= MAX_WORDS)
		return 0;
	for (i = 0; i < matches.gl_pathc; i++)
		words[nwords++] = matches.gl_pathv[i];
	words[nwords] = NULL;
	return 1;
}

/* Print PATH's lines holding WORD (NULL: all, "." every non-empty one). */
static int cat(const char *path, const char *prefix, const char *word)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("%s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (word && !strcmp(word, ".") ? line[0] == '\n' :
		    word && !strstr(line, word))
			continue;
		printf("%s%s", prefix, line);
		if (!strchr(line, '\n'))
			putchar('\n');
	}
	fclose(f);
	return 0;
}

/* WORD is one that grep's regular expression matches as plain text. */
static int plain(const char *word)
{
	static const char plain_chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

	return word[0] && word[strspn(word, plain_chars)] == '\0' && word[0] != '-';
}

static int write_word(const char *word, const char *path)
{
	int fd = open(path, O_WRONLY);
	size_t n = strlen(word);
	int bad;

	if (fd < 0) {
		printf("%s: %s\n", path, strerror(errno));
		return 1;
	}
	bad = write(fd, word, n) != (ssize_t)n || write(fd, "\n", 1) != 1;
	if (bad)
		printf("echo: %s\n", strerror(errno));
	close(fd);
	return bad;
}

static int insmod(const char *path, char **params)
{
	char args[1024] = "";
	int fd, i;

	for (i = 0; params[i]; i++) {
		if (strlen(args) + strlen(params[i]) + 2 > sizeof(args))
			break;
		if (i)
			strcat(args, " ");
		strcat(args, params[i]);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, args, 0)) {
		printf("insmod: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

/* The kernel's log, without the level of each line; WORD as for cat(). */
static int dmesg(const char *word)
{
	static char buf[1 << 18];
	char *line, *save = NULL;
	int n = klogctl(LOG_READ_ALL, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("dmesg: %s\n", strerror(errno));
		return 1;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '<' && strchr(line, '>'))
			line = strchr(line, '>') + 1;
		if (!word || strstr(line, word))
			puts(line);
	}
	return 0;
}

static int spawn(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		printf("%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void step(char *line)
{
	char prefix[512];
	int i, rc = 0;

	if (!strncmp(line, "==", 2) || line[0] == '#') {
		puts(line);
		return;
	}
	printf("# %s\n", line);
	fflush(stdout);
	if (!split(line)) {
		puts("xinit: too many words");
		return;
	}
	if (!nwords)
		return;
	if (!strcmp(words[0], "cat")) {
		for (i = 1; i < nwords; i++)
			rc |= cat(words[i], "", NULL);
	} else if (!strcmp(words[0], "grep") && nwords > 2 &&
		   (!strcmp(words[1], ".") || plain(words[1]))) {
		for (i = 2; i < nwords; i++) {
			snprintf(prefix, sizeof(prefix), "%s:", words[i]);
			rc |= cat(words[i], nwords > 3 ? prefix : "", words[1]);
		}
	} else if (!strcmp(words[0], "echo") && nwords == 4 && !strcmp(words[2], ">")) {
		rc = write_word(words[1], words[3]);
	} else if (!strcmp(words[0], "insmod") && nwords > 1) {
		rc = insmod(words[1], words + 2);
	} else if (!strcmp(words[0], "rmmod") && nwords == 2) {
		rc = syscall(SYS_delete_module, words[1], O_NONBLOCK) ? 1 : 0;
		if (rc)
			printf("rmmod: %s: %s\n", words[1], strerror(errno));
	} else if (!strcmp(words[0], "dmesg") && nwords == 2 && !strcmp(words[1], "-C")) {
		rc = klogctl(LOG_CLEAR, NULL, 0) ? 1 : 0;
	} else if (!strcmp(words[0], "dmesg") && (nwords == 1 || (nwords == 4 &&
		   !strcmp(words[1], "|") && !strcmp(words[2], "grep") && plain(words[3])))) {
		rc = dmesg(nwords == 4 ? words[3] : NULL);
	} else if (!strcmp(words[0], "sync")) {
		sync();
	} else if (!strcmp(words[0], "sleep") && nwords == 2) {
		sleep(atoi(words[1]));
	} else {
		rc = spawn(words);
	}
	fflush(stdout);
	if (rc)
		printf("# status %d\n", rc);
}

int main(void)
{
	char cmdline[1024] = "", path[128], line[1024], *g, *end;
	FILE *f;

	if (getpid() != 1) {
		fputs("xinit: refusing to run: it is only the init of tour-arch's guests (make lab LAB=tour-arch)\n",
		      stderr);
		return 1;
	}
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	g = strstr(cmdline, "wb.guest=");
	if (!g) {
		puts("xinit: no wb.guest=NAME on the kernel command line");
		goto out;
	}
	g += strlen("wb.guest=");
	end = g + strcspn(g, " \n");
	*end = '\0';
	snprintf(path, sizeof(path), "/steps/%s", g);
	f = fopen(path, "r");
	if (!f) {
		printf("xinit: %s: %s\n", path, strerror(errno));
		goto out;
	}
	puts("WB-STEPS-BEGIN");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			step(line);
	}
	fclose(f);
	puts("WB-STEPS-END 0");
out:
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
