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
# OUT (default _build/grade) receives grades.csv (student,lab,points,
# max,status), STUDENT.xml (JUnit: one test case per result of the
# checker) and STUDENT.txt (feedback for the student). SHARD=i/N grades
# the i-th of N slices of the class (students i, i+N, ...), for N
# runners. JOBS runs that many VMs side by side; the kernel tree is
# shared (one build per course) and builds take turns on its lock, each
# one restoring the tree's own files, so that no submission's kernel
# file reaches another's build.
#
# Statuses: pass, fail (including no verdict), build-error, timeout,
# oops, and ignored-changes when the submission also changed files of
# the lab, the kernel series or the harness (its points are still those
# of the instructor's checker on its student files).
set -eu
. "$(dirname "$0")/lib.sh"

# ---- one (student, lab) ------------------------------------------------

# grade_one STUDENT LAB: run the instructor's lab on the student's files;
# writes $rows/STUDENT.LAB.{csv,xml,txt}.
grade_one() {
	student=$1 lab=$2
	sub=$SUBMISSIONS/$student
	work=$WB_CACHE/grade/$student
	stage=$work/labs
	rm -rf "${stage:?}/$lab" "$work/run/$lab"
	mkdir -p "$stage" "$work/run"
	cp -r "$WB_ROOT/labs/$lab" "$stage/$lab"
	# The lab folder as the instructor has it, student files aside.
	missing=''
	for path in $(WB_LABS=$WB_ROOT/labs wb_lab_own_files "$lab" | cut -d' ' -f1); do
		rm -f "$stage/$lab/$path"
		if [ -f "$sub/labs/$lab/$path" ]; then
			mkdir -p "$(dirname "$stage/$lab/$path")"
			cp "$sub/labs/$lab/$path" "$stage/$lab/$path"
		else
			missing="$missing labs/$lab/$path"
		fi
	done
	ignored=$(grep -E "^(labs/$lab/|solutions/$lab/|kernel/|vm/|tests/|Makefile$)" \
		"$work/changes" || :)

	t0=$(date +%s)
	rc=0
	WB_LABS=$stage WB_LABWORK=$work/work WB_RUN_DIR=$work/run/$lab WB_QUIET=1 \
		VARIANT=student "$WB_ROOT/vm/lab.sh" "$lab" run \
		>"$work/$lab.log" 2>&1 </dev/null || rc=$?
	echo $(($(date +%s) - t0)) >"$rows/$student.$lab.time"
	ktap=$work/run/$lab/ktap
	[ -f "$ktap" ] || : >"$ktap"
	case $rc in
	0) status=pass ;;
	1 | 5) status=fail ;;
	3) status=oops ;;
	4) status=timeout ;;
	6) status=build-error ;;
	*) status=fail ;;
	esac
	max=$(cat "$rows/$lab.max")
	points=0
	if [ ! -f "$work/run/$lab/ktap.broken" ] && [ "$rc" -le 1 ] &&
		score=$(WB_LABS=$WB_ROOT/labs wb_points "$lab" "$ktap" 2>/dev/null); then
		points=${score% *}
	fi
	run_status=$status
	[ -z "$ignored" ] || status="ignored-changes"
	printf '%s,%s,%s,%s,%s\n' "$student" "$lab" "$points" "$max" "$status" \
		>"$rows/$student.$lab.csv"

	# Feedback: what a student can act on.
	{
		echo "== lab $lab: $run_status, $points of $max points"
		[ -z "$missing" ] || echo "   not in your submission (the skeleton was used):$missing"
		case $run_status in
		build-error)
			echo "   your files did not build; the compiler said:"
			grep -v '^==>' "$work/$lab.log" | head -n 30 | sed 's/^/   | /'
			;;
		timeout | oops)
			echo "   the run ended early:"
			grep -v '^==>' "$work/$lab.log" | tail -n 25 | sed 's/^/   | /'
			;;
		*)
			if [ "$rc" = 5 ] || [ -f "$work/run/$lab/ktap.broken" ]; then
				echo "   the checker gave no whole verdict:"
				grep -E '^error:' "$work/$lab.log" | sed 's/^/   | /'
			fi
			awk '/^not ok/ { p = 1; print "   " $0; next }
				/^# Totals:/ { next }
				/^#/ && p { print "   " $0; next } { p = 0 }' "$ktap"
			;;
		esac
		if [ -n "$ignored" ]; then
			echo "   ignored: your submission changed these files, which grading takes from the course instead:"
			printf '%s\n' "$ignored" | sed 's/^/     /'
		fi
		echo
	} >"$rows/$student.$lab.txt"

	# JUnit: one test case per result; a run without a report is one
	# failed case that says why.
	junit_lab "$lab" "$run_status" "$ktap" "$work/$lab.log" >"$rows/$student.$lab.xml"
}

