#!/bin/sh
# make grade: grade a class's submissions with the instructor's checkers.
#
#   make grade SUBMISSIONS=DIR [LABS="a b"] [SHARD=i/N] [OUT=dir] [JOBS=n]
#
# DIR holds one folder per student: a clone or a plain copy of the
# workbook with the student's work. For each (student, lab) only the
# lab's student files (FILES of kind tree, module, prog, bpf) are taken
# from the submission; the lab's steps, checker, gdb script, manifest,
# patches, configuration and the harness are the instructor's. A change
# the submission made anywhere else is ignored and listed.
#
# A submission is data: only regular files of at most WB_FILE_LIMIT
# bytes are taken; a link, a device or a FIFO where a student file should
# be makes that (student, lab) invalid-submission, and the class goes on.
# The report must be the course checker's: the same plan and results, by
# number and name, as the course's solution gives (run once, kept).
#
# OUT (default _build/grade) receives grades.csv (student,lab,points,
# max,status,sha256: a digest of the files graded), a row as soon as it
# is known, STUDENT.xml (JUnit: one test case per result of the
# checker), STUDENT.txt (feedback for the student) and review.txt (for
# the instructor: lines of the graded files that reach for the harness).
# Student output in the feedback and JUnit is bounded and cleaned of
# control bytes. A submission's staged files and run folders are removed
# once it is graded, unless KEEP=1. SHARD=i/N grades
# the i-th of N slices of the class (students i, i+N, ...), for N
# runners. JOBS runs that many VMs side by side; the kernel tree is
# shared (one build per course) and builds take turns on its lock, each
# one restoring the tree's own files, so that no submission's kernel
# file reaches another's build.
#
# Statuses: pass, fail (including no verdict), build-error, timeout,
# oops, invalid-submission, and ignored-changes in place of pass or fail
# when the submission also changed files of the lab, the kernel series or
# the harness (its points are still those of the instructor's checker on
# its student files).
#
# Each job is bounded: WB_BUILD_LIMIT seconds per build of student code,
# WB_KBUILD_LIMIT (default 600) per kernel build with a student's kernel
# file, WB_JAIL_DISK bytes (default 512 MiB) written by each build of
# student code, the lab's TIMEOUT per boot, and the console, /build/out
# and feedback budgets. Run as root, the grader starts QEMU as
# WB_QEMU_USER (default nobody; empty keeps root).
set -eu
. "$(dirname "$0")/lib.sh"

# A student file larger than this is refused (bytes); feedback and each
# JUnit case keep at most WB_FEEDBACK_LIMIT bytes of student output.
WB_FILE_LIMIT=${WB_FILE_LIMIT:-1048576}
WB_FEEDBACK_LIMIT=${WB_FEEDBACK_LIMIT:-65536}
CSV_HEADER=student,lab,points,max,status,sha256

# ---- one (student, lab) ------------------------------------------------

# sub_file STUDENT PATH: how a path of a submission may be taken. Prints
# "ok", "absent", or why it is refused: a submission is data, so only a
# regular file of at most WB_FILE_LIMIT bytes is taken, reached through
# real folders (the student's folder itself may be a link that the
# instructor made). A link, a device, a FIFO or a folder is refused, so
# that no student's file is another's or the host's, and nothing is read
# that never ends.
sub_file() {
	local f d rest
	f=$SUBMISSIONS/$1
	rest=$2
	while :; do
		case $rest in
		*/*) d=${rest%%/*} rest=${rest#*/} ;;
		*) break ;;
		esac
		f=$f/$d
		if [ -L "$f" ]; then
			echo "$2 is reached through a link ($d)"
			return
		fi
		[ -e "$f" ] || { echo absent; return; }
		[ -d "$f" ] || { echo "$2 is reached through a file that is not a folder ($d)"; return; }
	done
	f=$f/$rest
	if [ -L "$f" ]; then
		echo "$2 is a link, not a file"
	elif [ ! -e "$f" ]; then
		echo absent
	elif [ ! -f "$f" ]; then
		echo "$2 is not a regular file"
	elif [ "$(wc -c <"$f")" -gt "$WB_FILE_LIMIT" ]; then
		echo "$2 is larger than $WB_FILE_LIMIT bytes"
	else
		echo ok
	fi
}

# clean: student bytes made fit for a terminal and an XML file: tabs,
# newlines and printable text only (control bytes, and bytes that are not
# UTF-8, go), the grader's own paths replaced by short names, and at most
# WB_FEEDBACK_LIMIT bytes.
clean() {
	tr -d '\000-\010\013-\037\177' |
		sed -e "s#$work#<work>#g" -e "s#$WB_CACHE#<cache>#g" -e "s#$WB_ROOT#<course>#g" \
			-e "s#$SUBMISSIONS#<submissions>#g" |
		head -c "$WB_FEEDBACK_LIMIT" | { iconv -c -f UTF-8 -t UTF-8 2>/dev/null || :; }
}

