#!/bin/sh
# make student-repo OUT=DIR: the repository a course hands out, without
# the solutions. DIR (new, or empty) becomes a git repository of one
# commit, no history of the course:
#
#   - the harness (vm/, tests/ less the course's own tests), the labs and
#     tours (labs/), the kernel configuration, the book's sources for the
#     student edition (chapters without their ".. only:: instructor"
#     blocks, no docs/authoring.rst or docs/grading.rst), a README for
#     students (vm/studentrepo-README.md);
#   - kernel/patches in their student form: a patch of the series that
#     carries a lab's kernel file (lab 0's /proc/tainted) creates or
#     changes it as the lab's skeleton, not as its solution;
#   - skeletons/LAB: each lab's starting point (vm/skel.sh --ship): the
#     module, program and BPF files as files, the other kernel files as
#     a patch against the tree. vm/skel.sh makes the skeleton from there
#     when solutions/ is absent.
#
# Not there: solutions/, grading/, the instructor's chapters, the course's
# README and the tests that need the solutions (not_shipped below).
set -eu
. "$(dirname "$0")/lib.sh"

out=${1:-}
[ -n "$out" ] || wb_die "usage: make student-repo OUT=DIR (a new or empty folder)"
[ -d "$WB_SOLUTIONS" ] ||
	wb_die "this checkout has no solutions/: it is a student repository already"
wb_need_cmds git:git diff:diffutils patch:patch
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	wb_die "$out exists and is not empty: make student-repo writes a new repository"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out/ in
"$WB_ROOT"/*) wb_die "OUT ($out) is inside the course's checkout: put it elsewhere" ;;
esac
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# not_shipped PATH: a tracked file of the course that a student repository
# leaves out: the solutions, the instructor's pages and CI templates, the
# course's README (and the template of the student's), the tests that need
# the solutions or the author guide.
not_shipped() {
	case $1 in
	solutions/* | grading/* | docs/authoring.rst | docs/grading.rst | README.md | \
		vm/studentrepo-README.md | tests/leaks.sh | tests/t-40-newlab.sh | \
		tests/t-50-grade.sh | tests/t-60-student-repo.sh | tests/f-40-settings.sh) return 0 ;;
	esac
	return 1
}

# student_rst FILE: the book source as the student edition reads it:
# every ".. only:: instructor" block left out, with its indented body.
student_rst() {
	awk '
		/^[ \t]*\.\. only:: instructor[ \t]*$/ {
			ind = match($0, /[^ \t]/) - 1
			skip = 1
			next
		}
		skip && /^[ \t]*$/ { next }
		skip && match($0, /[^ \t]/) - 1 > ind { next }
		{ skip = 0; print }' "$1"
}

# ---- the skeletons -------------------------------------------------------

labs=$(wb_exercise_names)
for lab in $labs; do
	wb_step "lab $lab: its skeleton"
	"$WB_ROOT/vm/skel.sh" --ship "$lab" "$out/skeletons/$lab" ||
		wb_die "lab $lab: its skeleton could not be shipped"
done

# ---- the course's files --------------------------------------------------

wb_step "copying the course's files (without the solutions) into $out"
git -C "$WB_ROOT" ls-files >"$tmp/files" ||
	wb_die "$WB_ROOT is not a git checkout: make student-repo copies its tracked files"
while IFS= read -r f; do
	[ -f "$WB_ROOT/$f" ] || continue
	! not_shipped "$f" || continue
	mkdir -p "$(dirname "$out/$f")"
	case $f in
	*.rst) student_rst "$WB_ROOT/$f" >"$out/$f" ;;
	*) cp -p "$WB_ROOT/$f" "$out/$f" ;;
	esac
done <"$tmp/files"

# ---- the series in its student form --------------------------------------

# Each lab's kernel files, "PATH LAB".
for lab in $labs; do
	wb_lab_own_files "$lab" | awk -v lab="$lab" '$2 == "tree" { print $1, lab }'
done >"$tmp/labfiles"
wb_series_files | sort >"$tmp/series-files"

# section PATCH PATH: PATCH's part for PATH, from its "diff --git" line.
section() {
	awk -v want="diff --git a/$2 b/$2" '
		/^diff --git / { on = ($0 == want) }
		/^-- $/ { on = 0 }
		on' "$1"
}

# student_section PATCH PATH LAB: PATCH's part for PATH (a lab's kernel
# file), made to give the lab's skeleton instead: the same header, the
# new blob's index, and the diff from the file before PATCH to the
# skeleton. The file before PATCH is the tree's copy with that part
# undone; only one patch of the series may touch a lab's file.
student_section() {
	local p path lab skel sec pre from
	p=$1 path=$2 lab=$3
	skel=$(wb_variant_dir "$lab" skeleton)/$path
	sec=$tmp/section
	[ "$(grep -cxF "$path" "$tmp/series-files")" = 1 ] ||
		wb_die "$path (lab $lab) is changed by more than one patch of kernel/series: make student-repo cannot make it the lab's skeleton"
	section "$p" "$path" >"$sec"
	rm -rf "$tmp/pre"
	mkdir -p "$tmp/pre"
	pre=/dev/null from=/dev/null
	if ! grep -q '^--- /dev/null$' "$sec"; then
		pre=$tmp/pre/$path from=a/$path
		mkdir -p "$(dirname "$pre")"
		cp "$WB_KBASE/$path" "$pre"
		patch -d "$tmp/pre" -p1 -R -s --batch --no-backup-if-mismatch <"$sec" >&2 ||
			wb_die "${p##*/}: its change to $path cannot be undone on the tree's copy"
	fi
	awk -v blob="$(git hash-object "$skel" | cut -c1-7)" '
		/^--- / { exit }
		/^index / { sub(/\.\.[0-9a-f]+/, ".." blob) }
		{ print }' "$sec"
	diff -up --label "$from" --label "b/$path" "$pre" "$skel" || [ $? = 1 ]
}