# junit_lab LAB STATUS KTAP LOG: the lab's <testsuite>.
junit_lab() {
	awk -v lab="$1" -v status="$2" -v logfile="$4" '
		function esc(s) {
			gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s)
			gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
			return s
		}
		/^(not )?ok [0-9]+/ {
			n++
			nm[n] = $0
			sub(/^(not )?ok [0-9]+ */, "", nm[n])
			bad[n] = ($1 == "not")
			skip[n] = (nm[n] ~ / # SKIP/)
			nf += bad[n]
			next
		}
		/^# / && n { diag[n] = diag[n] substr($0, 3) "\n" }
		END {
			if (!n) {
				while ((getline l < logfile) > 0)
					tail[++t] = l
				for (i = (t > 25 ? t - 24 : 1); i <= t; i++)
					why = why tail[i] "\n"
				printf "  <testsuite name=\"%s\" tests=\"1\" failures=\"%d\">\n", esc(lab), status != "pass"
				printf "    <testcase classname=\"%s\" name=\"%s: run\">\n", esc(lab), esc(lab)
				if (status != "pass")
					printf "      <failure message=\"%s\">%s</failure>\n", esc(status), esc(why)
				print "    </testcase>"
				print "  </testsuite>"
				exit
			}
			printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">\n", esc(lab), n, nf
			for (i = 1; i <= n; i++) {
				printf "    <testcase classname=\"%s\" name=\"%s\">\n", esc(lab), esc(nm[i])
				if (bad[i])
					printf "      <failure message=\"%s\">%s</failure>\n", esc(nm[i]), esc(diag[i])
				else if (skip[i])
					print "      <skipped/>"
				print "    </testcase>"
			}
			print "  </testsuite>"
		}' "$3"
}

# lab_max LAB: the points a lab is worth: the sum of its POINTS, or one
# per result of the solution's report (run once per course, kept).
lab_max() {
	pts=$(WB_LABS=$WB_ROOT/labs wb_manifest "$1" POINTS)
	if [ -n "$pts" ]; then
		# shellcheck disable=SC2086
		printf '%s\n' $pts | awk '{ s += $1 } END { print s }'
		return
	fi
	ref=$WB_CACHE/grade/.reference/$1
	if [ ! -f "$ref.max" ]; then
		mkdir -p "$ref"
		WB_LABS=$WB_ROOT/labs WB_RUN_DIR=$ref/run WB_QUIET=1 VARIANT=solution \
			"$WB_ROOT/vm/lab.sh" "$1" run >"$ref/log" 2>&1 </dev/null || :
		grep -cE '^(not )?ok [0-9]+' "$ref/run/ktap" >"$ref.max" 2>/dev/null || echo 0 >"$ref.max"
	fi
	cat "$ref.max"
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
export SUBMISSIONS OUT WB_ROOT
rows=$OUT/.rows
rm -rf "$rows"
mkdir -p "$rows"

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
for s in $students; do
	mkdir -p "$WB_CACHE/grade/$s"
	(
		cd "$SUBMISSIONS/$s"
		printf '%s\n' "$tracked" | while read -r f; do
			[ -f "$f" ] && ! cmp -s "$f" "$WB_ROOT/$f" && echo "$f"
		done
		find . -type f ! -path './.git/*' ! -path './_build/*' | sed 's#^\./##' |
			grep -vxF -e "$tracked" -e "$own" || :
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
			cat "$SUBMISSIONS/$s/labs/$lab/$p" 2>/dev/null || cat "$skel/$p"
		done | sha256sum | cut -c1-16)
		echo "$lab $key $s"
	done | LC_ALL=C sort
done | awk '{ print $3, $1 }' >"$rows/pairs"

# What each lab is worth, known before the jobs start (a lab without
# POINTS runs its solution once for it).
for lab in $labs; do
	lab_max "$lab" >"$rows/$lab.max"
done

start=$(date +%s)
xargs -P "$JOBS" -n 2 sh "$WB_ROOT/vm/grade.sh" --one <"$rows/pairs" ||
	wb_say "warning: a grading job stopped without its row; the table says which"

# ---- the reports -------------------------------------------------------

echo 'student,lab,points,max,status' >"$OUT/grades.csv"
while read -r s lab; do
	if [ -f "$rows/$s.$lab.csv" ]; then
		cat "$rows/$s.$lab.csv"
	else
		echo "$s,$lab,0,$(cat "$rows/$lab.max"),fail"
	fi
done <"$rows/pairs" | LC_ALL=C sort >>"$OUT/grades.csv"
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
wb_say "graded in $(($(date +%s) - start)) s: $OUT/grades.csv, one .xml (JUnit) and one .txt (feedback) per student"
column -s, -t "$OUT/grades.csv" 2>/dev/null >&2 || cat "$OUT/grades.csv" >&2
