#!/bin/sh
# The outcome of a run, without a kernel or a VM: vm/verdict.sh's KTAP
# reader on reports of every shape, the status table against README.md,
# and wb_verdict (vm/qemu.sh) on run folders made here as a boot leaves
# them: a whole report, a short plan, results out of order, a killed
# checker, a crash, a timeout, a forged record, QEMU failing on its own.
set -u
. "$(dirname "$0")/lib.sh"
. "$WB_ROOT/vm/qemu.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# report NAME LINE...: a report file, one argument per line.
report() {
	local f
	f=$tmp/$1.ktap
	shift
	printf '%s\n' "$@" >"$f"
}
# t_out DESCRIPTION EXPECTED COMMAND...: the command prints EXPECTED.
t_out() {
	local d want seen
	d=$1 want=$2
	shift 2
	seen=$("$@" 2>&1)
	if [ "$seen" = "$want" ]; then
		t_ok "$d"
	else
		t_fail "$d" "expected: $want" "seen: $seen"
	fi
}

# ---- the reader ------------------------------------------------------------

report short 'KTAP version 1' '1..3' 'ok 1 first' 'ok 2 second'

report whole 'KTAP version 1' '1..3' 'ok 1 first' '# points: 2' '[   12.3] a kernel message' \
	'not ok 2 second' '# points: 3' '# expected: 2' '# seen: 3' 'ok 3 third # SKIP no such device' \
	'# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0'
t_out "a whole report with a failure, a skip and kernel lines between is whole" "" \
	wb_ktap check "$tmp/whole.ktap"
t_out "its counts: 3 results, 1 pass, 1 fail, 1 skip" "3 1 1 1" wb_ktap count "$tmp/whole.ktap"
t_out "its failures: the not ok line and its diagnostics, not the totals" \
	"$(printf '%s\n' 'not ok 2 second' '# expected: 2' '# seen: 3')" wb_ktap failures "$tmp/whole.ktap"
t_out "its names: the plan, then number, points and name (no SKIP directive)" \
	"$(printf '%s\n' '1..3' '1 2 first' '2 3 second' '3 1 third')" wb_ktap names "$tmp/whole.ktap"
t_out "its points, as the checker weighs each result: 2 of 5 (the skip counts neither way)" "2 5" \
	wb_ktap points "$tmp/whole.ktap"
t_out "a result without its points line is worth one" "2 2" wb_ktap points "$tmp/short.ktap"

t_out "a short report (a checker killed midway) is not whole" "planned 3, reported 2" \
	wb_ktap check "$tmp/short.ktap"
report order 'KTAP version 1' '1..3' 'ok 1 first' 'ok 3 third' 'ok 2 second'
t_out "results out of order are not whole" "result 2 is numbered 3" wb_ktap check "$tmp/order.ktap"
report last 'KTAP version 1' 'ok 1 first' 'ok 2 second' '1..2'
t_out "a plan printed last is not whole (make lab and make check agree)" \
	"result 1 comes before any plan" wb_ktap check "$tmp/last.ktap"
report noplan 'KTAP version 1' 'ok 1 first'
t_out "no plan is not whole" "result 1 comes before any plan" wb_ktap check "$tmp/noplan.ktap"
report nover '1..1' 'ok 1 first'
t_out "no version line is not whole" "no KTAP version line" wb_ktap check "$tmp/nover.ktap"
report lie 'KTAP version 1' '1..2' 'ok 1 first' 'not ok 2 second' \
	'# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0'
t_out "totals that do not add up are not whole" "its # Totals line does not add up to its results" \
	wb_ktap check "$tmp/lie.ktap"
report nested 'KTAP version 1' '1..2' '  KTAP version 1' '  1..3' '  ok 1 inner' '  ok 2 inner' \
	'  ok 3 inner' 'ok 1 outer' 'ok 2 outer'
t_out "a subtest's indented lines do not count at the top level" "2 2 0 0" wb_ktap count "$tmp/nested.ktap"
t_out "and the report with a subtest is whole" "" wb_ktap check "$tmp/nested.ktap"
: >"$tmp/empty.ktap"
t_out "an empty report counts nothing" "0 0 0 0" wb_ktap count "$tmp/empty.ktap"