# grade_one STUDENT LAB: run the instructor's lab on the student's files;
# writes $rows/STUDENT.LAB.{csv,xml,txt} and adds the row to grades.csv.
grade_one() {
	student=$1 lab=$2
	sub=$SUBMISSIONS/$student
	work=$WB_CACHE/grade/$student
	stage=$work/labs
	rm -rf "${stage:?}/$lab" "$work/run/$lab" "$work/work/$lab"
	mkdir -p "$stage" "$work/run"
	cp -r "$WB_ROOT/labs/$lab" "$stage/$lab"
	# The lab folder as the instructor has it, student files aside.
	missing='' invalid='' taken=''
	for path in $(WB_LABS=$WB_ROOT/labs wb_lab_own_files "$lab" | cut -d' ' -f1); do
		rm -f "$stage/$lab/$path"
		why=$(sub_file "$student" "labs/$lab/$path")
		case $why in
		ok)
			mkdir -p "$(dirname "$stage/$lab/$path")"
			cp "$sub/labs/$lab/$path" "$stage/$lab/$path"
			taken="$taken $path"
			;;
		absent) missing="$missing labs/$lab/$path" ;;
		*) invalid="$invalid$why; " ;;
		esac
	done
	ignored=$(grep -E "^(labs/$lab/|solutions/$lab/|kernel/|vm/|tests/|Makefile$)" \
		"$work/changes" || :)
	# A digest of what was graded: the taken files, path and content.
	digest=$(cd "$stage/$lab" && for p in $taken; do
		printf '%s %s\n' "$p" "$(sha256sum <"$p" | cut -d' ' -f1)"
	done | sha256sum | cut -c1-16)

	t0=$(date +%s)
	rc=0
	if [ -n "$invalid" ]; then
		rc=invalid
		echo "invalid submission: $invalid" >"$work/$lab.log"
	else
		WB_LABS=$stage WB_LABWORK=$work/work WB_RUN_DIR=$work/run/$lab WB_QUIET=1 \
			WB_DETECTORS=1 VARIANT=student "$WB_ROOT/vm/lab.sh" "$lab" run \
			>"$work/$lab.log" 2>&1 </dev/null || rc=$?
	fi
	echo $(($(date +%s) - t0)) >"$rows/$student.$lab.time"
	ktap=$work/run/$lab/ktap
	mkdir -p "$work/run/$lab"
	[ -f "$ktap" ] || : >"$ktap"
	cp "$ktap" "$ktap.course"
	status=$(wb_status grade "$rc")
	max=$(cat "$rows/$lab.max")
	points=0
	foreign=
	if wb_status_checked "$rc"; then
		# The report must be the course checker's: its plan, and each
		# result's number and name as the solution gave them. A result
		# that is not earns nothing, a plan that is not fails it all.
		foreign=$(wb_ktap course "$ktap" "$rows/$lab.names" 2>&1 >"$ktap.course") || :
		[ -z "$foreign" ] || status=fail
		if [ ! -f "$work/run/$lab/ktap.broken" ] &&
			score=$(wb_ktap points "$ktap.course"); then
			points=${score% *}
		fi
	fi
	run_status=$status
	# A timeout, a crash or a build error stays what it is; a verdict
	# (pass or fail) is flagged when the submission changed course files.
	case $status in
	pass | fail) [ -z "$ignored" ] || status="ignored-changes" ;;
	esac
	printf '%s,%s,%s,%s,%s,%s\n' "$student" "$lab" "$points" "$max" "$status" "$digest" \
		>"$rows/$student.$lab.csv"

	# Feedback: what a student can act on, bounded and cleaned.
	{
		echo "== lab $lab: $run_status, $points of $max points"
		[ -z "$missing" ] || echo "   not in your submission (the skeleton was used):$missing"
		case $run_status in
		invalid-submission)
			echo "   your submission was not graded: $invalid"
			echo "   hand in regular files (no links, devices or FIFOs) of at most $WB_FILE_LIMIT bytes"
			;;
		build-error)
			echo "   your files did not build; the compiler said:"
			grep -v '^==>' "$work/$lab.log" | head -n 30 | sed 's/^/   | /'
			;;
		timeout | oops)
			echo "   the run ended early:"
			grep -v '^==>' "$work/$lab.log" | tail -n 25 | sed 's/^/   | /'
			;;
		*)
			if [ -n "$foreign" ]; then
				echo "   results that are not the course checker's earn nothing (counted as failed):"
				printf '%s\n' "$foreign" | head -n 10 | sed 's/^/   | /'
			elif [ "$rc" = "$WB_EXIT_NO_VERDICT" ] || [ -f "$work/run/$lab/ktap.broken" ]; then
				echo "   the checker gave no whole verdict:"
				grep -E '^error:' "$work/$lab.log" | sed 's/^/   | /'
			fi
			wb_ktap failures "$ktap.course" | sed 's/^/   /' | head -n 200
			;;
		esac
		if [ -n "$ignored" ]; then
			echo "   ignored: your submission changed these files, which grading takes from the course instead:"
			printf '%s\n' "$ignored" | head -n 50 | sed 's/^/     /'
		fi
		echo
	} | clean >"$rows/$student.$lab.txt"

	# JUnit: one test case per result; a run without a report is one
	# failed case that says why.
	clean <"$work/$lab.log" >"$work/$lab.log.clean"
	clean <"$ktap.course" | wb_ktap junit - "$lab" "$run_status" "$work/$lab.log.clean" \
		>"$rows/$student.$lab.xml"
	review "$student" "$lab" "$taken"

	# The row is in grades.csv as soon as it is known: a grader that
	# stops keeps the rows done so far.
	(
		flock 8
		cat "$rows/$student.$lab.csv" >>"$OUT/grades.csv"
	) 8>"$rows/.csv.lock"
	# Nothing of one submission stays for the next, unless asked.
	[ "${KEEP:-0}" = 1 ] || rm -rf "${stage:?}/$lab" "$work/run/$lab" "$work/work/$lab" \
		"$work/$lab.log.clean"
}

