#!/bin/sh
# The one script that the course's CI templates run (grading/gitlab-ci.yml
# and grading/github-classroom.yml); tests/t-50-grade.sh runs it the same
# way from a clean clone.
#
#   sh grading/ci-job.sh key      the kernel cache's key: Debian's
#                                 linux-source-6.1 version and a digest of
#                                 the series and every config fragment
#   sh grading/ci-job.sh gitlab   in the course's repository: clone the
#                                 class listed in CLASS_LIST ("name url"
#                                 per line) and grade this job's shard
#                                 (CI_NODE_INDEX/CI_NODE_TOTAL) into grades/
#   sh grading/ci-job.sh github   in a student's repository (GitHub
#                                 Classroom): the course in ./course, the
#                                 student's work in ./submission; grade it
#                                 into grades/, fail below full points if
#                                 REQUIRE_FULL=1
#
# LABS (default: every lab) and JOBS pass through to make grade.
set -eu
course=$(cd "$(dirname "$0")/.." && pwd)

# vm/setup.sh installs what is missing, updating apt's lists first when
# an install fails (a fresh container has none).
need_packages() {
	sh "$course/vm/setup.sh"
}

case ${1:-} in
key)
	v=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		apt-cache show linux-source-6.1 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
	d=$(cd "$course" && cat kernel/series kernel/patches/* kernel/configs/*.config \
		labs/*/kernel.config 2>/dev/null | sha256sum | cut -c1-16)
	echo "wb-kernel-${v:-unknown}-$d"
	;;
gitlab)
	need_packages
	list=${CLASS_LIST:-$course/grading/class.txt}
	[ -f "$list" ] || { echo "error: no class list $list (one 'name git-url' per line)" >&2; exit 2; }
	rm -rf submissions
	mkdir -p submissions
	# Only this job's shard is cloned: make grade takes the i-th of N.
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | LC_ALL=C sort |
		awk -v i="${CI_NODE_INDEX:-1}" -v n="${CI_NODE_TOTAL:-1}" '(NR - 1) % n == i - 1' |
		while read -r name url; do
			git clone -q --depth 1 "$url" "submissions/$name" ||
				echo "warning: could not clone $name ($url): graded as an empty submission" >&2
			mkdir -p "submissions/$name"
		done
	make -C "$course" -s grade SUBMISSIONS="$PWD/submissions" OUT="$PWD/grades" \
		LABS="${LABS:-}" JOBS="${JOBS:-1}"
	;;
github)
	need_packages
	[ -d submission ] || { echo "error: the student's repository must be checked out in ./submission" >&2; exit 2; }
	name=${GITHUB_ACTOR:-student}
	rm -rf class
	mkdir -p class
	ln -s "$PWD/submission" "class/$name"
	make -C "$course" -s grade SUBMISSIONS="$PWD/class" OUT="$PWD/grades" \
		LABS="${LABS:-}" JOBS="${JOBS:-1}"
	cat "grades/$name.txt"
	if [ "${REQUIRE_FULL:-0}" = 1 ]; then
		awk -F, 'NR > 1 { p += $3; m += $4 } END { exit p < m }' grades/grades.csv
	fi
	;;
*)
	echo "usage: sh grading/ci-job.sh key|gitlab|github" >&2
	exit 2
	;;
esac