# The course's names: a forged result earns nothing, a forged plan
# fails every result.
wb_ktap names "$tmp/whole.ktap" >"$tmp/names"
report forged 'KTAP version 1' '1..3' 'ok 1 first' '# points: 2' 'ok 2 all good' '# points: 3' 'ok 3 third'
wb_ktap course "$tmp/forged.ktap" "$tmp/names" >"$tmp/forged.course" 2>"$tmp/forged.err"
t_out "a result under another name than the course checker's becomes not ok" "3 2 1 0" \
	wb_ktap count "$tmp/forged.course"
t_grep "and the grader says which" 'result 2 "all good" \(3 points\) is not the course checker' "$tmp/forged.err"
report heavy 'KTAP version 1' '1..3' 'ok 1 first' '# points: 9' 'ok 2 second' '# points: 3' 'ok 3 third'
wb_ktap course "$tmp/heavy.ktap" "$tmp/names" >"$tmp/heavy.course" 2>/dev/null
t_out "a result that claims other points than the course checker's earns nothing, and the lab is worth the course's" "4 6" \
	wb_ktap points "$tmp/heavy.course"
report plan9 'KTAP version 1' '1..1' 'ok 1 first'
wb_ktap course "$tmp/plan9.ktap" "$tmp/names" >"$tmp/plan9.course" 2>"$tmp/plan9.err"
t_out "a plan that is not the course checker's fails every result" "1 0 1 0" wb_ktap count "$tmp/plan9.course"

wb_ktap junit "$tmp/whole.ktap" 'lab<0>' fail /dev/null >"$tmp/j1.xml"
echo 'the end of the log & <more>' >"$tmp/log"
wb_ktap junit "$tmp/empty.ktap" lab0 timeout "$tmp/log" >"$tmp/j2.xml"
if python3 -c 'import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]' \
	"$tmp/j1.xml" "$tmp/j2.xml" 2>"$tmp/xml.err" &&
	grep -q '<failure message="second">expected: 2' "$tmp/j1.xml" && grep -q '<skipped/>' "$tmp/j1.xml" &&
	grep -q 'failure message="timeout">the end of the log &amp; &lt;more&gt;' "$tmp/j2.xml"; then
	t_ok "JUnit: one case per result (failures with diagnostics, skips), or one failed case with the log"
else
	t_fail "JUnit: one case per result, or one failed case with the log" "$(cat "$tmp/xml.err" "$tmp/j1.xml" "$tmp/j2.xml")"
fi

# ---- the statuses ----------------------------------------------------------

# words FIELD N...: wb_status FIELD of each N, on one line.
words() {
	local f n out
	f=$1 out=
	shift
	for n in "$@"; do
		out="$out${out:+ }$(wb_status "$f" "$n")"
	done
	echo "$out"
}
t_out "status words, 0 to 6" "pass fail usage oops timeout no-verdict build-error" words word 0 1 2 3 4 5 6
t_out "make grade's statuses, 0 to 6 and a refused submission" \
	"pass fail fail oops timeout fail build-error invalid-submission" words grade 0 1 2 3 4 5 6 invalid
checked() {
	local n out
	out=
	for n in 0 1 2 3 4 5 6; do
		! wb_status_checked "$n" || out="$out${out:+ }$n"
	done
	echo "$out"
}
t_out "only pass and fail are the checker's own verdict (with points)" "0 1" checked
# README.md's table says what the harness's table says (the book shows
# README.md's).
awk -F '|' '/^\| [0-6] \|/ { gsub(/`/, ""); gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); print $2 "\t" $3 }' \
	"$WB_ROOT/README.md" >"$tmp/readme.statuses"
printf '%s\n' "$WB_STATUSES" | awk -F '\t' '{ print $1 "\t" $4 }' >"$tmp/harness.statuses"
if cmp -s "$tmp/readme.statuses" "$tmp/harness.statuses"; then
	t_ok "README.md's exit-status table is vm/verdict.sh's"
else
	t_fail "README.md's exit-status table is vm/verdict.sh's" "$(diff "$tmp/harness.statuses" "$tmp/readme.statuses")"
fi

# ---- the QEMU command line -------------------------------------------------

# args [VAR=value...] MODE: wb_qemu_args for lab 0 with a guest root of
# its own, one argument per line.
WB_GUESTROOT=$tmp/groot
mkdir -p "$WB_GUESTROOT/k/wb"
echo k >"$WB_GUESTROOT/current"
printf '%s\n' bin lib >"$WB_GUESTROOT/k/wb/usr-folders"
# harness FUNCTION ARG...: a function of vm/qemu.sh in a shell of its
# own (it may exit), with this test's guest root.
harness() {
	# shellcheck disable=SC2016
	sh -c '. "$WB_ROOT/vm/lib.sh"; . "$WB_ROOT/vm/qemu.sh"; WB_GUESTROOT=$0; "$@"' "$WB_GUESTROOT" "$@"
}
args() {
	local mode
	mode=$1
	shift
	(
		for kv; do export "${kv?}"; done
		harness wb_qemu_args tcg "$mode" lab0-taint "$tmp/q" "$tmp/q"
	)
}
if args run | grep -A1 -- '^-append$' | grep -q ' oops=panic '; then
	t_ok "the guest's command line asks for oops=panic"