# review STUDENT LAB FILES: tripwires for the instructor's report: lines
# of the taken files that reach for the harness or outside the submission
# (the guest's PID 1, the guest library, the checker, harness paths from
# kernel code, includes of other folders, raw file inclusion). A line
# here is no verdict: some are honest; each deserves a look.
review() {
	local p
	for p in $3; do
		grep -nE -e '/proc/(1|self/fd|[0-9]+)/|/proc/\$|/wb/|/lab/(check|run)\.sh|\.incbin|incbin' \
			-e 'filp_open|kernel_read_file|call_usermodehelper|pidfd_getfd|process_vm_writev|PTRACE_' \
			-e '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](/|[^>"]*\.\./)' \
			"$stage/$lab/$p" 2>/dev/null | head -n 20 | clean |
			sed "s#^#$1,$2,$p:#"
	done >"$rows/$student.$lab.review"
}

# lab_reference LAB: what the course's checker reports on the lab's
# solution, run once per version of the course and kept: ROWS/LAB.names
# (its plan and the number, points and name of each result, which every
# graded report must match) and ROWS/LAB.max (the points the lab is
# worth: those of the solution's report, whose checks all pass; a check
# skipped on this machine is worth nothing to anyone).
lab_reference() {
	local key ref
	key=$(cd "$WB_ROOT" && find "labs/$1" "solutions/$1" kernel vm/verdict.sh vm/ktap.sh -type f \
		-print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 cat | sha256sum | cut -c1-16)
	ref=$WB_CACHE/grade/.reference/$1.$key
	if [ ! -f "$ref/names" ]; then
		rm -rf "$ref"
		mkdir -p "$ref"
		WB_LABS=$WB_ROOT/labs WB_RUN_DIR=$ref/run WB_QUIET=1 VARIANT=solution \
			WB_DETECTORS=1 "$WB_ROOT/vm/lab.sh" "$1" run >"$ref/log" 2>&1 </dev/null ||
			wb_die "lab $1: the course's solution does not pass its checker (log: $ref/log); grading would compare students with a broken reference"
		wb_ktap names "$ref/run/ktap" >"$ref/names"
		wb_ktap points "$ref/run/ktap" | cut -d' ' -f2 >"$ref/max"
		rm -rf "$ref/run/vmlinux" "$ref/run/modules"
	fi
	cp "$ref/names" "$rows/$1.names"
	cp "$ref/max" "$rows/$1.max"
}

if [ "${1:-}" = --one ]; then
	rows=$OUT/.rows
	grade_one "$2" "$3"
	exit 0
fi

# ---- the class ---------------------------------------------------------

