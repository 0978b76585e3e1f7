#!/bin/sh
# make check LAB=x: prove that the lab's checker checks.
#   1. the solution passes the checker, with the lab's gdb script attached;
#   2. what the gdb script printed matches its "# expect:" lines, and so
#      does what the lab's drgn script (lab.drgn, if it has one) printed
#      on the snapshot taken at the steps' wb_drgn_point;
#   3. the skeleton, generated from the solution, fails the checker; for
#      a tour, which has no skeleton, its negative run fails every check.
# A student repository (make student-repo) has no solutions: there a
# lab's check is what its skeleton proves alone:
#   1. the skeleton builds, boots and its checker reports in full;
#   2. the skeleton fails the checker.
# With --own (make soak in a student repository), the student's own
# files take the solution's place in 1 and 2, and nothing else runs.
# Prints one KTAP result per point and exits non-zero if any failed.
set -eu
. "$(dirname "$0")/lib.sh"

own=0
if [ "${1:-}" = --own ]; then
	own=1
	shift
fi
lab=${1:-}
wb_lab_require "$lab"
ldir=$(wb_lab_dir "$lab")
# The runs: the first with lab.gdb attached, then the second.
first=solution who="the solution"
second=skeleton what="the skeleton, generated from the solution"
if [ "$own" = 1 ]; then
	first=student who="your work in labs/$lab" second=''
elif wb_lab_is_tour "$lab"; then
	second=negative what="the negative run, every expectation replaced by a wrong one"
elif wb_lab_shipped "$lab"; then
	first='' what="the skeleton, made from skeletons/$lab"
fi
# With a lab.drgn, the first run also checks what drgn saw.
drgn=0
[ -z "$first" ] || [ ! -f "$ldir/lab.drgn" ] || drgn=1
if [ -n "$first" ] && [ -n "$second" ]; then
	t_plan $((3 + drgn))
else
	t_plan $((2 + drgn))
fi

# The report must be whole: vm/verdict.sh's reader (wb_ktap check).
ktap_wellformed() {
	wb_ktap check "$1" >/dev/null
}

# Each check has run folders of its own (two checks of one lab may run
# side by side); those of earlier checks that are over go first.
for d in "$WB_CACHE"/run/check-"$lab"-*.[0-9]*; do
	[ -d "$d" ] || continue
	kill -0 "${d##*.}" 2>/dev/null || rm -rf "$d"
done

# run_variant VARIANT: one boot of the lab from VARIANT, its status in
# the run folder. It runs in the background, its pid in $run_pid for the
# trap below, and is waited for: lab.sh is a child that a TERM to this
# run stops (its own trap takes the VM down), since a job in the
# background ignores Ctrl-C.
run_variant() {
	rundir=$WB_CACHE/run/check-$lab-$1.$$
	rm -rf "$rundir"
	mkdir -p "$rundir"
	(
		child=
		trap 'kill $child 2>/dev/null || :' TERM
		VARIANT=$1 WB_QUIET=${WB_QUIET:-1} WB_RUN_DIR=$rundir \
			"$WB_ROOT/vm/lab.sh" "$lab" run </dev/null &
		child=$!
		rc=0
		wait "$child" || rc=$?
		# A TERM ends the wait at once: wait again, for lab.sh to
		# have taken its VM down.
		while kill -0 "$child" 2>/dev/null; do
			wait "$child" || rc=$?
		done
		echo "$rc" >"$rundir/status"
	) &
	run_pid=$!
	wait "$run_pid" || :
}

# The first run, then the second (the skeleton, or a tour's negative
# run), each in its own run folder. They boot one after the other: side
# by side they shared the two cores well, but a soak saw a second guest
# that never reached its init (1 boot of about 30), which no boot alone
# has shown here. The second run's kernel is often kept from before
# (make kernel), so that its build costs a second or two. The second run
# proves that the checker fails; the kernel's detectors, which the first
# run and the fixtures of tests/t-20-failures.sh prove, are off in it
# (WB_DETECTORS=0): its boot takes about 40 % less time, and the
# programs it runs a quarter less (docs/authoring.rst).
sdir=$WB_CACHE/run/check-$lab-$first.$$
# Stopped (Ctrl-C, or a TERM from a CI job's timeout), the run going on
# stops, and this check ends when it has taken its VM down. A run may
# be over already: its kill fails, which set -e must not turn into an
# exit without the trap's own status.
run_pid=
trap 'kill $run_pid 2>/dev/null || :; wait $run_pid || :; exit 130' INT TERM
if [ -n "$first" ]; then
	dscript=
	[ "$drgn" = 0 ] || dscript=$ldir/lab.drgn
	echo "# $lab: $who, with $ldir/lab.gdb attached${dscript:+ and $dscript at its drgn point}"
	WB_DRGN_SCRIPT=$dscript WB_GDB_SCRIPT=$ldir/lab.gdb run_variant "$first"
