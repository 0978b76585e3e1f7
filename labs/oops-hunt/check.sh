#!/bin/sh
# The debugging lab's checker (KTAP). Self-contained: it loads its own
# hunt.ko. The write of a name that was never added comes last: with the
# skeleton it oopses (EXPECT_OOPS in lab.mk lets the guest live on), and
# the module, whose lock the dead writer held, answers no more.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=oops-hunt" >&2; exit 1; }
. /wb/lib.sh
. /lab/hunt.sh

ktap_plan 6
ktap_true "hunt.ko loads and /proc/hunt appears" "insmod succeeds, /proc/hunt exists" \
	sh -c "rmmod hunt 2>/dev/null; insmod /build/hunt.ko && test -e $H"

for w in 'add a' 'add b' 'add a'; do
	echo "$w" >"$H"
done
ktap_eq "three adds: a counts 2, b counts 1, in the order they came" \
	"a 2 b 1" "$(grep -v '^total' "$H" | tr '\n' ' ' | sed 's/ $//')"

first=$(grep '^total' "$H")
second=$(grep '^total' "$H")
ktap_points 2
ktap_eq "the total is the 3 adds, read twice: reading changes nothing (TODO 3)" \
	"total 3 total 3" "$first $second"

echo 'del a' >"$H"
ktap_eq "del a: a is gone, b stays" \
	"b 1" "$(grep -v '^total' "$H" | tr '\n' ' ' | sed 's/ $//')"

# The functions ftrace's graph of "del b" entered (the name after the
# graph's "|" column, a module's without its " [hunt]"), each once.
called=$(hunt_graph b | grep -v '^#' | sed -n 's/^[^|]*| *\([A-Za-z0-9_.]*\).*/\1/p' | sort -u | tr '\n' ' ')
ktap_points 2
ktap_match "del b gives the entry's memory back: ftrace's graph of the write calls kfree() (TODO 2)" \
	'(^| )kfree ' "$called"

# Last: a name that was never added. Written with coreutils' printf,
# which says which error the write got (the shell's echo says "I/O
# error" for any).
before=$(dmesg | grep -c 'BUG:')
err=$(sh -c "/usr/bin/printf 'del nosuch' >$H" 2>&1)
rc=$?
after=$(dmesg | grep -c 'BUG:')
ktap_points 2
ktap_eq "del of a name never added fails with ENOENT, and the kernel stays up (TODO 1)" \
	"status 1, No such file or directory, 0 new BUG: lines" \
	"status $rc, $(printf '%s' "$err" | grep -o 'No such file or directory' || echo "$err"), $((after - before)) new BUG: lines"
ktap_done
