#!/bin/sh
# fortify-group, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=fortify-group" >&2; exit 1; }
. /wb/lib.sh

. /lab/lkdtm.sh

# trigger TEST: ask lkdtm for a test, then show what the kernel said
# about it, without the register dump of a WARNING.
trigger() {
	echo "# echo $1 > $DIRECT"
	klog_of "echo $1 >$DIRECT" |
		grep -v -E '\] (Code|RSP|RAX|RDX|RBP|R1[0-5]|R0[89]|FS|CS|CR2|PKRU|Hardware name):' |
		head -n 12
}

echo "== 1. Load lkdtm; reading one of its files lists the tests it has"
wb_run modprobe lkdtm
wb_run grep FORTIFY "$DIRECT"

echo "== 2. A run-time copy that spans fields: warned about, not stopped"
trigger FORTIFY_MEM_MEMBER

echo "== 3. The same kind of copy in FORTIFY_MEM_GROUP: your fortify.c"
trigger FORTIFY_MEM_GROUP

echo "== 4. A copy whose size the compiler knows: spanbuild's build log"
wb_run grep -h -A1 'warning: call to' /build/.mod-spanbuild/build.log || echo "# (no warning)"
wb_run insmod /build/spanbuild.ko
wb_run dmesg | grep -e 'spanbuild:' -e 'field-spanning.*flow' | tail -n 2

echo "== 5. Last: a copy past the whole object is stopped with a BUG"
# The BUG leaves lkdtm in use for good (the shell died inside its debugfs
# write), and the checker starts by reloading lkdtm: before the checker
# (make lab RUN=1), this step is left to it, as its last check.
if [ "$(wb_param wb.mode)" = run ]; then
	echo "# (the checker runs this one, last: see its final result)"
else
	trigger FORTIFY_MEM_OBJECT
fi
