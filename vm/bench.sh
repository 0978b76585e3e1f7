#!/bin/sh
# make bench: measure the pipeline on this machine. Each figure is the
# median of several runs (the machines are noisy), with min and max.
# Writes _build/bench/bench.json and prints a table.
#
#   BENCH_RUNS=n     runs per figure (default 5; rebuilds use at most 3)
#   BENCH_COLD=0     skip the cold kernel build (706 s on a fresh 2-core machine)
#   BENCH_PIPELINE=0 skip the pipeline figures, run only the labs' benchmarks
#   BENCH_LABS="a b" run only these labs' benchmarks (none: no lab)
#   BENCH_GRADE=0    skip the grading figures (BENCH_GRADE_LABS: which labs)
#   BENCH_SAVE=1     copy each lab's table into its folder, for the book
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"

runs=${BENCH_RUNS:-5}
rruns=$((runs < 3 ? runs : 3))
out=$WB_ROOT/_build/bench
mkdir -p "$out"
wb_need_cache
tmp=$(mktemp -d "$WB_CACHE/bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results
: >"$results"

now() { date +%s.%N; }
elapsed() { echo "$(now) $1" | awk '{ printf "%.2f", $1 - $2 }'; }

# record NAME TARGET UNIT SAMPLES...
record() {
	name=$1 target=$2
	shift 2
	printf '%s\n' "$@" | wb_stats | awk -v name="$name" -v target="$target" '
		{ printf "%s\t%.2f\t%.2f\t%.2f\t%d\t%s\n", name, $1, $2, $3, $4, target }' >>"$results"
	wb_say "  $name: median $(tail -n 1 "$results" | cut -f2) s over $# runs"
}

# A copy of the labs, so that the bench can edit a student's files
# without touching the checkout.
cp -r "$WB_LABS" "$tmp/labs"
# The pipeline is timed on one lab (BENCH_LAB, default lab 0): the edits
# go to the first of its own files of kind module and of kind tree, as
# its lab.mk lists them.
lab=${BENCH_LAB:-lab0-taint}
wb_lab_require "$lab"
first_of() {
	wb_lab_own_files "$lab" | awk -v k="$1" '$2 == k { print $1; exit }'
}
modfile=$(first_of module)
treefile=$(first_of tree)
accel=$(wb_accel)

if [ "${BENCH_PIPELINE:-1}" = 1 ]; then
	wb_step "warming up: the kernel and lab 0 as the student has them"
	WB_LABS=$tmp/labs WB_QUIET=1 "$WB_ROOT/vm/lab.sh" "$lab" run >/dev/null 2>&1 </dev/null || :

	if [ "${BENCH_COLD:-1}" = 1 ]; then
		wb_step "cold kernel build: fresh tree, empty ccache (one run, about 12 minutes on 2 cores)"
		t=$(now)
		WB_CACHE=$tmp/cold CCACHE_DIR=$tmp/cold/ccache "$WB_ROOT/vm/kernel.sh" >"$tmp/cold.log" 2>&1 ||
			wb_die "the cold build failed: $(tail -n 20 "$tmp/cold.log")"
		record "cold kernel build" 480 "$(elapsed "$t")"
		rm -rf "$tmp/cold"
	fi

	wb_step "no-op make kernel"
	set --
	for _ in $(seq "$runs"); do
		t=$(now)
		WB_LABS=$tmp/labs "$WB_ROOT/vm/kernel.sh" >/dev/null 2>&1 || wb_die "make kernel failed"
		set -- "$@" "$(elapsed "$t")"
	done
	record "no-op make kernel" 5 "$@"

	# A graded result is the checker's verdict, pass (0) or fail (1); anything
	# else (a build error, a crash) means the figure would be meaningless.
	graded() {
		rc=0
		WB_LABS=$tmp/labs WB_QUIET=1 "$WB_ROOT/vm/lab.sh" "$1" run >"$tmp/lab.log" 2>&1 </dev/null || rc=$?
		wb_status_checked "$rc" || wb_die "lab $1 gave no graded result (status $rc): $(tail -n 20 "$tmp/lab.log")"
	}

	edit() {
		echo "/* bench edit $(now) */" >>"$tmp/labs/$lab/$1"
	}

	if [ -n "$treefile" ]; then
		wb_step "incremental rebuild after editing one built-in file ($treefile)"
		set --
		for _ in $(seq "$rruns"); do
			edit "$treefile"
			t=$(now)
			WB_LABS=$tmp/labs "$WB_ROOT/vm/kernel.sh" "$lab" student >/dev/null 2>&1 || wb_die "the rebuild failed"
			set -- "$@" "$(elapsed "$t")"
		done
		record "rebuild, one built-in file" - "$@"
	fi

	wb_step "boot to shell (QEMU start to the guest's shell prompt)"
	mkdir -p "$tmp/build" "$tmp/run"
	echo true >"$tmp/build/cmd.sh"
	# The run folder gets the kernel it boots, as vm/lab.sh gives it.
	# Under the tree's lock, released at once: the graded runs below take
	# it themselves.
	wb_klock
	wb_rundir_kernel "$tmp/run"
	exec 9>&-
	set --
	for _ in $(seq "$runs"); do
		t=$(now)
		WB_QUIET=0 wb_boot "$accel" cmd "$lab" "$tmp/build" "$tmp/run" 60 2>/dev/null |
			while read -r line; do
				case $line in
				WB-READY*) elapsed "$t" >"$tmp/ready" ;;
				esac
			done
		set -- "$@" "$(cat "$tmp/ready")"
	done
	record "boot to shell ($accel)" 2.0 "$@"

	# edit_to_graded FILE LABEL TARGET: edit one of the student's files, then
	# time make lab RUN=1 up to the checker's verdict.
	edit_to_graded() {
		file=$1 label=$2 target=$3
		wb_step "edit to graded result, lab $lab, $label ($file)"
		set --
		for _ in $(seq "$rruns"); do
			edit "$file"
			t=$(now)
			graded "$lab"
			set -- "$@" "$(elapsed "$t")"
		done
		record "edit to graded result, $label" "$target" "$@"
	}
	[ -z "$modfile" ] || edit_to_graded "$modfile" module 20
	[ -z "$treefile" ] || edit_to_graded "$treefile" built-in 60

	wb_step "book build (student edition, from scratch)"
	set --
	for _ in $(seq "$rruns"); do
		rm -rf "$tmp/book" "$tmp/book.doctrees"
		t=$(now)
		if ! WB_BOOK_OUT=$tmp/book "$WB_ROOT/vm/book.sh" student >"$tmp/book.log" 2>&1; then
			wb_say "the book does not build, so it is not timed: $(tail -n 5 "$tmp/book.log")"
			set --
			break
		fi
		set -- "$@" "$(elapsed "$t")"
	done
	[ $# -gt 0 ] && record "book build" - "$@"
fi

# Grading: seconds per (submission, lab) with a warm kernel, for a module
# lab and a built-in lab (BENCH_GRADE_LABS), over a class of BENCH_RUNS
# copies of the worked solution, one VM at a time. BENCH_GRADE=0 skips it.
if [ "${BENCH_GRADE:-1}" = 1 ]; then
	for glab in ${BENCH_GRADE_LABS:-folio-walk lab0-taint}; do
		wb_lab_require "$glab"
		wb_step "grading $runs copies of $glab's solution"
		rm -rf "$tmp/class" "$tmp/grades"
		"$WB_ROOT/vm/skel.sh" "$glab" solution "$tmp/sol-$glab" 2>/dev/null
		for i in $(seq "$runs"); do
			mkdir -p "$tmp/class/bench$i/labs/$glab"
			cp -r "$tmp/sol-$glab/." "$tmp/class/bench$i/labs/$glab/"
		done
		if SUBMISSIONS=$tmp/class LABS=$glab OUT=$tmp/grades JOBS=1 \
			"$WB_ROOT/vm/grade.sh" >"$tmp/grade.log" 2>&1; then
			# shellcheck disable=SC2046
			record "grade one submission, $glab" - $(cat "$tmp/grades/.rows/"*".$glab.time")
		else
			wb_say "grading $glab failed, not timed: $(tail -n 5 "$tmp/grade.log")"
		fi
		for i in $(seq "$runs"); do
			rm -rf "$WB_CACHE/grade/bench$i"
		done
	done
fi

# Not a time: how much of the repository is upstream kernel text, in
# the table for the record (tests/t-10-static.sh holds it under 5%).
share=$("$WB_ROOT/vm/upstream-share.sh")
wb_say "tracked lines that are upstream copies: ${share##* }% ($(echo "$share" | cut -d' ' -f1) of $(echo "$share" | cut -d' ' -f2))"

# The labs' own benchmarks: a lab with a bench.sh runs it in the guest
# with its solution; the script leaves an RST table in /build/bench.rst.
# BENCH_LABS="a b" picks labs, BENCH_LABS=none skips them all;
# BENCH_SAVE=1 also copies each table into the lab folder, where the
# book includes it.
for l in $(wb_lab_names); do
	[ -f "$WB_LABS/$l/bench.sh" ] || continue
	case " ${BENCH_LABS:-$l} " in
	*" $l "*) ;;
	*) continue ;;
	esac
	wb_step "lab $l: its own benchmark (labs/$l/bench.sh in the guest, with the solution)"
	table=$WB_LABWORK/$l/solution/build/bench.rst
	rm -f "$table"
	rc=0
	t=$(now)
	VARIANT=solution WB_CMD="sh /lab/bench.sh" WB_QUIET=1 WB_TIMEOUT=${BENCH_TIMEOUT:-900} \
		"$WB_ROOT/vm/lab.sh" "$l" cmd >"$tmp/$l.log" 2>&1 </dev/null || rc=$?
	if [ "$rc" != 0 ] || [ ! -s "$table" ]; then
		wb_say "error: the benchmark of lab $l failed (status $rc); its last lines:"
		tail -n 20 "$tmp/$l.log" >&2
		exit 1
	fi
	wb_say "  lab $l: measured in $(elapsed "$t") s"
	cp "$table" "$out/$l.rst"
	sed 's/^/    /' "$table" >&2
	if [ "${BENCH_SAVE:-0}" = 1 ]; then
		cp "$table" "$WB_LABS/$l/bench.rst"
		wb_say "  saved to labs/$l/bench.rst"
	fi
done

# Put the tree back as the checkout's labs have it.
"$WB_ROOT/vm/kernel.sh" >/dev/null 2>&1 || :

awk -F '\t' -v host="$(uname -n)" -v cpus="$(nproc)" -v accel="$accel" '
	BEGIN { printf "{\n  \"host\": \"%s\",\n  \"cpus\": %s,\n  \"accel\": \"%s\",\n  \"figures\": [\n", host, cpus, accel }
	{ printf "%s    {\"name\": \"%s\", \"median_s\": %s, \"min_s\": %s, \"max_s\": %s, \"runs\": %s, \"target_s\": %s}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5, ($6 == "-" ? "null" : $6) }
	END { printf "\n  ]\n}\n" }' "$results" >"$out/bench.json"
{
	printf '%-36s %8s %8s %8s %5s %8s\n' figure median min max runs target
	awk -F '\t' '{ printf "%-36s %8s %8s %8s %5s %8s\n", $1, $2, $3, $4, $5, $6 }' "$results"
} | tee "$out/bench.txt"
wb_say "written: $out/bench.json, $out/bench.txt"
