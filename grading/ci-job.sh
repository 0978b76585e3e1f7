#!/bin/sh
# The one script that the course's CI templates run (grading/gitlab-ci.yml
# and grading/github-course.yml, both in the course's own repository);
# tests/t-50-grade.sh runs it the same way from a clean clone.
#
#   sh grading/ci-job.sh key      the kernel cache's key: Debian's
#                                 linux-source-6.1 version and a digest of
#                                 the series and every config fragment
#   sh grading/ci-job.sh class    in the course's repository: clone the
#                                 class listed in CLASS_LIST ("name url"
#                                 per line) and grade this job's shard
#                                 (SHARD=i/N, or GitLab's CI_NODE_INDEX and
#                                 CI_NODE_TOTAL) into grades/
#   sh grading/ci-job.sh gitlab   the same, with the kernel cache GitLab
#                                 keeps in the project folder moved out of
#                                 the checkout for the job and back after
#
# LABS (default: every lab) and JOBS pass through to make grade. A clone
# URL may carry a token; the clones' .git folders are removed before
# grading, so that no token stays on the disk that builds and boots the
# students' code.
set -eu
course=$(cd "$(dirname "$0")/.." && pwd)

# vm/setup.sh installs what is missing, updating apt's lists first when
# an install fails (a fresh container has none).
need_packages() {
	sh "$course/vm/setup.sh"
}

# grade_class: clone this shard of the class into submissions/ and grade it.
grade_class() {
	local list shard
	need_packages
	list=${CLASS_LIST:-$course/grading/class.txt}
	[ -f "$list" ] || { echo "error: no class list $list (one 'name git-url' per line)" >&2; exit 2; }
	shard=${SHARD:-${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}}
	rm -rf submissions
	mkdir -p submissions
	# Only this job's shard is cloned: make grade takes the i-th of N.
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | LC_ALL=C sort |
		awk -v i="${shard%/*}" -v n="${shard#*/}" '(NR - 1) % n == i - 1' |
		while read -r name url; do
			GIT_TERMINAL_PROMPT=0 git clone -q --depth 1 "$url" "submissions/$name" ||
				echo "warning: could not clone $name: graded as an empty submission" >&2
			rm -rf "submissions/$name/.git"
			mkdir -p "submissions/$name"
		done
	make -C "$course" -s grade SUBMISSIONS="$PWD/submissions" OUT="$PWD/grades" \
		LABS="${LABS:-}" JOBS="${JOBS:-1}" SHARD=1/1
}

case ${1:-} in
key)
	v=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		apt-cache show linux-source-6.1 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
	d=$(cd "$course" && cat kernel/series kernel/patches/* kernel/configs/*.config \
		labs/*/kernel.config 2>/dev/null | sha256sum | cut -c1-16)
	echo "wb-kernel-${v:-unknown}-$d"
	;;
class)
	grade_class
	;;
gitlab)
	# GitLab caches only folders of the project, and the workbook keeps
	# its kernel tree outside the checkout: the cache is moved beside the
	# project for the job (the same file system, so a rename) and back.
	# A WB_CACHE given by the runner's settings is used as it is.
	if [ -n "${WB_CACHE:-}" ]; then
		grade_class
		exit 0
	fi
	kept=$course/.wb-cache
	WB_CACHE=${CI_BUILDS_DIR:-$(dirname "$course")}/wb-cache.${CI_JOB_ID:-$$}
	export WB_CACHE
	[ ! -d "$kept" ] || mv "$kept" "$WB_CACHE"
	trap 'rm -rf "$kept"; [ ! -d "$WB_CACHE" ] || mv "$WB_CACHE" "$kept"' EXIT
	grade_class
	;;
*)
	echo "usage: sh grading/ci-job.sh key|class|gitlab" >&2
	exit 2
	;;
esac
