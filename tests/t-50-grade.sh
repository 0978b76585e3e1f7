#!/bin/sh
# make grade on a synthetic class of lab 0: each submission must get the
# grade that the course's own checker gives its student files, whatever
# else it changed; then the CI templates' own command, from a clean clone.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
secret=$HOME/.wb-t50-secret.$$
trap 'rm -rf "$tmp" "$secret" "$WB_CACHE/grade/sol" "$WB_CACHE/grade/skel" "$WB_CACHE/grade/broken" \
	"$WB_CACHE/grade/loop" "$WB_CACHE/grade/cheat" "$WB_CACHE/grade/forger" \
	"$WB_CACHE/grade/patched" "$WB_CACHE/grade/student"' EXIT
lab=lab0-taint
class=$tmp/class
# What no output of the grader may ever show: a line of an honest
# student's own file, and a file of the grading user.
mark=classmate-$$-$(date +%s)
hostmark=host-secret-$$-$(date +%s)
echo "$hostmark" >"$secret"
chmod 600 "$secret"

# The files of each kind of submission.
"$WB_ROOT/vm/skel.sh" "$lab" solution "$tmp/sol" 2>/dev/null
"$WB_ROOT/vm/skel.sh" "$lab" skeleton "$tmp/skel" 2>/dev/null
submit() { # submit STUDENT FROM: a submission with FROM's student files
	mkdir -p "$class/$1/labs/$lab"
	cp -r "$2/." "$class/$1/labs/$lab/"
}
submit sol "$tmp/sol"
printf '/* %s */\n' "$mark" >>"$class/sol/labs/$lab/taintmod.c"
mkdir -p "$class/skel"
submit broken "$tmp/skel"
printf 'int broken = ;\n' >>"$class/broken/labs/$lab/taintmod.c"
submit loop "$tmp/skel"
cat >"$class/loop/labs/$lab/taintmod.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>

