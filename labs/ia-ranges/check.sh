#!/bin/sh
# Independent access ranges checker (KTAP). It loads scsi_debug itself,
# for 1, 2 and 4 ranges with 512- and 4096-byte blocks, then with the
# parameters and the page that must be refused.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=ia-ranges" >&2; exit 1; }
. /wb/lib.sh
. /lab/disk.sh

SIZE_MB=8

# expected_ranges N: what sysfs must list for N ranges of an SIZE_MB
# disk, in 512-byte sectors whatever the block size; nothing for N=1.
expected_ranges() {
	total=$((SIZE_MB * 2048))
	[ "$1" -ge 2 ] || return 0
	i=0
	while [ $i -lt "$1" ]; do
		echo "$i $((i * total / $1)) $((total / $1))"
		i=$((i + 1))
	done
}

# last_log PATTERN: the newest kernel message matching PATTERN since the
# checker started.
last_log() {
	dmesg | tail -n +"$LOG_START" | grep -E -- "$1" | tail -n 1
}

# refused PARAM MESSAGE: loading with PARAM fails, and the kernel log
# says why.
refused() {
	disk_unload
	LOG_START=$(($(dmesg | wc -l) + 1))
	if out=$(modprobe scsi_debug "$1" 2>&1); then
		disk_unload
		ktap_fail "scsi_debug refuses $1, saying why" "modprobe fails" "it loaded"
		return
	fi
	msg=$(last_log 'scsi_debug')
	ktap_match "scsi_debug refuses $1, saying why" "$2" "${msg:-$out}"
}

# fake_disk NAME SIZE BLOCK SECTOR NR...: a hand-made sysfs tree under
# /tmp/fakesys for iaranges, with ranges that the kernel would refuse.
fake_disk() {
	fd=/tmp/fakesys/block/$1
	mkdir -p "$fd/queue/independent_access_ranges"
	echo "$2" >"$fd/size"
	echo "$3" >"$fd/queue/logical_block_size"
	shift 3
	k=0
	while [ $# -ge 2 ]; do
		mkdir -p "$fd/queue/independent_access_ranges/$k"
		echo "$1" >"$fd/queue/independent_access_ranges/$k/sector"
		echo "$2" >"$fd/queue/independent_access_ranges/$k/nr_sectors"
		shift 2
		k=$((k + 1))
	done
}

# broken_rule DESCRIPTION REGEX NAME SIZE BLOCK SECTOR NR...: iaranges
# fails on that tree and names the rule.
broken_rule() {
	what=$1 re=$2
	shift 2
	fake_disk "$@"
	out=$(IARANGES_SYSFS=/tmp/fakesys /build/iaranges -q "$1" 2>&1)
	rc=$?
	if [ $rc = 1 ]; then
		ktap_match "$what" "$re" "$out"
	else
		ktap_fail "$what" "status 1 and a line matching /$re/" "status $rc: $out"
	fi
}

ktap_plan 33
disk_unload 2>/dev/null

for block in 512 4096; do
	for n in 1 2 4; do
		what="$n range(s), $block-byte blocks"
		if ! disk_load cpr_ranges=$n sector_size=$block dev_size_mb=$SIZE_MB >/tmp/load.out 2>&1; then
			ktap_fail "scsi_debug loads with $what" "a disk" "$(cat /tmp/load.out)"
			ktap_skip "page 00h lists B9h ($what)" "no disk"
			ktap_skip "sysfs lists the ranges ($what)" "no disk"
			ktap_skip "iaranges agrees ($what)" "no disk"
			continue
		fi
		ktap_ok "scsi_debug loads with $what"
		disk_rescan
		ktap_match "VPD page 00h lists page B9h ($what)" ' b9( |$)' "$(disk_vpd_pages)"
		ktap_eq "sysfs lists the ranges in 512-byte sectors ($what)" \
			"$(expected_ranges $n)" "$(disk_ranges)"
		/build/iaranges -q "$DISK" >/dev/null 2>&1
		rc=$?
		if [ $n = 1 ]; then
			ktap_eq "iaranges finds no ranges on a single-range disk" 2 "$rc"
		else
			ktap_eq "iaranges finds every rule kept ($what)" 0 "$rc"
		fi
	done
done

refused cpr_ranges=0 'cpr_ranges=0: a disk has at least one positioning range'
refused cpr_ranges=3 'cpr_ranges=3 does not divide the capacity of 16384 blocks'
refused cpr_ranges=17 'cpr_ranges=17: VPD page B9h holds at most 16 ranges'

LOG_START=$(($(dmesg | wc -l) + 1))
if disk_load cpr_ranges=2 cpr_overlap=1 dev_size_mb=$SIZE_MB >/tmp/load.out 2>&1; then
	disk_rescan
	ktap_match "the block layer rejects overlapping ranges" \
		'Invalid non-contiguous independent access ranges' "$(last_log 'independent access ranges')"
	ktap_eq "a disk whose page overlaps has no ranges in sysfs" "" "$(disk_ranges)"
else
	ktap_fail "the block layer rejects overlapping ranges" "a disk" "$(cat /tmp/load.out)"
	ktap_skip "a disk whose page overlaps has no ranges in sysfs" "no disk"
fi

# Switched at run time: the next revalidation withdraws valid ranges.
if disk_load cpr_ranges=2 dev_size_mb=$SIZE_MB >/tmp/load.out 2>&1; then
	disk_rescan
	before=$(disk_ranges | wc -l)
	echo 1 >/sys/module/scsi_debug/parameters/cpr_overlap
	disk_rescan
	ktap_eq "ranges published before are withdrawn when the page turns invalid" \
		"2 0" "$before $(disk_ranges | wc -l)"
else
	ktap_fail "ranges published before are withdrawn when the page turns invalid" \
		"a disk" "$(cat /tmp/load.out)"
fi
disk_unload

broken_rule "iaranges reports a range that starts inside the one before" \
	'range 1 starts at 8191, inside range 0' overlap 16384 512 0 8192 8191 8193
broken_rule "iaranges reports a hole between two ranges" \
	'hole of 192 sectors before range 1' hole 16384 512 0 8000 8192 8192
broken_rule "iaranges reports a boundary inside a 4096-byte block" \
	'range 0 is not a whole number of 4096-byte blocks' units 16384 4096 0 8190 8190 8194
ktap_done
