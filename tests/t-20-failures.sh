#!/bin/sh
# Each failure a student can meet, injected on purpose: every one must end
# with a clear message, a non-zero status, and no QEMU or gdb left behind.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixtures=$WB_ROOT/tests/fixtures/labs
export WB_QUIET=1
# The dumps of the guests these runs break go here, not in the cache;
# only the panic's run takes one (the others would each cost a dump's
# 5 to 15 s and prove nothing more).
WB_DUMPS=$tmp/dumps WB_DUMP=0
export WB_DUMPS WB_DUMP
# The kernel's detectors are on only in the runs that test them, here
# and in a student's make start: the others boot about a third faster.
WB_DETECTORS=0
export WB_DETECTORS

# boot NAME LAB [VAR=value...]: run the lab's steps, from the fixtures
# unless WB_LABS says otherwise; the output goes to $tmp/NAME.out, the
# status to $tmp/NAME.status, the run's files to $tmp/NAME.
boot() {
	name=$1 lab=$2
	shift 2
	rc=0
	env WB_LABS="$fixtures" WB_RUN_DIR="$tmp/$name" "$@" \
		"$WB_ROOT/vm/lab.sh" "$lab" run >"$tmp/$name.out" 2>&1 </dev/null || rc=$?
	echo "$rc" >"$tmp/$name.status"
}