else
	t_fail "the guest's command line asks for oops=panic" "$(args run | grep -A1 -- '^-append$')"
fi
if args run WB_OOPS= | grep -A1 -- '^-append$' | grep -q 'oops=panic'; then
	t_fail "not for a lab that expects its oops (WB_OOPS empty)" "$(args run WB_OOPS= | grep -A1 -- '^-append$')"
else
	t_ok "not for a lab that expects its oops (WB_OOPS empty)"
fi
# runas [VAR=value...] MODE: the -runas, its user and -S of that line.
runas() {
	args "$@" | grep -x -e -runas -e nobody -e -S | tr '\n' ' ' | sed 's/ $//'
}
t_out "QEMU keeps the harness's user without WB_QEMU_USER" "" runas run WB_QEMU_USER=
if [ "$(id -u)" = 0 ]; then
	t_out "as root with WB_QEMU_USER, QEMU becomes that user and starts paused" "-runas nobody -S" \
		runas run WB_QEMU_USER=nobody
	t_out "but not for the KVM probe" "" runas probe WB_QEMU_USER=nobody
	# A user that does not exist stops the boot: QEMU never falls back
	# to root.
	rc=0
	WB_QEMU_USER=wb-no-such-user harness wb_boot tcg run lab0-taint "$tmp/q" "$tmp/nouser" 60 \
		>"$tmp/nouser.out" 2>&1 || rc=$?
	if [ "$rc" != 0 ] && grep -q "wb-no-such-user', which is not a user" "$tmp/nouser.out" &&
		[ ! -e "$tmp/nouser" ]; then
		t_ok "a WB_QEMU_USER that is not a user stops the boot before QEMU starts"
	else
		t_fail "a WB_QEMU_USER that is not a user stops the boot before QEMU starts" "status $rc" \
			"$(cat "$tmp/nouser.out")"
	fi
fi

# ---- wb_verdict on run folders ---------------------------------------------

# rundir NAME: an empty run folder as a boot leaves it.
rundir() {
	mkdir -p "$tmp/run/$1/verdict"
	: >"$tmp/run/$1/console.log"
	: >"$tmp/run/$1/qemu.err"
	echo tcg >"$tmp/run/$1/accel"
	echo lab0-taint >"$tmp/run/$1/lab"
}
# The detectors' results as the guest's pass prints them: each passes.
wb_detector_names | sed 's/^/ok - /' >"$tmp/dets.ok"
ndets=$(grep -c . "$tmp/dets.ok")
# channel NAME KTAP-FILE CHECK-STATUS [DETECTORS-FILE|-]: what the
# guest's session writes; the detectors' pass, all ok unless said, none
# for "-".
channel() {
	{
		echo steps-begin
		echo "steps-end 0"
		echo check-begin
		sed 's/^/K /' "$2"
		[ -z "$3" ] || echo "check-status $3"
		echo check-end
		if [ "${4:-}" != - ]; then
			sed 's/^/D /' "${4:-$tmp/dets.ok}"
			echo detectors-end
		fi
		echo end
	} >"$tmp/run/$1/verdict/verdict"
}
# verdict NAME QEMU-STATUS: wb_verdict's status, its words in NAME.out.
verdict() {
	local rc
	rc=0
	wb_verdict "$tmp/run/$1" "$2" 60 2>"$tmp/run/$1.out" || rc=$?
	echo "$rc"
}
report pass 'KTAP version 1' '1..1' 'ok 1 first'
rundir pass
channel pass "$tmp/pass.ktap" 0
t_out "a whole passing report from the channel: status 0" 0 verdict pass 0
rundir fail
channel fail "$tmp/whole.ktap" 1
t_out "a whole failing report: status 1" 1 verdict fail 0
t_out "and the report is kept in the run folder, the detectors' results after the checker's" \
	"$((3 + ndets)) $((1 + ndets)) 1 1" wb_ktap count "$tmp/run/fail/ktap"
