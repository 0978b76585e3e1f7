#!/bin/sh
# make student-repo: the repository a course hands out.
#   - it is a git repository of one commit, without the solutions, the
#     instructor's pages and blocks, or the course's README;
#   - no file of it holds a line or a 24-character window of the
#     solutions (tests/leaks.sh), and leaks planted in a copy are found;
#   - in it, lab 0 goes from make start to "Where you are" on the
#     untouched skeleton; every lab's skeleton is the course's to the
#     byte; its own static tests and make check LAB=lab0-taint pass; its
#     book builds and holds no instructor text;
#   - the course's make grade gives a clone of it, with lab 0's files,
#     the points a course clone with the same files gets.
# The student repository's tree is made from its own series, and a cache
# holds one tree: its runs use a cache of their own, WB_STUDENT_CACHE
# ($WB_CACHE/student-repo). The first builds its kernel (about 15
# minutes here); later ones reuse it.
set -u
. "$(dirname "$0")/lib.sh"
t_plan 16
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$WB_CACHE/grade/student-clone" "$WB_CACHE/grade/course-clone"' EXIT
scache=${WB_STUDENT_CACHE:-$WB_CACHE/student-repo}
repo=$tmp/repo
lab=lab0-taint

# in_repo CMD...: CMD in the student repository, with its own cache.
in_repo() {
	(cd "$repo" && env WB_ROOT="$repo" WB_CACHE="$scache" "$@")
}

# ---- the repository ----------------------------------------------------

rc=0
"$WB_ROOT/vm/studentrepo.sh" "$repo" >"$tmp/gen.out" 2>&1 || rc=$?
commits=$(git -C "$repo" rev-list --count HEAD 2>/dev/null || echo 0)
made=$(sed -n 's/^student repository: [^,]*, //p' "$tmp/gen.out")
if [ "$rc" = 0 ] && [ "$commits" = 1 ]; then
	t_ok "make student-repo writes a git repository of one commit: $made"
else
	t_fail "make student-repo writes a git repository of one commit" \
		"status $rc, $commits commits" "$(tail -n 20 "$tmp/gen.out")"
fi

there=$(cd "$repo" && ls -d solutions grading docs/authoring.rst docs/grading.rst 2>/dev/null
	grep -rl 'only:: instructor' --include='*.rst' . 2>/dev/null
	grep -l '^@\(table\|section\) ' README.md)
if [ -z "$there" ] && grep -q '^## Handing in' "$repo/README.md"; then
	t_ok "it has no solutions/, grading/, instructor page or block, and its README is the students'"
else
	t_fail "it has no solutions/, grading/, instructor page or block, and its README is the students'" \
		"found: $there"
fi

# ---- leaks ---------------------------------------------------------------

sh "$WB_ROOT/tests/leaks.sh" secrets "$tmp/secrets" >"$tmp/secrets.out" 2>&1
rc=0
sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$repo" >"$tmp/scan.out" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then
	t_ok "no file of it holds a solution: $(tail -n 1 "$tmp/scan.out")"
	sed 's/^/# /' "$tmp/secrets.out"
else
	t_fail "no file of it holds a solution" "$(cat "$tmp/scan.out")"
fi

# The search itself, on copies with a leak planted: the course's series
# patch that carries a lab's answer whole, then a window of solution code
# inside a line of prose.
for p in "$WB_KERNEL_DIR"/patches/*.patch; do
	cmp -s "$p" "$repo/kernel/patches/${p##*/}" || break
done
cp -r "$repo" "$tmp/planted"
cp "$p" "$tmp/planted/kernel/patches/"
rc=0
sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$tmp/planted" >"$tmp/planted.out" 2>&1 || rc=$?
if [ "$rc" = 1 ] && grep -q "kernel/patches/${p##*/}:[0-9]*: line" "$tmp/planted.out"; then
	t_ok "the course's ${p##*/}, planted in a copy, is found: $(tail -n 1 "$tmp/planted.out")"
else
	t_fail "the course's ${p##*/}, planted in a copy, is found" "status $rc" "$(cat "$tmp/planted.out")"
fi
rm -rf "$tmp/planted"
cp -r "$repo" "$tmp/planted"
w=$(head -n 1 "$tmp/secrets/windows")
printf 'As the notes say, %s and so on.\n' "$w" >>"$tmp/planted/README.md"
rc=0
sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$tmp/planted" >"$tmp/planted.out" 2>&1 || rc=$?
if [ "$rc" = 1 ] && grep -q 'README.md:[0-9]*: window' "$tmp/planted.out"; then
	t_ok "a window of solution code inside a line of prose, planted in a copy, is found"
else
	t_fail "a window of solution code inside a line of prose, planted in a copy, is found" \
		"status $rc" "$(cat "$tmp/planted.out")"
fi
rm -rf "$tmp/planted"

# ---- in the student repository -----------------------------------------

start=$(date +%s)
rc=0
in_repo make -s start >"$tmp/start.out" 2>&1 </dev/null || rc=$?
took=$(($(date +%s) - start))
if [ "$rc" = 0 ] && grep -q "^Where you are: lab $lab booted in the VM" "$tmp/start.out"; then
	t_ok "make start in it reaches \"Where you are\" on the untouched $lab, status 0 ($took s)"
else
	t_fail "make start in it reaches \"Where you are\" on the untouched $lab, status 0" \
		"status $rc after $took s" "$(tail -n 30 "$tmp/start.out")"
fi
t_grep "it names the first TODO and where it is" \
	"^Next: TODO 1 in labs/$lab/fs/proc/tainted.c:[0-9]+: " "$tmp/start.out"

