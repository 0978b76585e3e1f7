#!/bin/sh
# make grade on a synthetic class of lab 0: each submission must get the
# grade that the course's own checker gives its student files, whatever
# else it changed; then the CI templates' own command, from a clean clone.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$WB_CACHE/grade/sol" "$WB_CACHE/grade/skel" "$WB_CACHE/grade/broken" \
	"$WB_CACHE/grade/loop" "$WB_CACHE/grade/cheat" "$WB_CACHE/grade/forger" \
	"$WB_CACHE/grade/patched" "$WB_CACHE/grade/student"' EXIT
lab=lab0-taint
class=$tmp/class

# The files of each kind of submission.
"$WB_ROOT/vm/skel.sh" "$lab" solution "$tmp/sol" 2>/dev/null
"$WB_ROOT/vm/skel.sh" "$lab" skeleton "$tmp/skel" 2>/dev/null
submit() { # submit STUDENT FROM: a submission with FROM's student files
	mkdir -p "$class/$1/labs/$lab"
	cp -r "$2/." "$class/$1/labs/$lab/"
}
submit sol "$tmp/sol"
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

rc=0
SUBMISSIONS=$class LABS=$lab OUT=$tmp/out JOBS=2 "$WB_ROOT/vm/grade.sh" >"$tmp/grade.out" 2>&1 || rc=$?
t_status "make grade grades the class and exits 0" 0 "$rc"
row() { awk -F, -v s="$1" '$1 == s { print $3, $4, $5 }' "$tmp/out/grades.csv"; }
max=$(row sol | cut -d' ' -f2)
t_grep "grades.csv has the header student,lab,points,max,status" '^student,lab,points,max,status$' \
	"$tmp/out/grades.csv"
skel=$(row skel)
t_status "the solution earns every point of the checker, pass" "$max $max pass" "$(row sol)"
case $skel in
[0-9]*" $max fail") t_ok "the untouched skeleton fails with the skeleton's points ($skel)" ;;
*) t_fail "the untouched skeleton fails with the skeleton's points" "N $max fail" "$skel" ;;
esac
t_status "a module that does not build: build-error, no points" "0 $max build-error" "$(row broken)"
t_status "a module that loops for ever: timeout, no points" "0 $max timeout" "$(row loop)"
t_status "an edited check.sh is ignored: the skeleton's points, ignored-changes" \
	"${skel%% *} $max ignored-changes" "$(row cheat)"
t_grep "the feedback lists the ignored check.sh" "labs/$lab/check.sh" "$tmp/out/cheat.txt"
t_status "a program that forges a verdict on the console and kills the session: fail, no points" \
	"0 $max fail" "$(row forger)"
t_status "an edited kernel patch is ignored: the solution's points, ignored-changes" \
	"$max $max ignored-changes" "$(row patched)"
t_grep "the feedback lists the ignored patch" "$p" "$tmp/out/patched.txt"
t_grep "the feedback of a build error shows the compiler" 'error' "$tmp/out/broken.txt"
if python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' \
	"$tmp"/out/*.xml 2>"$tmp/xml.err"; then
	t_ok "every JUnit file is well-formed XML"
else
	t_fail "every JUnit file is well-formed XML" "parsed" "$(cat "$tmp/xml.err")"
fi
t_grep "the JUnit file has one test case per result, failures with their diagnostics" \
	'<failure message="taintmod refuses flag=19 with EINVAL">expected: ' "$tmp/out/skel.xml"
t_no_leftovers "no QEMU is left after grading" "$WB_CACHE/grade/loop/run/$lab"

# The templates: each runs one command, and that command grades from a
# clean clone of the course. GitLab: the class from a list, one shard.
for f in gitlab-ci.yml github-classroom.yml; do
	n=$(grep -c 'ci-job.sh' "$WB_ROOT/grading/$f")
	[ "$n" -ge 1 ] || t_fail "grading/$f runs grading/ci-job.sh" "a line with ci-job.sh" "none"
done
git clone -q "$WB_ROOT" "$tmp/course"
for s in sol skel; do
	git init -q "$tmp/repos/$s"
	cp -r "$class/$s/." "$tmp/repos/$s/" 2>/dev/null || :
	(cd "$tmp/repos/$s" && git add -A && git -c user.name=s -c user.email=s@example.org \
		commit -q --allow-empty -m work)
done
printf 'sol %s\nskel %s\n' "$tmp/repos/sol" "$tmp/repos/skel" >"$tmp/class.txt"
mkdir -p "$tmp/gitlab"
rc=0
(cd "$tmp/gitlab" && CLASS_LIST=$tmp/class.txt CI_NODE_INDEX=2 CI_NODE_TOTAL=2 LABS=$lab \
	sh "$tmp/course/grading/ci-job.sh" gitlab) >"$tmp/gitlab.out" 2>&1 || rc=$?
t_status "the GitLab job (sh grading/ci-job.sh gitlab) grades its shard from a clean clone" 0 "$rc"
t_status "shard 2 of 2 of a class of two is the second student, with the course's grade" \
	"$max $max pass" "$(awk -F, 'NR > 1 { print $3, $4, $5 }' "$tmp/gitlab/grades/grades.csv")"
# GitHub Classroom: the student's repository and the course side by side.
mkdir -p "$tmp/github"
git clone -q "$tmp/repos/skel" "$tmp/github/submission"
git clone -q "$WB_ROOT" "$tmp/github/course"
rc=0
(cd "$tmp/github" && GITHUB_ACTOR=student LABS=$lab sh course/grading/ci-job.sh github) \
	>"$tmp/github.out" 2>&1 || rc=$?
t_status "the GitHub job (sh course/grading/ci-job.sh github) grades the student from a clean clone" 0 "$rc"
t_grep "it prints the student's feedback" "== lab $lab: fail, ${skel%% *} of $max points" "$tmp/github.out"
key=$(sh "$tmp/course/grading/ci-job.sh" key)
case $key in
wb-kernel-*-[0-9a-f]*) t_ok "the kernel cache key names Debian's version and the config ($key)" ;;
*) t_fail "the kernel cache key names Debian's version and the config" "wb-kernel-VERSION-DIGEST" "$key" ;;
esac
t_done