[ -n "${SUBMISSIONS:-}" ] || wb_die "usage: make grade SUBMISSIONS=DIR [LABS=\"a b\"] [SHARD=i/N] [OUT=dir] [JOBS=n]"
[ -d "$SUBMISSIONS" ] || wb_die "SUBMISSIONS=$SUBMISSIONS is not a folder"
SUBMISSIONS=$(cd "$SUBMISSIONS" && pwd)
OUT=${OUT:-$WB_ROOT/_build/grade}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
JOBS=${JOBS:-1}
SHARD=${SHARD:-1/1}
case $JOBS in '' | *[!0-9]* | 0) wb_die "JOBS must be a number of VMs (1 or more), not '$JOBS'" ;; esac
i=${SHARD%/*} n=${SHARD#*/}
case "$i/$n" in
*[!0-9/]* | /* | */ | */*/*) wb_die "SHARD must be i/N (1 <= i <= N), not '$SHARD'" ;;
esac
{ [ "$i" -ge 1 ] && [ "$i" -le "$n" ]; } || wb_die "SHARD must be i/N (1 <= i <= N), not '$SHARD'"
labs=${LABS:-$(WB_LABS=$WB_ROOT/labs wb_exercise_names)}
for lab in $labs; do
	WB_LABS=$WB_ROOT/labs wb_lab_require "$lab"
	! WB_LABS=$WB_ROOT/labs wb_lab_is_tour "$lab" ||
		wb_die "$lab is a tour of its chapter, with nothing for a student to hand in: it is not graded"
done
wb_need_cache
# No debugger reads a graded guest, whatever the grader's shell exported:
# a gdb or drgn script would parse memory that the student's code shapes.
unset WB_GDB_SCRIPT WB_DRGN_SCRIPT WB_PAUSED
wb_not_exported "$SUBMISSIONS" SUBMISSIONS
export SUBMISSIONS OUT WB_ROOT WB_FILE_LIMIT WB_FEEDBACK_LIMIT
WB_JAIL_DISK=${WB_JAIL_DISK-536870912}
export WB_JAIL_DISK
if [ "$(id -u)" = 0 ]; then
	WB_QEMU_USER=${WB_QEMU_USER-nobody}
	export WB_QEMU_USER
fi
rows=$OUT/.rows
rm -rf "$rows"
mkdir -p "$rows"
# What earlier runs staged goes: one class's files never meet another's.
find "$WB_CACHE/grade" -mindepth 1 -maxdepth 1 ! -name '.*' -exec rm -rf {} + 2>/dev/null || :
echo "$CSV_HEADER" >"$OUT/grades.csv"

students=$(cd "$SUBMISSIONS" && for d in */; do [ -d "$d" ] && echo "${d%/}"; done |
	LC_ALL=C sort | awk -v i="$i" -v n="$n" '(NR - 1) % n == i - 1')
[ -n "$students" ] || wb_die "no submissions in $SUBMISSIONS (shard $SHARD): one folder per student"
# A student's folder name is a row of grades.csv and a file name in OUT.
for s in $students; do
	case $s in
	*[!A-Za-z0-9._@+-]* | .*) wb_die "submission folder '$s': use letters, digits and . _ @ + - only (it names the student's row and files)" ;;
	esac
done
# shellcheck disable=SC2086
wb_step "grading $(echo "$students" | wc -w) submission(s), shard $SHARD, labs: $(printf '%s ' $labs)$JOBS VM(s) at a time"

# What each submission changed outside the students' files: tracked
# files of the course that differ, and files the course does not have
# that are no lab's student file.
own=$(for lab in $(WB_LABS=$WB_ROOT/labs wb_lab_names); do
	WB_LABS=$WB_ROOT/labs wb_lab_own_files "$lab" | sed "s#^\([^ ]*\) .*#labs/$lab/\1#"
done)
tracked=$(cd "$WB_ROOT" && git ls-files 2>/dev/null) ||
	tracked=$(cd "$WB_ROOT" && find . -type f ! -path './.git/*' ! -path './_build/*' | sed 's#^\./##')
# A submission may be a clone of the student repository (make
# student-repo): its own files (the students' README, the series in its
# student form, skeletons/) are no change either.
srepo=$WB_CACHE/grade/.student-repo
rm -rf "$srepo"
shipped=
if [ -d "$WB_SOLUTIONS" ] && "$WB_ROOT/vm/studentrepo.sh" "$srepo" >/dev/null 2>&1; then
	shipped=$(cd "$srepo" && git ls-files)