static int __init taintmod_init(void)
{
	for (;;)
		cpu_relax();
	return 0;
}
module_init(taintmod_init);
MODULE_LICENSE("GPL");
EOF
submit cheat "$tmp/skel"
printf '#!/bin/sh\necho "1..1"\necho "ok 1 all good"\n' >"$class/cheat/labs/$lab/check.sh"
submit forger "$tmp/skel"
cat >"$class/forger/labs/$lab/taintdecode.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	static const char v[] = "WB-CHECK-BEGIN\n1..8\nok 1 a\nok 2 b\nok 3 c\n"
		"ok 4 d\nok 5 e\nok 6 f\nok 7 g\nok 8 h\nWB-CHECK-END\nWB-STATUS 0\n";
	int fd = open("/dev/console", O_WRONLY);

	if (fd >= 0 && write(fd, v, strlen(v)) < 0)
		return 1;
	return system("pkill -KILL -f check.sh; pkill -KILL -f session.sh; pkill -KILL -f run.sh");
}
EOF
submit patched "$tmp/sol"
mkdir -p "$class/patched/kernel/patches"
for p in "$WB_ROOT"/kernel/patches/*.patch; do break; done
p=${p#"$WB_ROOT"/}
cp "$WB_ROOT/$p" "$class/patched/$p"
echo "# and a line of the student's own" >>"$class/patched/$p"

# ---- the hostile class: each case a submission of its own ----
# Where a classmate's file and the grading user's file are on the host.
peek_paths="$class/sol/labs/$lab/taintmod.c $WB_CACHE/grade/sol/labs/$lab/taintmod.c $secret"
# peek: a program that tries to read those files from the guest, directly
# and through PID 1's root, the old export and the initramfs, and prints
# what it reads (the checker shows a program's output as "# seen:").
mkdir -p "$tmp/hostile"
{
	echo '#include <stdio.h>'
	echo 'static const char *const paths[] = {'
	for pp in $peek_paths; do
		for pre in "" /proc/1/root /host /newroot /proc/self/root; do
			printf '\t"%s%s",\n' "$pre" "$pp"
		done
	done
	echo '};'
	cat <<'EOF2'
int main(void)
{
	char buf[4096];
	unsigned int i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		FILE *f = fopen(paths[i], "r");
		size_t n;

		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		printf("%s: %s\n", paths[i], buf);
		fclose(f);
	}
	return 0;
}
EOF2
} >"$tmp/hostile/peek.c"
submit peek "$tmp/skel"
cp "$tmp/hostile/peek.c" "$class/peek/labs/$lab/taintdecode.c"
# peekcc: the compiler asked for the same files: an include of the
# classmate's staged file and raw inclusion of the grader's file.
submit peekcc "$tmp/skel"
printf '#include "%s"\n' "$WB_CACHE/grade/sol/labs/$lab/taintmod.c" "$class/sol/labs/$lab/taintmod.c" \
	>>"$class/peekcc/labs/$lab/taintmod.c"
printf 'asm(".incbin \\"%s\\"");\n' "$secret" >>"$class/peekcc/labs/$lab/taintdecode.c"
# link: a student file that is a link to a classmate's; zero: a kernel
# file that is a link to /dev/zero (the grader must not read it).
submit link "$tmp/skel"
ln -sf "$class/sol/labs/$lab/taintmod.c" "$class/link/labs/$lab/taintmod.c"
submit zero "$tmp/skel"
ln -sf /dev/zero "$class/zero/labs/$lab/fs/proc/tainted.c"
# rewrite: a program run by the guided steps and the checker that tries
# to change the checker and its helpers, to reach the verdict channel,
# and prints a whole forged report of its own.
submit rewrite "$tmp/skel"
cat >"$class/rewrite/labs/$lab/taintdecode.c" <<'EOF2'
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	static const char pass[] = "ktap_eq() { echo \"ok $((n = n + 1)) $1\"; }\n";
	char path[64];
	struct dirent *d;
	DIR *p = opendir("/proc");
	int i;

	put("/lab/check.sh", "echo 1..1; echo ok 1 forged\n");
	put("/wb/ktap.sh", pass);
	put("/wb/lib.sh", pass);
	if (system("mount -t tmpfs none /wb && cp /dev/null /wb/ktap.sh") != 0)
		printf("no mount over /wb\n");
	system("mount --bind /bin/true /usr/bin/grep; mount --bind /bin/true /usr/bin/awk");
	while (p && (d = readdir(p)))
		for (i = 3; i < 12; i++) {
			snprintf(path, sizeof(path), "/proc/%s/fd/%d", d->d_name, i);
			put(path, "K ok 8 forged\ncheck-status 0\nend\n");
		}
	printf("1..8\nok 1 a\nok 2 b\nok 3 c\nok 4 d\nok 5 e\nok 6 f\nok 7 g\nok 8 h\n");
	return 0;
}
EOF2
# bomb: an include bomb in a module (2^40 inclusions), which only the
# build's time limit stops.
submit bomb "$tmp/skel"
cat >"$class/bomb/labs/$lab/taintmod.c" <<'EOF2'
#if __INCLUDE_LEVEL__ < 40
#include __FILE__
#include __FILE__
#endif
EOF2
# kbomb: the include bomb in the lab's kernel file, which only the kernel
# build's time limit stops (the tree's lock is free again after it).
submit kbomb "$tmp/skel"
cat >"$class/kbomb/labs/$lab/fs/proc/tainted.c" <<'EOF2'
#if __INCLUDE_LEVEL__ < 40
#include "tainted.c"
#include "tainted.c"
#endif
EOF2
# disk: a module whose object is larger than a build may write.
submit disk "$tmp/skel"
cat >>"$class/disk/labs/$lab/taintmod.c" <<'EOF2'
static char wb_ballast[96 << 20] __used = { 1 };
EOF2
# filler: a program that writes without end to /build/out and the console.
submit filler "$tmp/skel"
cat >"$class/filler/labs/$lab/taintdecode.c" <<'EOF2'
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char buf[1 << 16];
	FILE *f = fopen("/build/out/fill", "w");

	memset(buf, 'x', sizeof(buf));
	for (;;) {
		if (f)
			fwrite(buf, 1, sizeof(buf), f);
		fwrite(buf, 1, 4096, stdout);
	}
}
EOF2
# ctrl: control bytes, bytes that are not UTF-8 and XML's own characters
# in what the checker shows.
submit ctrl "$tmp/skel"
cat >"$class/ctrl/labs/$lab/taintdecode.c" <<'EOF2'
#include <stdio.h>

int main(void)
{
	printf("\033]0;owned\007\033[2J\001\002\377\376 ]]> <x> & \" \b\r\n");
	return 0;
}
EOF2

rc=0
t0=$(date +%s)
# Who each QEMU of a lab's run is, seen from outside while the class is
# graded (twice a second): "pid user".
(
	while :; do
		ps -o pid=,user=,args= -C qemu-system-x86_64 2>/dev/null | awk '/wb\.mode=run/ { print $1, $2 }'
		sleep 0.5
	done
) >"$tmp/qemu-users" 2>/dev/null &
watcher=$!
# KEEP=1: the staged files stay where a hostile guest would look for
# them, and the run folders for the checks of leftovers below.
SUBMISSIONS=$class LABS=$lab OUT=$tmp/out JOBS=2 WB_BUILD_LIMIT=20 WB_KBUILD_LIMIT=60 \
	WB_JAIL_DISK=33554432 WB_OUT_LIMIT=8192 \
	WB_CONSOLE_LIMIT=4194304 KEEP=1 "$WB_ROOT/vm/grade.sh" >"$tmp/grade.out" 2>&1 || rc=$?
elapsed=$(($(date +%s) - t0))
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
t_status "make grade grades the class and exits 0" 0 "$rc"
row() { awk -F, -v s="$1" '$1 == s { print $3, $4, $5 }' "$tmp/out/grades.csv"; }
# t_row DESCRIPTION EXPECTED STUDENT: the student's row is "points max
# status"; when it is not, the student's feedback and the end of the
# job's log (kept by KEEP=1) say why.
t_row() {
	local seen
	seen=$(row "$3")
	if [ "$2" = "$seen" ]; then
		t_ok "$1"
	else
		t_fail "$1" "expected $2, seen $seen" "$(head -n 25 "$tmp/out/$3.txt" 2>/dev/null)" \
			"$(tail -n 25 "$WB_CACHE/grade/$3/$lab.log" 2>/dev/null)"
	fi
}
max=$(row sol | cut -d' ' -f2)
t_grep "grades.csv has the header student,lab,points,max,status,sha256" '^student,lab,points,max,status,sha256$' \
	"$tmp/out/grades.csv"
skel=$(row skel)
t_row "the solution earns every point of the checker, pass" "$max $max pass" sol
case $skel in
[0-9]*" $max fail") t_ok "the untouched skeleton fails with the skeleton's points ($skel)" ;;
*) t_fail "the untouched skeleton fails with the skeleton's points" "N $max fail" "$skel" ;;
esac
t_row "a module that does not build: build-error, no points" "0 $max build-error" broken
t_row "a module that loops for ever: timeout, no points" "0 $max timeout" loop
t_row "an edited check.sh is ignored: the skeleton's points, ignored-changes" \
	"${skel%% *} $max ignored-changes" cheat
t_grep "the feedback lists the ignored check.sh" "labs/$lab/check.sh" "$tmp/out/cheat.txt"
t_row "a program that forges a verdict on the console and kills the session: fail, no points" \
	"0 $max fail" forger
t_row "an edited kernel patch is ignored: the solution's points, ignored-changes" \
	"$max $max ignored-changes" patched
t_grep "the feedback lists the ignored patch" "$p" "$tmp/out/patched.txt"
t_grep "the feedback of a build error shows the compiler" 'error' "$tmp/out/broken.txt"
if python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' \
	"$tmp"/out/*.xml 2>"$tmp/xml.err"; then
	t_ok "every JUnit file is well-formed XML"
else
	t_fail "every JUnit file is well-formed XML" "parsed" "$(cat "$tmp/xml.err")"
fi
# The hostile class.
nsub=$(find "$class" -mindepth 1 -maxdepth 1 -type d | wc -l)
# hostile STUDENT WHAT STATUS POINTS: the row has that status and at most
# POINTS (each hostile submission is the skeleton but for its trick: it
# earns no more than the skeleton, or nothing at all).
hostile() {
	local r
	r=$(row "$1")
	if [ "${r##* }" = "$3" ] && [ "${r%% *}" -le "$4" ]; then
		t_ok "$2: $3, ${r%% *} points (at most $4)"
	else
		t_fail "$2: $3, at most $4 points" "<= $4 $max $3" "$r"
	fi
}
hostile peek "a program reading a classmate's file and the grader's from the guest" fail "${skel%% *}"
hostile peekcc "a module including a classmate's staged file, a program including the grader's" build-error 0
hostile link "a student file that is a link to a classmate's" invalid-submission 0
hostile zero "a kernel file that is a link to /dev/zero" invalid-submission 0
hostile bomb "an include bomb" build-error 0
hostile kbomb "an include bomb in the kernel file" build-error 0
hostile disk "a module larger than a build may write" build-error 0
t_grep "the kernel file's bomb is stopped by the kernel build's limit" \
	'the kernel build did not finish within its limit \(WB_KBUILD_LIMIT, 60 s\)' \
	"$tmp/out/kbomb.txt"
t_grep "the module's build ran out of its disk budget" 'No space left on device' "$tmp/out/disk.txt"
used=$(du -sk "$WB_CACHE/grade/disk" | cut -f1)
if [ "$used" -le $((32768 + 4096)) ]; then
	t_ok "its build left $used KiB on the disk (budget: 32768 KiB)"
else
	t_fail "its build left at most the budget on the disk" "<= 36864 KiB" "$used KiB"
fi
hostile filler "a program that fills /build/out and the console" fail 0
hostile rewrite "a program rewriting the checker, its helpers and the channel" fail "${skel%% *}"
t_grep "the rewrite's forged results are seen as not the course checker's, or fail" 'not ok 8' "$tmp/out/rewrite.txt"
t_row "the honest solution keeps every point beside them" "$max $max pass" sol
if [ "$(id -u)" = 0 ]; then
	# Run as root, the grader starts each QEMU as root, for the moment
	# it opens its files, and QEMU then becomes nobody for good: the
	# last time ps sees each QEMU, it is nobody's.
	last=$(awk '{ u[$1] = $2 } END { for (p in u) print u[p] }' "$tmp/qemu-users" | sort | uniq -c |
		awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')
	if [ -s "$tmp/qemu-users" ] && [ "$(awk '{ u[$1] = $2 } END { for (p in u) print u[p] }' \
		"$tmp/qemu-users" | sort -u)" = nobody ]; then
		t_ok "as root, every QEMU of a lab's run ended as nobody's (last seen by ps: $last; $(grep -c ' root$' "$tmp/qemu-users") samples of root before the drop)"
	else
		t_fail "as root, every QEMU of a lab's run ended as nobody's" "nobody only" "${last:-no QEMU seen}"
	fi
fi
leak=$(grep -rlF -e "$mark" -e "$hostmark" "$tmp/out" "$tmp/grade.out" 2>/dev/null)
t_status "no output of the grader shows a byte of a classmate's file or of the grader's" "" "$leak"
leak=$(find "$WB_CACHE/grade" -name '*.log' -newer "$secret" -exec grep -lF -e "$hostmark" {} + 2>/dev/null)
t_status "nor does any log of the runs" "" "$leak"
t_grep "the invalid submission's feedback says why" 'is a link, not a file' "$tmp/out/link.txt"
if LC_ALL=C grep -lP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]' "$tmp"/out/*.txt "$tmp"/out/*.xml >"$tmp/ctl" 2>/dev/null; then
	t_fail "no control byte reaches the feedback or the JUnit files" "none" "$(cat "$tmp/ctl")"
else
	t_ok "no control byte reaches the feedback or the JUnit files"
fi
limit=$(WB_LABS=$WB_ROOT/labs wb_manifest "$lab" TIMEOUT)
bound=$(((nsub * (limit + 20) + 40) * 11 / 10 / 2))
if [ "$elapsed" -le "$bound" ]; then
	t_ok "the class of $nsub, 2 VMs at a time, finished in $elapsed s (bound: $bound s)"
else
	t_fail "the class finishes within its limits" "<= $bound s" "$elapsed s"
fi
t_grep "grades.csv has a digest of each graded submission" "^sol,$lab,$max,$max,pass,[0-9a-f]{16}$" "$tmp/out/grades.csv"
t_grep "review.txt flags the program that reaches for the checker" "^rewrite,$lab,taintdecode.c:" "$tmp/out/review.txt"
t_grep "review.txt flags the include of another folder" "^peekcc,$lab,taintmod.c:" "$tmp/out/review.txt"
t_grep "the JUnit file has one test case per result, failures with their diagnostics" \
	'<failure message="taintmod refuses flag=19 with EINVAL">expected: ' "$tmp/out/skel.xml"
t_no_leftovers "no QEMU is left after grading" "$WB_CACHE/grade/loop/run/$lab"

# The templates. The two that grade live in the course's repository and
# run one command; the student's own is advisory, uses no token, and no
# checkout keeps its credentials where the students' code runs.
for f in gitlab-ci.yml github-course.yml; do
	t_grep "grading/$f runs grading/ci-job.sh" 'sh grading/ci-job.sh (gitlab|class)' "$WB_ROOT/grading/$f"
done
t_grep "grading/github-classroom.yml says it is advisory" 'ADVISORY FEEDBACK ONLY' \
	"$WB_ROOT/grading/github-classroom.yml"
t_status "grading/github-classroom.yml uses no token or secret" "" \
	"$(grep -nE 'token:|secrets\.' "$WB_ROOT/grading/github-classroom.yml")"
for f in github-classroom.yml github-course.yml; do
	t_status "every checkout in grading/$f has persist-credentials: false" \
		"$(grep -c 'uses: actions/checkout' "$WB_ROOT/grading/$f")" \
		"$(grep -c 'persist-credentials: false' "$WB_ROOT/grading/$f")"
done
t_status "grading/gitlab-ci.yml puts no WB_CACHE inside the checkout" "" \
	"$(grep -n 'WB_CACHE:' "$WB_ROOT/grading/gitlab-ci.yml")"
git clone -q "$WB_ROOT" "$tmp/course"
for s in sol skel; do
	git init -q "$tmp/repos/$s"
	cp -r "$class/$s/." "$tmp/repos/$s/" 2>/dev/null || :
	(cd "$tmp/repos/$s" && git add -A && git -c user.name=s -c user.email=s@example.org \
		commit -q --allow-empty -m work)
done
printf 'sol %s\nskel %s\n' "$tmp/repos/sol" "$tmp/repos/skel" >"$tmp/class.txt"
# GitLab: the job in the course's clean clone, one shard of two.
rc=0
(cd "$tmp/course" && CLASS_LIST=$tmp/class.txt CI_NODE_INDEX=2 CI_NODE_TOTAL=2 LABS=$lab \
	WB_CACHE=$WB_CACHE sh grading/ci-job.sh gitlab) >"$tmp/gitlab.out" 2>&1 || rc=$?
t_status "the GitLab job (sh grading/ci-job.sh gitlab) grades its shard from a clean clone" 0 "$rc"
t_status "shard 2 of 2 of a class of two is the second student, with the course's grade" \
	"$max $max pass" "$(awk -F, 'NR > 1 { print $3, $4, $5 }' "$tmp/course/grades/grades.csv")"
t_status "no clone keeps its .git (and a token in it)" "" \
	"$(find "$tmp/course/submissions" -name .git 2>/dev/null)"
t_status "without KEEP=1, no staged file or run folder of a graded student stays" "" \
	"$(find "$WB_CACHE/grade" -mindepth 3 -maxdepth 3 \( -path '*/labs/*' -o -path '*/run/*' \) \
		! -path "$WB_CACHE/grade/.*" 2>/dev/null)"
# GitHub: the course's workflow grades the whole class of two.
git clone -q "$WB_ROOT" "$tmp/github"
rc=0
(cd "$tmp/github" && CLASS_LIST=$tmp/class.txt SHARD=1/1 LABS=$lab sh grading/ci-job.sh class) \
	>"$tmp/github.out" 2>&1 || rc=$?
t_status "the GitHub course job (sh grading/ci-job.sh class) grades the class from a clean clone" 0 "$rc"
t_status "both students have the course's grade" "skel ${skel%% *} $max fail/sol $max $max pass" \
	"$(awk -F, 'NR > 1 { print $1, $3, $4, $5 }' "$tmp/github/grades/grades.csv" | paste -sd/)"
key=$(sh "$tmp/course/grading/ci-job.sh" key)
case $key in
wb-kernel-*-[0-9a-f]*) t_ok "the kernel cache key names Debian's version and the config ($key)" ;;
*) t_fail "the kernel cache key names Debian's version and the config" "wb-kernel-VERSION-DIGEST" "$key" ;;
esac
t_done