# start_up NAME LAB MODE [RUNDIR]: start the lab in the background (its
# pid in $bpid, its run folder $tmp/NAME unless RUNDIR) and return once
# its guest is up.
start_up() {
	rdir=${4:-$tmp/$1}
	env WB_LABS="$fixtures" WB_RUN_DIR="$rdir" \
		"$WB_ROOT/vm/lab.sh" "$2" "$3" >"$tmp/$1.out" 2>&1 </dev/null &
	bpid=$!
	n=0
	until grep -q WB-READY "$rdir/console.log" 2>/dev/null || [ $n -ge 900 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

boot panic crash-panic WB_DUMP=1
t_status "a guest panic ends the run with status 3" 3 "$(cat "$tmp/panic.status")"
t_grep "a guest panic is reported with the kernel's own text" \
	'crashed.*|Kernel panic - not syncing: sysrq triggered crash' "$tmp/panic.out"
t_grep "the panic report includes the panic line" 'sysrq triggered crash' "$tmp/panic.out"
t_no_leftovers "no QEMU is left after a panic" "$tmp/panic"

# The panic's dump: kept with what booted, and read by drgn and crash.
t_grep "the panic's dump is kept, and said where" \
	"the guest's memory at the panic: $tmp/dumps/crash-panic/[^ ]+/vmcore \\([0-9]+ MiB, taken in [0-9]+ s\\)" \
	"$tmp/panic.out"
dump=$(find "$tmp/dumps/crash-panic" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 1)
if [ -n "$dump" ] && [ -f "$dump/vmlinux" ] && [ -s "$dump/vmcore" ] && [ -f "$dump/console.log" ]; then
	t_ok "the dump's folder has the vmcore, the vmlinux that booted and the console ($(du -sh "$dump/vmcore" | cut -f1))"
else
	t_fail "the dump's folder has the vmcore, the vmlinux that booted and the console" "$tmp/dumps/crash-panic/*/" "$(ls -la "$dump" 2>&1)"
fi
rc=0
WB_LABS=$fixtures BATCH=1 "$WB_ROOT/vm/postmortem.sh" crash-panic >"$tmp/drgn.out" 2>&1 || rc=$?
t_status "make postmortem BATCH=1 (drgn) reads the dump" 0 "$rc"
t_grep "drgn finds the panic message in the dump's log buffer" \
	'Kernel panic - not syncing: sysrq triggered crash' "$tmp/drgn.out"
t_grep "drgn finds the crashing function in the trace the dump's log holds" \
	'sysrq_handle_crash' "$tmp/drgn.out"
t_grep "drgn names the task that panicked" 'the task that panicked: sh, pid [0-9]+, on CPU [0-9]' "$tmp/drgn.out"
rc=0
WB_LABS=$fixtures BATCH=1 TOOL=crash "$WB_ROOT/vm/postmortem.sh" crash-panic >"$tmp/crash.out" 2>&1 || rc=$?
t_status "make postmortem TOOL=crash BATCH=1 reads the dump" 0 "$rc"
t_grep "crash finds the panic message in the dump's log buffer" \
	'Kernel panic - not syncing: sysrq triggered crash' "$tmp/crash.out"
t_grep "crash unwinds the panicking task to the crashing function" \
	'^ *#[0-9]+ \[[0-9a-f]+\] sysrq_handle_crash at ' "$tmp/crash.out"

# make drgn: a snapshot of a guest that goes on running (the hang
# fixture's, in an interactive shell, which has no time limit), read by
# drgn. make drgn finds the VM by its run folder in the cache.
snap=$WB_CACHE/run/t20-snapshot.$$
rm -rf "$snap"
start_up snapvm hang shell "$snap"
rc=0
WB_LABS=$fixtures BATCH=1 "$WB_ROOT/vm/postmortem.sh" --live hang >"$tmp/snap.out" 2>&1 || rc=$?
t_status "make drgn BATCH=1 takes a snapshot of the lab's running VM and opens it" 0 "$rc"
t_grep "drgn reads it as a snapshot of the lab" 'Snapshot of lab hang \(student\), its guest still running' \
	"$tmp/snap.out"
t_grep "and reads the kernel's log from it" 'Run /init as init process|WB-READY|Freeing unused' "$tmp/snap.out"
if kill -0 "$(cat "$snap/qemu.pid" 2>/dev/null)" 2>/dev/null; then
	t_ok "the guest runs on after the snapshot"
else
	t_fail "the guest runs on after the snapshot" "$(tail -n 5 "$tmp/snapvm.out")"
fi
kill "$(cat "$snap/qemu.pid" 2>/dev/null)" 2>/dev/null
wait "$bpid" 2>/dev/null
rm -rf "$snap"

# drgn in the guest, on the running kernel (/proc/kcore), finds the
# booted vmlinux's debug information by itself. The same boot then
# reaches a drgn point with a drgn script attached (a lab's lab.drgn in
# make check): the host takes the snapshot, the guest goes on, the
# script reads the snapshot, and, since this one fails, the snapshot is
# kept for its author.
printf '%s\n' 'print("drgn point:", prog["init_uts_ns"].name.release.string_().decode())' \
	'raise SystemExit(3)' >"$tmp/fails.drgn"
env WB_LABS="$fixtures" WB_RUN_DIR="$tmp/drgnlive" WB_DRGN_SCRIPT="$tmp/fails.drgn" \
	WB_CMD='python3 -c "import drgn; p = drgn.program_from_kernel(); print(\"drgn live:\", p[\"init_uts_ns\"].name.release.string_().decode(), p[\"init_task\"].comm.string_().decode())"; . /wb/lib.sh; wb_drgn_point; echo "past the drgn point"' \
	"$WB_ROOT/vm/lab.sh" detectors cmd >"$tmp/drgnlive.out" 2>&1 </dev/null || :
t_grep "drgn in the guest reads the running kernel with the booted vmlinux" \
	'drgn live: 6\.1\.[0-9]+ swapper/0' "$tmp/drgnlive/console.log"
t_grep "at a drgn point, the host's drgn reads a snapshot of the guest with the booted vmlinux" \
	'^drgn point: 6\.1\.[0-9]+$' "$tmp/drgnlive/drgn.log"
t_grep "the guest goes on past the drgn point once the snapshot is taken" \
	'past the drgn point' "$tmp/drgnlive/console.log"
t_grep "a drgn script that fails says so, and keeps its snapshot" \
	'drgn ended with status 3; the snapshot is kept' "$tmp/drgnlive/drgn.log"
if [ -s "$tmp/drgnlive/drgn.d/vmcore" ] && [ -f "$tmp/drgnlive/drgn.d/vmlinux" ]; then
	t_ok "the kept snapshot has its vmlinux beside it"
else
	t_fail "the kept snapshot has its vmlinux beside it" "$(ls -la "$tmp/drgnlive/drgn.d" 2>&1)"
fi
t_no_leftovers "no QEMU, drgn service or drgn is left after a drgn point" "$tmp/drgnlive"

boot oops crash-oops
t_status "an oops in a module ends the run with status 3" 3 "$(cat "$tmp/oops.status")"
t_grep "the oops report names the fault" 'BUG: kernel NULL pointer dereference' "$tmp/oops.out"
t_grep "the oops report shows where (RIP in the module)" 'RIP: .*oopsmod_init' "$tmp/oops.out"
t_no_leftovers "no QEMU is left after an oops" "$tmp/oops"

boot hang hang WB_GDB_SCRIPT="$fixtures/hang/lab.gdb"
t_status "a guest that hangs is killed after the lab's TIMEOUT, status 4" 4 "$(cat "$tmp/hang.status")"
t_grep "the timeout says so and shows the last console lines" \
	'did not finish within 25 s' "$tmp/hang.out"
t_grep "the last console lines are shown" "sleeping past the lab's timeout" "$tmp/hang.out"
t_no_leftovers "no QEMU or gdb is left after a timeout" "$tmp/hang"

# A lab that BUGs on purpose names the crash in its manifest
# (EXPECT_OOPS): that report is the step working, the checker's verdict
# stands; an oops of another kind in the same boot is still a crash.
boot expoops expected-oops
t_status "an oops the lab declares (EXPECT_OOPS) leaves the checker's verdict, status 0" \
	0 "$(cat "$tmp/expoops.status")"
t_no_leftovers "no QEMU is left after an expected oops" "$tmp/expoops"
boot expoops2 expected-oops WB_CMDLINE=wb.then=null
t_status "an oops the lab does not declare still ends the run with status 3" \
	3 "$(cat "$tmp/expoops2.status")"
t_grep "the report is the undeclared oops" 'BUG: kernel NULL pointer dereference' "$tmp/expoops2.out"

# The kernel's detectors (vm/detectors.tab) read after every checker: the
# fixture's module, loaded with no bug, passes all of them (the tree's
# own reports are known, vm/detectors.known); with each bug, the
# checker's own verdict still passes but the detector fails the run, and
# its report is decoded into the fixture's file, line and TODO.
boot det-none detectors WB_DETECTORS=1 WB_CMDLINE=wb.bug=none
t_status "a module with no bug passes the detectors too, status 0" 0 "$(cat "$tmp/det-none.status")"
t_grep "every detector is a result of its report" \
	'the checker passed \(7 ok' "$tmp/det-none.out"
# A run that ends normally keeps no dump.
if [ ! -e "$tmp/dumps/detectors" ]; then
	t_ok "a run that ends normally keeps no dump"
else
	t_fail "a run that ends normally keeps no dump" "no $tmp/dumps/detectors" "$(ls "$tmp/dumps/detectors")"
fi
for case in "leak 1 no memory leaked \\(kmemleak\\)" \
	"uaf 2 no use-after-free or out-of-bounds access \\(KFENCE, KASAN\\)" \
	"mutex 3 no locking bug \\(lockdep\\)" \
	"atomic 4 no sleeping in atomic context" \
	"bounds 5 no index out of an array's bounds \\(UBSAN\\)"; do
	bug=${case%% *} rest=${case#* }
	todo=${rest%% *} result=${rest#* }
	boot "det-$bug" detectors WB_DETECTORS=1 WB_CMDLINE="wb.bug=$bug"
	t_status "bug=$bug: the detectors fail the run, status 1" 1 "$(cat "$tmp/det-$bug.status")"
	t_grep "bug=$bug: the failing result is the detector's" "^ *not ok [0-9]+ $result" "$tmp/det-$bug.out"
	t_grep "bug=$bug: its report points at the fixture's line in TODO $todo" \
		"-> tests/fixtures/labs/detectors/bugsmod\\.c:[0-9]+, TODO $todo" "$tmp/det-$bug.out"
done
t_no_leftovers "no QEMU is left after the detectors' runs" "$tmp/det-bounds"

# The verdict comes from a channel only the guest's session writes, not
# from the console: a program that prints a passing verdict there and
# kills the session, or a module that printk()s one, gets no verdict at
# all; a killed checker, or results written into the checker's output,
# leave a report that is not whole. Each is a failure.
boot forge-console forge WB_CMDLINE=wb.then=console
t_status "a verdict forged on the console, then the session killed: no verdict, status 5" \
	5 "$(cat "$tmp/forge-console.status")"
t_grep "the run says there was no verdict" 'stopped without a verdict' "$tmp/forge-console.out"
boot forge-printk forge WB_CMDLINE=wb.then=printk
t_status "a verdict forged with printk from a module, then the session killed: status 5" \
	5 "$(cat "$tmp/forge-printk.status")"
boot forge-checker forge WB_CMDLINE=wb.then=checker
t_status "a checker killed midway fails, status 1" 1 "$(cat "$tmp/forge-checker.status")"
t_grep "the killed checker's report is called incomplete" 'planned 2, reported 1' \
	"$tmp/forge-checker.out"
boot forge-ktap forge WB_CMDLINE=wb.then=ktap
t_status "results a program writes into the checker's output fail the run, status 1" \
	1 "$(cat "$tmp/forge-ktap.status")"
t_grep "the report with foreign results is called not whole" 'result 4 is numbered 2' \
	"$tmp/forge-ktap.out"
# A program the checker leaves running, to end the detectors' pass as
# soon as it starts: it is gone before the pass, whose six results are
# all in the report (and were they not, the run would fail for it).
boot forge-detectors forge WB_DETECTORS=1 WB_CMDLINE=wb.then=detectors
t_status "a program left to kill the detectors' pass: the fixture's failing check, status 1" \
	1 "$(cat "$tmp/forge-detectors.status")"
t_grep "and every detector reported" \
	"^ok $((2 + $(wb_detector_names | grep -c .))) no object freed or reused while active" \
	"$tmp/forge-detectors/ktap"
boot forge-steps forge WB_CMDLINE=wb.then=steps
t_grep "a failing guided step is reported with its status" \
	'guided steps \(run.sh\) ended with status 3' "$tmp/forge-steps.out"
t_no_leftovers "no QEMU is left after the forged verdicts" "$tmp/forge-console"

# QEMU killed from outside the harness (SIGKILL to its pid, as the OOM
# killer or a CI timeout would) once the guest is up: the run says so and
# fails, in a graded run and in an interactive one, and is not taken for
# the lab's timeout.
boot_killed() {
	name=$1
	rc=0
	start_up "$@"
	sleep 2
	kill -KILL "$(cat "$tmp/$name/qemu.pid")" 2>/dev/null
	wait "$bpid" || rc=$?
	echo "$rc" >"$tmp/$name.status"
}
boot_killed killed hang run
t_status "QEMU killed from outside during a graded run: status 5" 5 "$(cat "$tmp/killed.status")"
t_grep "the run says who stopped QEMU, not a timeout" 'stopped by signal 9 \(KILL\) from outside' \
	"$tmp/killed.out"
t_no_leftovers "no QEMU or gdb is left after QEMU was killed" "$tmp/killed"
boot_killed killed-shell hang shell
t_status "QEMU killed from outside during an interactive session: status 5" \
	5 "$(cat "$tmp/killed-shell.status")"
t_grep "the interactive session says so" 'stopped by signal 9 \(KILL\) from outside' \
	"$tmp/killed-shell.out"

# The harness itself stopped during a boot (TERM here; Ctrl-C takes the
# same path with INT): it says so, ends with 128 + the signal, and leaves
# no QEMU behind.
rc=0
start_up term hang run
kill -TERM "$bpid"
wait "$bpid" || rc=$?
t_status "the harness stopped by TERM during a boot ends with status 143" 143 "$rc"
t_grep "it says the VM was stopped and nothing graded" 'interrupted: the VM was stopped' "$tmp/term.out"
t_no_leftovers "no QEMU is left after the harness was stopped" "$tmp/term"

# make check LAB=x stopped by a TERM (a CI job's timeout, say) once the
# solution's guest is up: the run stops, the check ends with status 130
# and leaves nothing running, and the skeleton is never booted.
WB_LABS=$fixtures sh "$WB_ROOT/tests/check-lab.sh" hang >"$tmp/check-term.out" 2>&1 </dev/null &
cpid=$!
n=0
until grep -q WB-READY "$WB_CACHE/run/check-hang-solution.$cpid/console.log" 2>/dev/null ||
	[ $n -ge 900 ]; do
	sleep 0.1
	n=$((n + 1))
done
rc=0
kill -TERM "$cpid"
wait "$cpid" || rc=$?
t_status "make check stopped by TERM with the solution's VM up ends with status 130" 130 "$rc"
t_no_leftovers "nothing of the solution's run is left" "$WB_CACHE/run/check-hang-solution.$cpid"
if [ -e "$WB_CACHE/run/check-hang-skeleton.$cpid" ]; then
	t_fail "the skeleton is not booted after the TERM" "$(tail -n 5 "$tmp/check-term.out")"
else
	t_ok "the skeleton is not booted after the TERM"
fi
rm -rf "$WB_CACHE/run/check-hang-solution.$cpid" "$WB_CACHE/run/check-hang-skeleton.$cpid"

# Output redirected to a file keeps everything, in order: what the
# harness printed before the VM, the console, and the verdict after it.
rc=0
env WB_QUIET=0 WB_LABS="$fixtures" WB_RUN_DIR="$tmp/whole" WB_CMDLINE=wb.then=steps \
	"$WB_ROOT/vm/lab.sh" forge run >"$tmp/whole.out" 2>&1 </dev/null || rc=$?
if awk '/==> building program forger/ && !a { a = NR } /^the fixture.s steps/ && a && !b { b = NR }
	/guided steps \(run.sh\) ended with status 3/ && b { c = NR } END { exit !c }' "$tmp/whole.out"; then
	t_ok "a run redirected to a file keeps the build, the console and the verdict, in order"
else
	t_fail "a run redirected to a file keeps the build, the console and the verdict, in order" \
		"the build line, the guest's steps, then the verdict" "$(head -n 20 "$tmp/whole.out")"
fi

# QEMU that fails on its own, as KVM makes it on some machines (an MSR
# it cannot set, then an assertion): a stand-in QEMU first in PATH does
# the same on every machine. The harness names QEMU, not a killer.
mkdir -p "$tmp/fakebin"
cat >"$tmp/fakebin/qemu-system-x86_64" <<'EOF2'
#!/bin/sh
case $1 in --version) exec /usr/bin/qemu-system-x86_64 "$@" ;; esac
echo 'qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0' >&2
echo 'qemu-system-x86_64: kvm_buf_set_msrs: Assertion `ret == cpu->kvm_msr_buf->nmsrs'"'"' failed.' >&2
kill -ABRT $$
EOF2
chmod +x "$tmp/fakebin/qemu-system-x86_64"
boot qabort crash-panic ACCEL=kvm PATH="$tmp/fakebin:$PATH"
t_status "QEMU aborting on its own ends the run with status 5" 5 "$(cat "$tmp/qabort.status")"
t_grep "it is named as QEMU failing" 'QEMU itself failed: it ended on signal 6' "$tmp/qabort.out"
t_grep "with QEMU's own message" 'qemu: .*failed to set MSR 0x10a' "$tmp/qabort.out"
t_grep "and what to try" 'ACCEL=tcg' "$tmp/qabort.out"
if grep -q 'outside the harness' "$tmp/qabort.out"; then
	t_fail "no word of a signal from outside the harness" "QEMU named" "$(grep 'outside' "$tmp/qabort.out")"
else
	t_ok "no word of a signal from outside the harness"
fi

# KVM forced where the probe found it unusable (here a KVM guest hangs or
# QEMU aborts): the run still ends within seconds, with a reason.
if [ "$(head -n 1 "$WB_CACHE/kvm-probe" 2>/dev/null)" = tcg ] && [ -e /dev/kvm ]; then
	start=$(date +%s)
	boot kvm crash-panic ACCEL=kvm WB_BOOT_LIMIT=10
	took=$(($(date +%s) - start))
	rc=$(cat "$tmp/kvm.status")
	if [ "$rc" -ge 4 ] && [ "$rc" -le 5 ] && [ "$took" -lt 40 ]; then
		t_ok "ACCEL=kvm on a machine where KVM does not work ends in $took s (status $rc)"
	else
		t_fail "ACCEL=kvm on a machine where KVM does not work ends within seconds" \
			"status $rc after $took s" "$(tail -n 5 "$tmp/kvm.out")"
	fi
	t_grep "the reason is printed" 'did not boot within|stopped without a verdict|QEMU itself failed' "$tmp/kvm.out"
	t_no_leftovers "no QEMU is left after the failed KVM boot" "$tmp/kvm"
fi

# The first run, on an untouched checkout (lab 0's tracked files only):
# make start ends with 0 and says where the student is and what is next;
# the graded run of the same files still fails.
mkdir -p "$tmp/fresh"
(cd "$WB_ROOT" && git ls-files labs/lab0-taint) | while read -r f; do
	mkdir -p "$tmp/fresh/$(dirname "${f#labs/}")"
	cp "$WB_ROOT/$f" "$tmp/fresh/${f#labs/}"
done
rc=0
env WB_LABS="$tmp/fresh" WB_RUN_DIR="$tmp/start" WB_PROGRESS=1 WB_DETECTORS=1 \
	"$WB_ROOT/vm/lab.sh" lab0-taint run >"$tmp/start.out" 2>&1 </dev/null || rc=$?
t_status "the first run (make start) on an untouched lab 0 ends with status 0" 0 "$rc"
t_grep "it says where the student is" 'Where you are: lab lab0-taint booted in the VM, its guided steps ran, and [0-9]+ of 14 checks pass' \
	"$tmp/start.out"
t_grep "it names the first TODO and where it is" \
	'Next: TODO 1 in labs/lab0-taint/fs/proc/tainted.c:[0-9]+: ' "$tmp/start.out"
rc=0
env WB_LABS="$tmp/fresh" WB_RUN_DIR="$tmp/graded" \
	"$WB_ROOT/vm/lab.sh" lab0-taint run >"$tmp/graded.out" 2>&1 </dev/null || rc=$?
t_status "the graded run of the same files keeps the checker's failure, status 1" 1 "$rc"

# An unknown lab name is answered with the list of labs.
rc=0
(cd "$WB_ROOT" && make -s lab LAB=no-such-lab) >"$tmp/unknown.out" 2>&1 </dev/null || rc=$?
t_grep "an unknown LAB is refused by name" "unknown lab 'no-such-lab'" "$tmp/unknown.out"
t_grep "the refusal lists the labs" 'lab0-taint' "$tmp/unknown.out"
t_nonzero "make lab LAB=no-such-lab exits non-zero" "$rc"

# A patch that does not apply: the series plus one patch with a wrong
# context. It is checked with --dry-run first, so the tree is unharmed.
# The workbook's own kernel first (the runs above leave a lab's files in
# the tree), so that "as they were" means that kernel.
"$WB_ROOT/vm/kernel.sh" >"$tmp/before.out" 2>&1 || :
mkdir -p "$tmp/kernel/patches"
cp -r "$WB_KERNEL_DIR/configs" "$WB_KERNEL_DIR/BASE" "$tmp/kernel/"
cp "$WB_KERNEL_DIR"/patches/*.patch "$tmp/kernel/patches/"
cp "$WB_KERNEL_DIR/series" "$tmp/kernel/series"
cat >"$tmp/kernel/patches/9999-broken.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Kernel Workbook <workbook@example.org>
Subject: [PATCH] test: a patch whose context is not in the tree

Signed-off-by: Kernel Workbook <workbook@example.org>
---
 init/main.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/init/main.c b/init/main.c
--- a/init/main.c
+++ b/init/main.c
@@ -1,3 +1,3 @@
 this line is not in init/main.c
-neither is this one
+so the hunk cannot apply
 nor this one
PATCH
echo 9999-broken.patch >>"$tmp/kernel/series"
rc=0
WB_KERNEL_DIR=$tmp/kernel "$WB_ROOT/vm/kernel.sh" >"$tmp/patch.out" 2>&1 || rc=$?
t_nonzero "a patch that does not apply stops make kernel" "$rc"
t_grep "the message names the patch" 'kernel/patches/9999-broken.patch (\(on [^)]*\) )?does not apply' "$tmp/patch.out"
t_grep "the message names the failing hunk" 'failing hunk #1 of init/main.c' "$tmp/patch.out"
t_grep "the message shows the hunk" 'so the hunk cannot apply' "$tmp/patch.out"
if "$WB_ROOT/vm/kernel.sh" >"$tmp/after.out" 2>&1 && grep -q 'up to date' "$tmp/after.out"; then
	t_ok "the failed patch left the tree and the build as they were"
else
	t_fail "the failed patch left the tree and the build as they were" "$(tail -n 5 "$tmp/after.out")"
fi

# A package version other than the one the series was made on: a warning,
# and the build carries on.
rm -rf "$tmp/base"
cp -r "$WB_KERNEL_DIR" "$tmp/base"
echo 6.1.0-workbook-test >"$tmp/base/BASE"
rc=0
WB_KERNEL_DIR=$tmp/base "$WB_ROOT/vm/kernel.sh" >"$tmp/base.out" 2>&1 || rc=$?
t_status "another package version than BASE does not stop make kernel" 0 "$rc"
t_grep "it is reported with both versions" \
	'warning: linux-source-6.1 is .*; the series was made on 6.1.0-workbook-test' "$tmp/base.out"

# A compile error in the student's module and in the student's kernel file.
mkdir -p "$tmp/labs"
cp -r "$WB_LABS/lab0-taint" "$tmp/labs/"
WB_LABS=$tmp/labs "$WB_ROOT/vm/skel.sh" lab0-taint student 2>/dev/null
cp "$tmp/labs/lab0-taint/taintmod.c" "$tmp/taintmod.c"
sed -i '0,/return 0;/s//return no_such_value;/' "$tmp/labs/lab0-taint/taintmod.c"
boot mod lab0-taint WB_LABS="$tmp/labs"
t_status "a module that does not compile stops the lab with status 6" 6 "$(cat "$tmp/mod.status")"
t_grep "the message names the student's file and the error" \
	"$tmp/labs/lab0-taint/taintmod.c:[0-9]+:[0-9]+: error" "$tmp/mod.out"

cp "$tmp/taintmod.c" "$tmp/labs/lab0-taint/taintmod.c"
echo 'this is not C;' >>"$tmp/labs/lab0-taint/fs/proc/tainted.c"
boot tree lab0-taint WB_LABS="$tmp/labs"
t_status "a kernel file that does not compile stops the lab with status 6" 6 "$(cat "$tmp/tree.status")"
t_grep "the compiler's error is shown" 'fs/proc/tainted.c:[0-9]+:[0-9]+: error' "$tmp/tree.out"
t_grep "the message says which student file it comes from" \
	"error is in fs/proc/tainted.c, which comes from $tmp/labs/lab0-taint/fs/proc/tainted.c" "$tmp/tree.out"
# Labs are isolated: with lab 0's file broken, the workbook's kernel
# (no lab's files) still builds.
rc=0
WB_LABS=$tmp/labs "$WB_ROOT/vm/kernel.sh" >"$tmp/iso.out" 2>&1 || rc=$?
t_status "a compile error in one lab's kernel file does not break the kernel of another" 0 "$rc"

# A disk that fills up during a build: the compiler's real ENOSPC error
# (gcc writing its object to /dev/full) is explained, with the way out.
echo 'int x;' | gcc -x c -c - -o /dev/full >"$tmp/full.log" 2>&1
out=$(sh -c '. "$1/vm/lib.sh" && wb_disk_full "$2" "the kernel build"' sh "$WB_ROOT" "$tmp/full.log" 2>&1) || :
printf '%s\n' "$out" >"$tmp/full.out"
t_grep "a full disk during a build is named, with how much is left and what to free" \
	'the disk filled up during the kernel build: .* left on .*Free some space' "$tmp/full.out"

# A cache folder that cannot be written.
: >"$tmp/not-a-folder"
rc=0
WB_CACHE=$tmp/not-a-folder/cache "$WB_ROOT/vm/kernel.sh" >"$tmp/cache.out" 2>&1 || rc=$?
t_nonzero "a cache folder that cannot be created stops make kernel" "$rc"
t_grep "the message names the folder and the way out" \
	"cannot create the cache folder $tmp/not-a-folder/cache; set WB_CACHE" "$tmp/cache.out"
if [ "$(id -u)" != 0 ]; then
	mkdir -p "$tmp/ro"
	chmod 555 "$tmp/ro"
	rc=0
	WB_CACHE=$tmp/ro "$WB_ROOT/vm/kernel.sh" >"$tmp/ro.out" 2>&1 || rc=$?
	t_grep "a read-only cache folder is reported as not writable" \
		"the cache folder $tmp/ro is not writable" "$tmp/ro.out"
	chmod 755 "$tmp/ro"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -r "$WB_ROOT/vm/kernel.sh" 2>/dev/null; then
	mkdir -p "$tmp/ro"
	chmod 755 "$tmp" "$tmp/ro"
	rc=0
	setpriv --reuid=65534 --regid=65534 --clear-groups env WB_CACHE="$tmp/ro" \
		"$WB_ROOT/vm/kernel.sh" >"$tmp/ro.out" 2>&1 || rc=$?
	t_grep "a cache folder the user cannot write is reported as not writable" \
		"the cache folder $tmp/ro is not writable" "$tmp/ro.out"
fi
# A cross kernel (vm/xkernel.sh, tour-arch's) whose fragment asks for an
# option that cannot stick stops before it builds anything, and says
# which: a misspelt name, and a PL011 console without the PL011 driver.
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	printf '%s\n' CONFIG_SERIAL_AMBA_PL011_CONSOLE=y CONFIG_NO_SUCH_OPTION=y >"$tmp/bad.config"
	rc=0
	"$WB_ROOT/vm/xkernel.sh" t20-unstuck arm64 Image "$tmp/bad.config" >"$tmp/xk.out" 2>&1 || rc=$?
	t_nonzero "a cross kernel with an option that did not stick: non-zero status" "$rc"
	t_grep "it names the option that does not exist" \
		'CONFIG_NO_SUCH_OPTION: requested y, got n' "$tmp/xk.out"
	t_grep "and the one whose dependency is missing" \
		'CONFIG_SERIAL_AMBA_PL011_CONSOLE: requested y, got n' "$tmp/xk.out"
	if grep -q ' CC ' "$WB_CACHE/xkernel/t20-unstuck.log" 2>/dev/null; then
		t_fail "nothing was compiled" "no CC line" "$(grep -c ' CC ' "$WB_CACHE/xkernel/t20-unstuck.log") CC lines"
	else
		t_ok "nothing was compiled"
	fi
	rm -rf "$WB_CACHE/xkernel/t20-unstuck" "$WB_CACHE/xkernel/t20-unstuck.log"
fi
t_done