fi
for s in $students; do
	mkdir -p "$WB_CACHE/grade/$s"
	(
		cd "$SUBMISSIONS/$s"
		# A link (but one the course has, to the same place) or
		# anything else but a regular file counts as changed, and is
		# never followed.
		printf '%s\n' "$tracked" "$shipped" | sort -u | while read -r f; do
			[ -n "$f" ] || continue
			if [ -L "$f" ]; then
				[ -L "$WB_ROOT/$f" ] && [ "$(readlink "$f")" = "$(readlink "$WB_ROOT/$f")" ] ||
					echo "$f"
			elif [ -e "$f" ] && [ ! -f "$f" ]; then
				echo "$f"
			elif [ -f "$f" ] && ! cmp -s "$f" "$WB_ROOT/$f" && ! cmp -s "$f" "$srepo/$f"; then
				echo "$f"
			fi
		done
		find . ! -type d ! -path './.git/*' ! -path './_build/*' | sed 's#^\./##' |
			grep -vxF -e "$tracked" -e "$own" ${shipped:+-e "$shipped"} || :
	) | LC_ALL=C sort -u >"$WB_CACHE/grade/$s/changes"
done

# The pairs, lab by lab and, within a lab, by the content of the kernel
# files the submission brings: equal kernels follow each other, and the
# tree is rebuilt only where two neighbours differ.
for lab in $labs; do
	tree=$(WB_LABS=$WB_ROOT/labs wb_lab_own_files "$lab" | awk '$2 == "tree" { print $1 }')
	skel=$WB_CACHE/grade/.skeleton/$lab
	[ -z "$tree" ] || WB_LABS=$WB_ROOT/labs "$WB_ROOT/vm/skel.sh" "$lab" skeleton "$skel" >&2 ||
		wb_die "lab $lab: its skeleton cannot be made"
	for s in $students; do
		key=$(for p in $tree; do
			case $(sub_file "$s" "labs/$lab/$p") in
			ok) cat "$SUBMISSIONS/$s/labs/$lab/$p" ;;
			absent) cat "$skel/$p" ;;
			*) echo invalid ;;
			esac
		done | sha256sum | cut -c1-16)
		echo "$lab $key $s"
	done | LC_ALL=C sort
done | awk '{ print $3, $1 }' >"$rows/pairs"

# What each lab is worth, and the names its results must have, known
# before the jobs start: each lab's solution runs once per version of
# the course.
for lab in $labs; do
	lab_reference "$lab"
done

# The course's own kernels are built above (the solutions' runs), with
# no limit; a kernel build with a student's file has one.
WB_KBUILD_LIMIT=${WB_KBUILD_LIMIT:-600}
export WB_KBUILD_LIMIT
start=$(date +%s)
xargs -P "$JOBS" -n 2 sh "$WB_ROOT/vm/grade.sh" --one <"$rows/pairs" ||
	wb_say "warning: a grading job stopped without its row; the table says which"

# ---- the reports -------------------------------------------------------

# The rows in order, with a failed row for a job that stopped.
while read -r s lab; do
	if [ -f "$rows/$s.$lab.csv" ]; then
		cat "$rows/$s.$lab.csv"
	else
		echo "$s,$lab,0,$(cat "$rows/$lab.max"),fail,"
	fi
done <"$rows/pairs" | LC_ALL=C sort >"$rows/grades.csv"
{ echo "$CSV_HEADER"; cat "$rows/grades.csv"; } >"$OUT/grades.csv"
# The instructor's tripwires: lines of the graded files to look at.
{
	echo "# Lines of the graded files that reach for the harness, the checker or"
	echo "# files outside the submission (student,lab,file:line:text). Not a verdict."
	cat "$rows"/*.review 2>/dev/null || :
} >"$OUT/review.txt"
for s in $students; do
	{
		echo '<?xml version="1.0" encoding="UTF-8"?>'
		echo "<testsuites name=\"$s\">"
		for lab in $labs; do
			cat "$rows/$s.$lab.xml" 2>/dev/null || :
		done
		echo '</testsuites>'
	} >"$OUT/$s.xml"
	{
		echo "Kernel workbook: grades of $s"
		echo
		for lab in $labs; do
			cat "$rows/$s.$lab.txt" 2>/dev/null || echo "== lab $lab: not graded (the grading job stopped)"
		done
		awk -F, -v s="$s" '$1 == s { p += $3; m += $4 } END { printf "Total: %d of %d points\n", p, m }' \
			"$OUT/grades.csv"
	} >"$OUT/$s.txt"
done
wb_say "graded in $(($(date +%s) - start)) s: $OUT/grades.csv, one .xml (JUnit) and one .txt (feedback) per student, review.txt for the instructor ($(grep -vc '^#' "$OUT/review.txt") line(s) to look at)"
column -s, -t "$OUT/grades.csv" 2>/dev/null >&2 || cat "$OUT/grades.csv" >&2