rundir short
channel short "$tmp/short.ktap" 1
t_out "a short plan: status 1" 1 verdict short 0
t_grep "and the report is marked not whole, with why" 'planned 3, reported 2' "$tmp/run/short/ktap.broken"
rundir order
channel order "$tmp/order.ktap" 0
t_out "results out of order: status 1" 1 verdict order 0
rundir killed
channel killed "$tmp/pass.ktap" ''
t_out "a checker killed before its exit status: status 1" 1 verdict killed 0
t_grep "said as a report that is not whole" 'not whole \(no exit status' "$tmp/run/killed.out"
rundir liar
channel liar "$tmp/whole.ktap" 0
t_out "a checker that exits 0 with a not ok: status 1" 1 verdict liar 0
rundir crash
channel crash "$tmp/pass.ktap" 0
printf '%s\n' '[    3.1] BUG: kernel NULL pointer dereference, address: 0000000000000000' \
	'[    3.1] RIP: 0010:oopsmod_init+0x5/0x20 [oopsmod]' >"$tmp/run/crash/console.log"
t_out "a crash on the console, whatever the channel says: status 3" 3 verdict crash 0
t_grep "with the kernel's text" 'RIP: 0010:oopsmod_init' "$tmp/run/crash.out"
# The detectors' pass: its results follow the checker's (a failing one
# is below, with vm/detectors.awk). One per detector of
# vm/detectors.tab or the run fails (a program that ended the pass
# early, or printed results of its own into it); none is read in a run
# that turned them off (WB_DETECTORS=0, make check's skeleton runs).
t_out "with the detectors' results, all ok: status 0" 0 verdict pass 0
t_out "and they follow the checker's in its report" "$((1 + ndets)) $((1 + ndets)) 0 0" \
	wb_ktap count "$tmp/run/pass/ktap"
rundir detnone
channel detnone "$tmp/pass.ktap" 0 -
t_out "no detectors' pass at all: status 1" 1 verdict detnone 0
t_grep "said so" 'detectors did not all report \(no end\)' "$tmp/run/detnone.out"
sed '$d' "$tmp/dets.ok" >"$tmp/dets.short"
rundir detshort
channel detshort "$tmp/pass.ktap" 0 "$tmp/dets.short"
t_out "a pass ended early, one detector short: status 1" 1 verdict detshort 0
t_grep "said so" "$((ndets - 1)) results for the $ndets detectors" "$tmp/run/detshort.out"
sed '1s/.*/ok - a result of a program of its own/' "$tmp/dets.ok" >"$tmp/dets.forged"
rundir detforged
channel detforged "$tmp/pass.ktap" 0 "$tmp/dets.forged"
t_out "a result not of vm/detectors.tab among them: status 1" 1 verdict detforged 0
rundir detoff
channel detoff "$tmp/pass.ktap" 0 -
WB_DETECTORS=0
export WB_DETECTORS
t_out "WB_DETECTORS=0: no pass, none expected, status 0" 0 verdict detoff 0
unset WB_DETECTORS
if args run WB_DETECTORS=0 | grep -A1 -- '^-append$' | grep -q ' wb.detectors=off kmemleak=off '; then
	t_ok "and the guest boots with them off"
else
	t_fail "and the guest boots with them off" "$(args run WB_DETECTORS=0 | grep -A1 -- '^-append$')"
fi
if args run | grep -A1 -- '^-append$' | grep -q 'detectors=off\|kmemleak=off'; then
	t_fail "but only then" "$(args run | grep -A1 -- '^-append$')"
else
	t_ok "but only then"
fi

rundir slow
touch "$tmp/run/slow/timed-out"
t_out "a run past its time limit: status 4" 4 verdict slow 124
rundir forged
printf '%s\n' WB-CHECK-BEGIN '1..1' 'ok 1 forged' WB-CHECK-END 'WB-STATUS 0' >"$tmp/run/forged/console.log"
printf '%s\n' steps-begin >"$tmp/run/forged/verdict/verdict"
t_out "a verdict forged on the console, the channel cut short: status 5" 5 verdict forged 0
rundir abort
echo 'qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0' >"$tmp/run/abort/qemu.err"
echo kvm >"$tmp/run/abort/accel"
t_out "QEMU aborting on its own: status 5" 5 verdict abort 134
t_grep "named as QEMU failing, with what to try" 'QEMU itself failed.*|ACCEL=tcg' "$tmp/run/abort.out"
rundir killedqemu
echo 'qemu-system-x86_64: terminating on signal 15 from pid 4242 (kill)' >"$tmp/run/killedqemu/qemu.err"
t_out "QEMU stopped by a signal from outside: status 5" 5 verdict killedqemu 143
t_grep "said as such" 'from outside the harness' "$tmp/run/killedqemu.out"

