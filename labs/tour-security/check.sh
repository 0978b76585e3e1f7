#!/bin/sh
# The security tour's checks (KTAP). Self-contained: it runs its own
# audit events and makes its own files, and holds whether or not run.sh
# ran before it in this boot (the IMA rules go in once per boot).
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=tour-security" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

ktap_plan 16

# ---- openat2() and io_uring audit records ----
tour_dirs
rm -f "$W/dir/made" "$W/escape"
out=$(/build/auditnl openat2 "$W/dir" 2>&1)
ktap_expect "openat2() creates the file beneath the directory, and the escape fails with EXDEV" \
	"$(printf '%s\n' "$out" | grep '^child:' | tr '\n' ' ')" \
	'^child: openat2\("made"\) returned fd [0-9]+ child: openat2\("\.\./escape"\) failed: Invalid cross-device link $' \
	'escape"\) returned fd'
ktap_expect "the openat2() event carries an OPENAT2 record with the caller's open_how" \
	"$out" '^  1337 OPENAT2 oflag=0101 mode=0640 resolve=0xc$' '^  1337 OPENAT2 oflag=0100101 '
ktap_expect "the refused escape is audited too: success=no exit=-18, and its resolve=0x8" \
	"$(printf '%s\n' "$out" | grep -E ' (SYSCALL|OPENAT2) ' | tr '\n' ' ')" \
	'SYSCALL arch=c000003e syscall=437 success=no exit=-18 .* OPENAT2 oflag=0101 mode=0640 resolve=0x8 $' \
	'syscall=437 success=no exit=-2 '
out=$(/build/auditnl openat "$W/dir" 2>&1)
ktap_expect "plain openat(): two events, with SYSCALL and PATH records but no OPENAT2" \
	"events=$(printf '%s\n' "$out" | sed -n 's/^events: //p') syscall=$(printf '%s\n' "$out" | grep -c ' SYSCALL ') path=$(printf '%s\n' "$out" | grep -c ' PATH ') openat2=$(printf '%s\n' "$out" | grep -c ' OPENAT2 ')" \
	'^events=2 syscall=2 path=[2-9] openat2=0$' 'openat2=[1-9]'
ktap_expect "openat() has no RESOLVE_BENEATH: ../escape is created outside the directory" \
	"$(printf '%s\n' "$out" | grep 'escape')" 'openat\("\.\./escape"\) returned fd' 'failed'
out=$(/build/auditnl uring /etc/passwd 2>&1)
ktap_expect "IORING_OP_OPENAT in an io-wq worker: a URINGOP record, uring_op=18, success" \
	"$out" '^  1336 URINGOP uring_op=18 success=yes exit=[0-9]+ ' '^  1336 URINGOP uring_op=18 success=no|^events: 0$'
counts=$(uring_counts | awk '$2 ~ /^io_uring:io_uring_/ { sub(/^io_uring:io_uring_/, "", $2); printf "%s=%s ", $2, $1 }')
ktap_expect "perf at io_uring's tracepoints: one ring, one submission, sent to io-wq, one completion" \
	"$counts" '^create=1 submit_sqe=1 queue_async_work=1 complete=1 $' 'queue_async_work=0'

# ---- IMA rules on a file's group ----
ima_rules
ktap_expect "the policy reads back with both rules: fgroup=2001 and fgroup>5000" \
	"$(tr '\n' ' ' <"$POLICY")" \
	'measure func=FILE_CHECK mask=MAY_READ fgroup=2001 .*measure func=FILE_CHECK mask=MAY_READ fgroup>5000 ' \
	'fgroup<5000'
tag=$$
ima_file "c$tag-2001" 2001
ima_file "c$tag-2002" 2002
ima_file "c$tag-6000" 6000
ima_file "c$tag-5000" 5000
ktap_expect "fgroup=2001: a file of group 2001 is measured once" \
	"$(measured "c$tag-2001")" '^1$' '^0$'
ktap_expect "a file of group 2002 matches neither rule: not measured" \
	"$(measured "c$tag-2002")" '^0$' '^1$'
ktap_expect "fgroup>5000: a file of group 6000 is measured" \
	"$(measured "c$tag-6000")" '^1$' '^0$'
ktap_expect "fgroup>5000 is strictly greater: a file of group 5000 is not measured" \
	"$(measured "c$tag-5000")" '^0$' '^1$'
ktap_expect "the entry uses the ima-ng template: PCR 10, template hash, file hash, name" \
	"$(grep "$W/ima/c$tag-2001\$" "$MEASURED")" \
	"^10 [0-9a-f]{40} ima-ng sha(1|256):[0-9a-f]+ $W/ima/c$tag-2001\$" ' ima '

# ---- seccomp and speculation ----
V=/sys/devices/system/cpu/vulnerabilities
ktap_expect "spec_store_bypass names no seccomp mode (prctl is the default; this CPU is not affected)" \
	"ssb=$(cat $V/spec_store_bypass)" \
	'^ssb=(Not affected|Vulnerable|Mitigation: Speculative Store Bypass disabled via prctl)$' \
	'via prctl and seccomp$'
# specstat's line for KEY, before (1) or after (2) the seccomp filter.
status_line() {
	printf '%s\n' "$1" | grep "^  $2" | sed -n "$3p" | sed "s/^  $2[[:space:]]*//"
}
out=$(/build/specstat)
what=
for k in Speculation_Store_Bypass: SpeculationIndirectBranch: 'prctl store bypass:' 'prctl indirect branch:'; do
	if [ "$(status_line "$out" "$k" 1)" = "$(status_line "$out" "$k" 2)" ]; then
		what="$what $k same"
	else
		what="$what $k $(status_line "$out" "$k" 1) -> $(status_line "$out" "$k" 2)"
	fi
done
ktap_expect "a seccomp filter (mode 2) leaves what the task reports about speculation as it was" \
	"Seccomp: $(status_line "$out" Seccomp: 1) -> $(status_line "$out" Seccomp: 2);$what" \
	'^Seccomp: 0 -> 2; Speculation_Store_Bypass: same SpeculationIndirectBranch: same prctl store bypass: same prctl indirect branch: same$' \
	'force mitigated|forced off'
out=$(/build/specstat disable)
ktap_expect "the opt-in, PR_SET_SPECULATION_CTRL, is refused with ENXIO: this CPU needs no store-bypass control" \
	"$(printf '%s\n' "$out" | head -n 1)" \
	'^PR_SET_SPECULATION_CTRL store bypass off: No such device or address$' ': done$'
ktap_done