differ=
for l in $(wb_exercise_names); do
	if ! "$WB_ROOT/vm/skel.sh" "$l" skeleton "$tmp/course/$l" 2>>"$tmp/skel.err" ||
		! in_repo vm/skel.sh "$l" skeleton "$tmp/student/$l" 2>>"$tmp/skel.err" ||
		! diff -r "$tmp/course/$l" "$tmp/student/$l" >/dev/null; then
		differ="$differ $l"
	fi
done
if [ -z "$differ" ]; then
	t_ok "every lab's skeleton, made in it from skeletons/ and its series, is the course's to the byte"
else
	t_fail "every lab's skeleton, made in it, is the course's to the byte" "differ:$differ" \
		"$(cat "$tmp/skel.err")"
fi
# make skeletons with no LAB: every lab's files, tours skipped.
rc=0
in_repo make -s skeletons >"$tmp/skeletons.out" 2>&1 </dev/null || rc=$?
missing=
for l in $(wb_exercise_names); do
	for f in $(wb_lab_own_files "$l" | cut -d' ' -f1); do
		cmp -s "$tmp/student/$l/$f" "$tmp/repo/labs/$l/$f" || missing="$missing $l/$f"
	done
done
if [ "$rc" = 0 ] && [ -z "$missing" ]; then
	t_ok "make skeletons with no LAB writes every lab's files, the tours skipped"
else
	t_fail "make skeletons with no LAB writes every lab's files, the tours skipped" \
		"status 0, every file" "status $rc, missing or different:$missing" "$(tail -n 10 "$tmp/skeletons.out")"
fi

rc=0
in_repo sh tests/t-10-static.sh >"$tmp/static.out" 2>&1 </dev/null || rc=$?
if [ "$rc" = 0 ]; then
	t_ok "its own static tests pass ($(grep -c '^ok ' "$tmp/static.out") results)"
else
	t_fail "its own static tests pass" "status $rc" "$(grep -A5 '^not ok' "$tmp/static.out" | head -n 40)"
fi

rc=0
in_repo make -s check-fast >"$tmp/fast.out" 2>&1 </dev/null || rc=$?
if [ "$rc" = 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed$' "$tmp/fast.out"; then
	t_ok "make check-fast in it passes ($(tail -n 1 "$tmp/fast.out"))"
else
	t_fail "make check-fast in it passes" "status $rc" "$(grep -A5 '^ *not ok' "$tmp/fast.out" | head -n 30)"
fi

rc=0
in_repo sh tests/run.sh --lab "$lab" >"$tmp/check.out" 2>&1 </dev/null || rc=$?
if [ "$rc" = 0 ] && grep -q "ok 1 $lab: the skeleton builds, boots and its checker reports in full" "$tmp/check.out" &&
	grep -q "ok 2 $lab: the skeleton fails the checker" "$tmp/check.out"; then
	t_ok "make check LAB=$lab in it passes: the skeleton builds, boots, reports in full and fails"
else
	t_fail "make check LAB=$lab in it passes" "status $rc" "$(tail -n 30 "$tmp/check.out")"
fi

rc=0
in_repo env WB_BOOK_OUT="$tmp/book" vm/book.sh student >"$tmp/book.out" 2>&1 || rc=$?
t_status "its book builds with -W" 0 "$rc"
rc=0
sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$tmp/book" >"$tmp/bookscan.out" 2>&1 || rc=$?
# Their headings, not a mention of them (the front matter says what the
# instructor edition adds).
headings=$(grep -rlE '<h[1-6][^>]*>[^<]*(Writing a lab|Grading a class|Handing out the course)' \
	"$tmp/book" 2>/dev/null)
if [ "$rc" = 0 ] && [ -z "$headings" ]; then
	t_ok "its book holds no instructor text: $(tail -n 1 "$tmp/bookscan.out")"
else
	t_fail "its book holds no instructor text" "instructor headings in: $headings" "$(cat "$tmp/bookscan.out")"
fi

# ---- graded by the course ------------------------------------------------

# The same files in a clone of the student repository and in a clone of
# the course: the skeleton, with the solution's module (some points,
# not all).
"$WB_ROOT/vm/skel.sh" "$lab" solution "$tmp/sol" 2>/dev/null
class=$tmp/class
git clone -q "$repo" "$class/student-clone"
git clone -q "$WB_ROOT" "$class/course-clone"
for s in student-clone course-clone; do
	mkdir -p "$class/$s/labs/$lab"
	cp -r "$tmp/course/$lab/." "$class/$s/labs/$lab/"
	cp "$tmp/sol/taintmod.c" "$class/$s/labs/$lab/taintmod.c"
	(cd "$class/$s" && git add "labs/$lab" && git -c user.name=s -c user.email=s@example.org \
		commit -q -m "lab 0: the module")
done
rc=0
SUBMISSIONS=$class LABS=$lab OUT=$tmp/grades JOBS=1 "$WB_ROOT/vm/grade.sh" >"$tmp/grade.out" 2>&1 || rc=$?
t_status "the course's make grade grades both clones" 0 "$rc"
row() {
	awk -F, -v s="$1" '$1 == s { print $3 " of " $4 " points, " $5 }' "$tmp/grades/grades.csv" 2>/dev/null
}
mine=$(row student-clone) theirs=$(row course-clone)
if [ -n "$mine" ] && [ "$mine" = "$theirs" ]; then
	t_ok "a clone of the student repository earns what a course clone with the same files earns ($mine; course clone: $theirs)"
else
	t_fail "a clone of the student repository earns what a course clone with the same files earns" \
		"course clone: $theirs" "student clone: $mine" "$(tail -n 20 "$tmp/grade.out")"
fi
grep -A8 'ignored:' "$tmp/grades/student-clone.txt" 2>/dev/null | sed 's/^/# student clone: /'
t_done