# A hang the kernel reports, seen by the boot's watchdog: the run is
# stopped WB_HANG_GRACE seconds after the report (here 1), as a
# timeout, with what the kernel said; not in an interactive shell. A
# sleep stands in for QEMU.
hangdir() {
	rundir "$1"
	mkdir -p "$tmp/run/$1/build/out"
	printf '%s\n' 'WB-READY 2.3' \
		'[   31.0] unregister_netdevice: waiting for veth0 to become free. Usage count = 2' \
		'[   31.0] ref_tracker: netdev@00000000 has 1/1 users at' >"$tmp/run/$1/console.log"
	sleep 60 &
	echo $! >"$tmp/run/$1/qemu.pid"
}
# watch NAME MODE SECONDS: the watchdog on that run folder, for at most
# SECONDS (status 124 if it was still watching).
watch() {
	# shellcheck disable=SC2016
	WB_HANG_GRACE=1 timeout "$3" sh -c '. "$WB_ROOT/vm/lib.sh"; . "$WB_ROOT/vm/qemu.sh"
		wb_boot_watchdog "$1" "$1/build" "$2"' sh "$tmp/run/$1" "$2"
}
hangdir hung
start=$(date +%s)
watch hung run 15 || :
took=$(($(date +%s) - start))
rc=0
wait "$(cat "$tmp/run/hung/qemu.pid")" 2>/dev/null || rc=$?
if [ "$rc" != 0 ] && [ -f "$tmp/run/hung/hung" ] && [ "$took" -le 5 ]; then
	t_ok "a hang the kernel reports stops the run, not the lab's timeout ($took s with a grace of 1 s)"
else
	t_fail "a hang the kernel reports stops the run" "stopped, a hung record, within 5 s" \
		"QEMU's stand-in status $rc, after $took s, record: $(cat "$tmp/run/hung/hung" 2>&1)"
fi
t_out "and is a timeout, status 4" 4 verdict hung 143
t_grep "said as a hang, with the kernel's report" 'the guest hung: the kernel reported "unregister_netdevice: waiting for veth0' \
	"$tmp/run/hung.out"
t_grep "and what the kernel said after it" 'ref_tracker: netdev' "$tmp/run/hung.out"
hangdir shellhang
rc=0
watch shellhang shell 4 || rc=$?
t_status "in an interactive shell the watchdog leaves a hung guest to the student" 124 "$rc"
kill "$(cat "$tmp/run/shellhang/qemu.pid")" 2>/dev/null
rundir quiet
mkdir -p "$tmp/run/quiet/build/out"
echo 'WB-READY 2.3' >"$tmp/run/quiet/console.log"
sleep 60 &
echo $! >"$tmp/run/quiet/qemu.pid"
rc=0
watch quiet run 4 || rc=$?
t_status "without a hang report the watchdog goes on watching" 124 "$rc"
kill "$(cat "$tmp/run/quiet/qemu.pid")" 2>/dev/null

# ---- the kernel's detectors -------------------------------------------------

# vm/detectors.awk on a kernel log: each detector one result; a report
# of the tree's own (here a known line of a test's own list) left out;
# the first report's first line and frames as diagnostics.
printf 'memory\tknown_tree_func\ta report of the tree, for this test\n' >"$tmp/detectors.known"
printf '%s\n' 'boot went well' \
	'==================================================================' \
	'BUG: KFENCE: use-after-free read in bugsmod_init+0x2a/0x60 [bugsmod]' \
	'' 'Use-after-free read at 0x000000006e0cd2d8 (in kfence-#7):' \
	' bugsmod_init+0x2a/0x60 [bugsmod]' ' do_one_initcall+0x56/0x210' '' \
	'BUG: KFENCE: out-of-bounds write in known_tree_func+0x1/0x2' ' known_tree_func+0x1/0x2' '' \
	'BUG: sleeping function called from invalid context at kernel/time/timer.c:2046' \
	'in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 95, name: insmod' \
	' msleep+0x1d/0x40' ' bugsmod_init+0x70/0x90 [bugsmod]' '' \
	'BUG: sleeping function called from invalid context at kernel/time/timer.c:2046' '' \
	'unreferenced object 0xffff888004a2c000 (size 64):' '  comm "insmod", pid 95, jiffies 4294912345 (age 8.1s)' \
	'  hex dump (first 32 bytes):' '    6b 6b 6b 6b 6b 6b 6b 6b  6b 6b 6b 6b 6b 6b 6b 6b  kkkkkkkkkkkkkkkk' \
	'  backtrace:' '    [<ffffffffa0000012>] bugsmod_init+0x12/0x90 [bugsmod]' >"$tmp/kernel.log"
