#!/bin/sh
# fortify-group checker (KTAP). Self-contained: it loads lkdtm and
# spanbuild itself, afresh, so that a warning that run.sh already drew
# shows again, and reads the kernel log of each trigger on its own.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=fortify-group" >&2; exit 1; }
. /wb/lib.sh

. /lab/lkdtm.sh

spanning='detected field-spanning write'

ktap_plan 10
# A warning fires once per call site until the module that holds it is
# loaded again (clear_warn_once re-arms only vmlinux's own), so lkdtm
# and spanbuild are reloaded to show what run.sh already drew. After
# FORTIFY_MEM_OBJECT, lkdtm stays in use by the shell that died in its
# write: it cannot be unloaded, so this boot can no longer be checked.
if dmesg | grep -q 'Performing direct entry FORTIFY_MEM_OBJECT'; then
	ktap_fail "lkdtm can be reloaded for a fresh check" \
		"a boot in which FORTIFY_MEM_OBJECT has not run yet" \
		"it ran in this boot: power off (exit), make lab again, and run check.sh first"
	while [ "$KTAP_N" -lt "$KTAP_PLAN" ]; do
		ktap_skip "(not checked)" "lkdtm cannot be reloaded in this boot"
	done
	ktap_done
	exit
fi
rmmod spanbuild 2>/dev/null
rmmod lkdtm 2>/dev/null
modprobe lkdtm 2>/dev/null
ktap_true "lkdtm is loaded afresh and takes tests through debugfs" "a writable $DIRECT" \
	test -w "$DIRECT"

member=$(klog_of "echo FORTIFY_MEM_MEMBER >$DIRECT")
ktap_match "fortify is active: FORTIFY_MEM_MEMBER warns of a field-spanning write" \
	"memcpy: $spanning" "$member"
ktap_match "the warning names the size, the field and the field's size" \
	"$spanning \\(size 15\\) of single field \"target\\.a\" at .*\\(size 10\\)" "$member"
ktap_match "6.1 warns and lets the copy through (lkdtm reports it was not blocked)" \
	'lkdtm: FAIL: fortify did not block a memcpy\(\) struct member' "$member"

group=$(klog_of "echo FORTIFY_MEM_GROUP >$DIRECT")
if printf '%s\n' "$group" | grep -q "$spanning"; then
	ktap_fail "FORTIFY_MEM_GROUP copies the header with no field-spanning warning" \
		"no '$spanning' line" "$(printf '%s\n' "$group" | grep -A1 "$spanning")"
else
	ktap_ok "FORTIFY_MEM_GROUP copies the header with no field-spanning warning"
fi
ktap_match "the frame holds the header, then zeroes (nothing stale)" \
	'lkdtm: frame: 11 22 33 44 55 66 77 88 00 00 00 00 00 00 00 00$' "$group"
ktap_match "FORTIFY_MEM_GROUP passes as its tests.txt line expects" \
	'lkdtm: ok: header copied through its group' "$group"

# The module was built on the host: its compiler output is in /build.
log=/build/.mod-spanbuild/build.log
if [ ! -r "$log" ]; then
	ktap_fail "spanbuild builds with no write-beyond-field warning" "$log" "no build log"
elif grep -q 'detected write beyond size of field' "$log"; then
	ktap_fail "spanbuild builds with no write-beyond-field warning" \
		"no warning from __write_overflow_field" "$(grep -B2 'detected write beyond' "$log" | sed 's#.*/##')"
else
	ktap_ok "spanbuild builds with no write-beyond-field warning"
fi
span=$(klog_of "insmod /build/spanbuild.ko")
if printf '%s\n' "$span" | grep -q "$spanning"; then
	ktap_fail "spanbuild copies the whole key with no warning at load" \
		"a key line and no '$spanning'" "$span"
else
	ktap_match "spanbuild copies the whole key with no warning at load" \
		'spanbuild: key c0 00 02 01 1f 90 06 00' "$span"
fi

# Last: the copy past the whole object is refused with a BUG, the oops
# the lab's manifest declares as expected (EXPECT_OOPS). It kills only
# the shell that wrote the test's name.
object=$(klog_of "echo FORTIFY_MEM_OBJECT >$DIRECT")
ktap_match "a copy past the whole object is stopped: fortify_panic() BUGs" \
	'kernel BUG at lib/string_helpers\.c' "$object"
ktap_done