# student_patch PATCH DEST: PATCH with its lab files in student form and
# the diffstat made again.
student_patch() {
	local p dest f lab
	p=$1 dest=$2
	: >"$tmp/body"
	awk '/^diff --git / { print substr($4, 3) }' "$p" | while read -r f; do
		lab=$(awk -v f="$f" '$1 == f { print $2; exit }' "$tmp/labfiles")
		if [ -n "$lab" ]; then
			student_section "$p" "$f" "$lab"
		else
			section "$p" "$f"
		fi
	done >"$tmp/body"
	{
		# The message and the "---" line under it; the diffstat anew.
		awk '{ print } /^---$/ { exit }' "$p"
		git apply --stat --summary "$tmp/body"
		echo
		cat "$tmp/body"
		sed -n '/^-- $/,$p' "$p"
	} >"$dest"
}

cut -d' ' -f1 "$tmp/labfiles" >"$tmp/labpaths"
for p in $(wb_series "$WB_KERNEL_DIR/series"); do
	wb_patch_files "$WB_KERNEL_DIR/patches/$p" | grep -qxF -f "$tmp/labpaths" || continue
	wb_step "kernel/patches/$p: in its student form"
	student_patch "$WB_KERNEL_DIR/patches/$p" "$out/kernel/patches/$p"
done

# ---- the README, for students ----------------------------------------------

# In the template, "@table ROW" stands for the table of the course's
# README whose first row is ROW, and "@section HEADING" for its section
# of that heading: one text for both.
awk -v course="$WB_ROOT/README.md" '
	/^@(table|section) / {
		what = $1; want = substr($0, length(what) + 2); on = 0; found = 0
		while ((getline l < course) > 0) {
			if (l == want)
				on = found = 1
			else if (on && (what == "@table" ? l !~ /^\|/ : l ~ /^## /))
				break
			if (on)
				print l
		}
		close(course)
		if (!found) {
			print "error: the course README has no " substr(what, 2) " \"" want "\"" >"/dev/stderr"
			exit 1
		}
		next
	}
	{ print }' "$WB_ROOT/vm/studentrepo-README.md" >"$out/README.md" ||
	wb_die "vm/studentrepo-README.md names a part of README.md that is not there"

# ---- one commit --------------------------------------------------------------

wb_step "committing the student repository"
name=$(git -C "$WB_ROOT" config user.name || echo "Kernel workbook")
email=$(git -C "$WB_ROOT" config user.email || echo workbook@example.org)
version=$(git -C "$WB_ROOT" describe --always --dirty 2>/dev/null || echo unknown)
git -C "$out" init -q -b main
git -C "$out" add -A
git -C "$out" -c user.name="$name" -c user.email="$email" commit -q \
	-m "Kernel workbook: the student repository" \
	-m "Made by make student-repo from the course at $version, without its solutions."
files=$(git -C "$out" ls-files | wc -l)
size=$(du -sk --exclude=.git "$out" | cut -f1)
gitsize=$(du -sk "$out/.git" | cut -f1)
wb_say "student repository: $out, $files files, $size KB (.git: $gitsize KB), made in $(($(date +%s) - start)) s"
wb_say "publish it as the assignment's template; grade the class from the course with make grade"