LC_ALL=C awk -F '\t' -f "$WB_ROOT/vm/detectors.awk" "$WB_ROOT/vm/detectors.tab" "$tmp/detectors.known" \
	"$tmp/kernel.log" >"$tmp/detectors.out"
t_out "every detector of vm/detectors.tab is one result" "$(grep -vc '^#' "$WB_ROOT/vm/detectors.tab")" \
	grep -Ec '^(not )?ok - ' "$tmp/detectors.out"
t_grep "a leak in kmemleak's report fails its detector" '^not ok - no memory leaked \(kmemleak\)' "$tmp/detectors.out"
t_grep "a KFENCE report fails the memory detector, with its first line" \
	'^# BUG: KFENCE: use-after-free read in bugsmod_init' "$tmp/detectors.out"
t_grep "with the frames of the report" '^#  bugsmod_init\+0x2a/0x60 \[bugsmod\]' "$tmp/detectors.out"
t_grep "a known report of the tree is left out of the count" '^# 1 report; the first:' "$tmp/detectors.out"
t_grep "two sleeps in atomic context are counted, the first shown with its task" \
	'^# 2 reports; the first:' "$tmp/detectors.out"
t_grep "a detector with no report passes" '^ok - no locking bug \(lockdep\)' "$tmp/detectors.out"

# The detectors' results on the channel (D records) follow the
# checker's: numbered after them, counted in the plan, and one that
# failed fails a run whose checker passed. A detector's report on the
# console is not a crash.
rundir det
awk '/ atomic context$/ { print "not " $0; print "# 1 report; the first:"
	print "# BUG: sleeping function called from invalid context at kernel/time/timer.c:2046"; next } 1' \
	"$tmp/dets.ok" >"$tmp/dets.atomic"
channel det "$tmp/pass.ktap" 0 "$tmp/dets.atomic"
echo '[   9.1] BUG: sleeping function called from invalid context at kernel/time/timer.c:2046' \
	>"$tmp/run/det/console.log"
t_out "a checker that passed and a detector that failed: status 1" 1 verdict det 0
t_grep "said as the detectors' finding" "the kernel's detectors reported a bug" "$tmp/run/det.out"
t_out "the report counts the checker's result and the detectors'" "$((1 + ndets)) $ndets 1 0" \
	wb_ktap count "$tmp/run/det/ktap"
k=$(grep -n ' atomic context$' "$tmp/dets.ok" | cut -d: -f1)
t_grep "the detectors' results are numbered after the checker's" "^not ok $((1 + k)) no sleeping in atomic context" \
	"$tmp/run/det/ktap"

# SANITIZE=1: the KASAN kernel's own tree and builds, booted as bzImage
# (its PVH entry resets the machine); anything but 0 or 1 is refused.
# shellcheck disable=SC2016
t_out "SANITIZE=1 picks the kernel-sanitize tree, booted from bzImage" \
	"$WB_CACHE/kernel-sanitize bzImage" env SANITIZE=1 sh -c '. "$WB_ROOT/vm/lib.sh"; . "$WB_ROOT/vm/qemu.sh"
		echo "$WB_KROOT $WB_BOOT_IMAGE"'
# shellcheck disable=SC2016
t_out "without it, the usual tree and vmlinux" "$WB_CACHE/kernel vmlinux" env SANITIZE=0 sh -c '
	. "$WB_ROOT/vm/lib.sh"; . "$WB_ROOT/vm/qemu.sh"; echo "$WB_KROOT $WB_BOOT_IMAGE"'
rc=0
SANITIZE=yes sh -c '. "$WB_ROOT/vm/lib.sh"' 2>/dev/null || rc=$?
t_status "SANITIZE=yes is refused" 2 "$rc"

# The decoder's view of a student's file: the line of a TODO block.
printf '%s\n' 'int f(void)' '{' '	/* TODO 1: count */' '	int n = 0;' '' '	return n;' '}' >"$tmp/todo.c"
t_out "a line in the code after a TODO marker is in that TODO" "3 1
4 1" "$WB_ROOT/vm/skel.sh" --strip todo "$tmp/todo.c"
t_done