fi
if [ -n "$second" ]; then
	echo "# $lab: $what"
	# A tour with guests of its own makes its checks on the host, from
	# their consoles: its negative run reads those of the first run.
	from=
	[ "$second" != negative ] || [ -z "$(wb_manifest "$lab" GUESTS)" ] || from=$sdir
	WB_GUESTS_FROM=$from WB_DETECTORS=0 run_variant "$second"
fi
trap - INT TERM

if [ -n "$first" ]; then
	rc=$(cat "$sdir/status")
	# Every point is earned.
	score=$(wb_ktap points "$sdir/ktap")
	if [ "$rc" = "$WB_EXIT_PASS" ] && ktap_wellformed "$sdir/ktap" && [ "${score% *}" = "${score#* }" ]; then
		t_ok "$lab: $who passes the checker (${score% *} points)"
	else
		t_fail "$lab: $who passes the checker"
		echo "# expected: status 0, a well-formed KTAP report, every point earned; seen: status $rc, points: $score"
		wb_ktap failures "$sdir/ktap" 2>/dev/null | sed 's/^/# /'
	fi

	t_expects "$lab: gdb saw what lab.gdb expects" "$ldir/lab.gdb" "$sdir/gdb.log"
	if [ -f "$ldir/lab.drgn" ]; then
		t_expects "$lab: drgn saw what lab.drgn expects, at the steps' wb_drgn_point" \
			"$ldir/lab.drgn" "$sdir/drgn.log"
	fi
fi

# A tour has no skeleton: its negative run, in which every expectation
# of the checker is a wrong one, must fail every result its checker
# reports (the detectors, off, report none).
if [ "$second" = negative ]; then
	ndir=$WB_CACHE/run/check-$lab-negative.$$
	rc=$(cat "$ndir/status")
	total=$(wb_ktap_count "$ndir/ktap" total) failed=$(wb_ktap_count "$ndir/ktap" fail)
	if [ "$rc" = "$WB_EXIT_FAIL" ] && ktap_wellformed "$ndir/ktap" && [ "$total" -gt 0 ] && [ "$failed" = "$total" ]; then
		t_ok "$lab: every one of its $total assertions fails on a wrong expectation"
	else
		t_fail "$lab: every one of its assertions fails on a wrong expectation"
		echo "# expected: status 1, every result not ok; seen: status $rc, $failed of $total not ok"
		wb_ktap passes "$ndir/ktap" 2>/dev/null | sed 's/^/# still passing: /'
	fi
fi
if [ "$second" != skeleton ]; then
	t_done
	exit
fi

kdir=$WB_CACHE/run/check-$lab-skeleton.$$
rc=$(cat "$kdir/status")
total=$(wb_ktap_count "$kdir/ktap" total) failed=$(wb_ktap_count "$kdir/ktap" fail)
# Without a solution, the skeleton's run is also the proof that the lab
# builds, boots and that its checker runs to its end.
if [ -z "$first" ]; then
	if wb_status_checked "$rc" && ktap_wellformed "$kdir/ktap"; then
		t_ok "$lab: the skeleton builds, boots and its checker reports in full ($total results)"
	else
		t_fail "$lab: the skeleton builds, boots and its checker reports in full"
		echo "# expected: status 0 or 1 and a whole KTAP report; seen: status $rc, $total results"
		tail -n 20 "$kdir/console.log" 2>/dev/null | sed 's/^/#   /'
	fi
fi
if [ "$rc" = "$WB_EXIT_FAIL" ] && ktap_wellformed "$kdir/ktap" && [ "$failed" -gt 0 ]; then
	t_ok "$lab: the skeleton fails the checker ($failed of $total checks fail)"
else
	t_fail "$lab: the skeleton fails the checker"
	echo "# expected: the skeleton builds, boots, and the checker reports failures (status 1); seen: status $rc"
fi
t_done
