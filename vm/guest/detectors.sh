#!/bin/sh
# The kernel's own bug detectors, read by /wb/session.sh after a lab's
# checker, as /wb/detectors.sh CHECK_END, CHECK_END the guest's uptime
# when the checker ended. It prints one KTAP result per detector of
# /wb/detectors.tab, unnumbered ("ok - NAME"): the harness numbers them
# after the checker's own results (wb_ktap append, vm/verdict.sh). A
# detector that reported is "not ok", with the number of its reports and
# the first one (its first line and its stack) as diagnostics, which the
# harness decodes into the student's files and lines. Reports that the
# tree makes without any lab (/wb/detectors.known) are left out.
set -u
. /wb/lib.sh

log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
dmesg -t >"$log" 2>/dev/null

# kmemleak reports an object that no memory points to, found so by a
# scan that starts 5 s or more after the object was allocated, and whose
# content is the same as at the scan before (a new object's is not, the
# first time): one scan now, one 5 s after the checker's end, so that
# what its last command leaked is seen.
k=/sys/kernel/debug/kmemleak
if [ -w "$k" ] && echo scan >"$k"; then
	wait=$(awk -v end="${1:-0}" '{ w = end + 5.2 - $1; print (w > 0 ? w : 0) }' /proc/uptime)
	sleep "$wait"
	echo scan >"$k" && cat "$k" >>"$log"
fi

# One pass over the log and kmemleak's report (vm/detectors.awk).
LC_ALL=C awk -F '\t' -f /wb/detectors.awk /wb/detectors.tab /wb/detectors.known "$log"
