#!/bin/sh
# folio-walk checker (KTAP), run inside the workbook VM after run.sh.
# Self-contained: it loads the module if needed and makes its own file
# systems, under /mnt/fwc-*, and removes them at the end.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=folio-walk" >&2; exit 1; }
. /wb/lib.sh

. /lab/walk.sh
M=/mnt/fwc

# The first four columns of a walk (index order size dirty).
cols4() {
	printf '%s\n' "$1" | cut -d' ' -f1-4
}

# brief TEXT: TEXT if it has at most six lines; else its first three,
# how many were left out, and its last one.
brief() {
	printf '%s\n' "$1" | awk '{ l[NR] = $0 }
		END {
			if (NR == 1 && l[1] == "") { print "(nothing)"; exit }
			if (NR <= 6) { for (i = 1; i <= NR; i++) print l[i]; exit }
			for (i = 1; i <= 3; i++) print l[i]
			printf "... (%d more lines)\n", NR - 4
			print l[NR]
		}'
}

# eq_lines DESCRIPTION EXPECTED SEEN: ktap_eq for walks, whose failures
# would be a thousand lines long: show both briefly, and the first line
# where they differ.
eq_lines() {
	if [ "$2" = "$3" ]; then
		ktap_ok "$1"
		return
	fi
	printf '%s\n' "$2" >/tmp/fwc.expected
	printf '%s\n' "$3" >/tmp/fwc.seen
	diff1=$(awk 'NR == FNR { e[FNR] = $0; ne = FNR; next }
		{ s[FNR] = $0; ns = FNR }
		END {
			n = ne > ns ? ne : ns
			for (i = 1; i <= n; i++)
				if (e[i] != s[i]) {
					printf "line %d differs: expected \"%s\", seen \"%s\"", i, e[i], s[i]
					exit
				}
		}' /tmp/fwc.expected /tmp/fwc.seen)
	ktap_fail "$1" "$(brief "$2")" "$(brief "$3")
($(printf '%s\n' "$3" | grep -c .) lines; $diff1)"
}

# refs_of WALK: how many folios a walk ("index refs" lines) listed, and
# the refs of the first three.
refs_of() {
	printf '%s\n' "$1" | awk 'NF { n++; if (n <= 3) r = r " " $2 }
		END { printf "%d folios%s\n", n, n ? ", refs of the first ones:" r : "" }'
}

shmem_huge_kb() {
	awk '$1 == "ShmemHugePages:" { print $2 }' /proc/meminfo
}

# every_page FROM TO ORDER SIZE DIRTY: the lines a walk of pages FROM..TO
# must give when each page is its own folio.
every_page() {
	seq "$1" "$2" | sed "s/\$/ $3 $4 $5/"
}

ktap_plan 18

lsmod | grep -q '^folio_walk ' || insmod /build/folio_walk.ko 2>/dev/null
if [ -f "$D/walk" ] && [ -f "$D/cc_attrs" ]; then
	ktap_ok "folio_walk is loaded and has its two debugfs files"
else
	ktap_fail "folio_walk is loaded and has its two debugfs files" \
		"$D/walk and $D/cc_attrs" "$(ls "$D" 2>&1)"
fi

mkdir -p $M-always $M-never $M-ramfs
mount -t tmpfs -o huge=always,size=16m fwc-always $M-always
mount -t tmpfs -o huge=never,size=16m fwc-never $M-never
mount -t ramfs fwc-ramfs $M-ramfs

# ---- huge=always: two folios of order 9 --------------------------------
before=$(shmem_huge_kb)
dd if=/dev/zero of=$M-always/f bs=1M count=4 status=none
after=$(shmem_huge_kb)
out=$(walk $M-always/f)
eq_lines "tmpfs huge=always: a 4 MiB file is two dirty folios of order 9 (2 MiB)" \
	"$(printf '0 9 2097152 1\n512 9 2097152 1')" "$(cols4 "$out")"
eq_lines "tmpfs huge=always: a huge folio has 513 refs (one per page for the page cache, one for the walk)" \
	"$(printf '513\n513')" "$(printf '%s\n' "$out" | cut -d' ' -f5)"
ktap_eq "tmpfs huge=always: ShmemHugePages rose by 4096 kB" \
	"$((before + 4096))" "$after"

# ---- huge=never and ramfs: 1024 folios of order 0 ----------------------
dd if=/dev/zero of=$M-never/f bs=1M count=4 status=none
out=$(walk $M-never/f)
eq_lines "tmpfs huge=never: a 4 MiB file is 1024 dirty folios of order 0, pages 0 to 1023" \
	"$(every_page 0 1023 0 4096 1)" "$(cols4 "$out")"
dd if=/dev/zero of=$M-ramfs/f bs=1M count=4 status=none
out=$(walk $M-ramfs/f)
eq_lines "ramfs: a 4 MiB file is 1024 dirty folios of order 0, pages 0 to 1023" \
	"$(every_page 0 1023 0 4096 1)" "$(cols4 "$out")"

# ---- sparse files --------------------------------------------------------
truncate -s 4M $M-never/sparse
dd if=/dev/urandom of=$M-never/sparse bs=4k seek=3 count=1 conv=notrunc status=none
dd if=/dev/urandom of=$M-never/sparse bs=4k seek=700 count=1 conv=notrunc status=none
cat $M-never/sparse >/dev/null
eq_lines "tmpfs: a sparse file lists only its two written pages, 3 and 700 (reading the holes adds none)" \
	"$(printf '3 0 4096 1\n700 0 4096 1')" "$(cols4 "$(walk $M-never/sparse)")"

# On ramfs a read of a hole caches a clean, zero-filled folio; ramfs has
# no readahead (its backing device is noop_backing_dev_info, with
# ra_pages 0), so exactly the pages read.
truncate -s 4M $M-ramfs/sparse
dd if=$M-ramfs/sparse of=/dev/null bs=4k skip=256 count=2 status=none
eq_lines "ramfs: reading pages 256 and 257 of a sparse file caches those two, clean, and no other" \
	"$(every_page 256 257 0 4096 0)" "$(cols4 "$(walk $M-ramfs/sparse)")"
dd if=/dev/urandom of=$M-ramfs/sparse bs=4k seek=257 count=1 conv=notrunc status=none
out=$(walk $M-ramfs/sparse)
eq_lines "ramfs: writing page 257 then dirties that folio and no other" \
	"$(printf '256 0 4096 0\n257 0 4096 1')" "$(cols4 "$out")"

# ---- references ----------------------------------------------------------
# Folios just added to the page cache sit in a per-CPU batch, which holds
# a reference, until the batch is drained; compaction drains them all.
echo 1 >/proc/sys/vm/compact_memory
w1=$(walk $M-ramfs/f | cut -d' ' -f1,5)
w2=$(walk $M-ramfs/f | cut -d' ' -f1,5)
if [ "$(printf '%s\n' "$w1" | grep -c .)" = 1024 ] && [ "$w1" = "$w2" ]; then
	ktap_ok "two walks in a row see the same refs on every folio (no reference leaked)"
else
	ktap_fail "two walks in a row see the same refs on every folio (no reference leaked)" \
		"1024 folios, the same refs on both walks" \
		"$(printf 'first walk: %s\nsecond walk: %s' "$(refs_of "$w1")" "$(refs_of "$w2")")"
fi
ktap_eq "an order-0 ramfs folio has 2 refs (the page cache's and the walk's)" \
	"2" "$(printf '%s\n' "$w2" | cut -d' ' -f2 | sort -u | tr '\n' ' ' | sed 's/ $//')"

# ---- refusals --------------------------------------------------------------
ktap_match "a missing file is refused with ENOENT" 'No such file or directory' \
	"$(choose $M-never/nothing-here)"
ktap_match "a directory is refused with EINVAL" 'Invalid argument' \
	"$(choose $M-never)"
ktap_match "a file name longer than NAME_MAX is refused with ENAMETOOLONG" 'File name too long' \
	"$(choose "$M-never/$(printf '%0300d' 0)")"
ktap_match "a path longer than PATH_MAX is refused with ENAMETOOLONG" 'File name too long' \
	"$(choose "/$(printf '%05000d' 0)")"
ktap_eq "the kernel log has no oops, BUG or warning" "" \
	"$(dmesg | sed -n '/folio_walk: ready/,$p' | grep -E 'Oops|BUG:|WARNING:|refcount_t' | head -n 5)"

# ---- cc_platform_has() -------------------------------------------------------
cc=$(cat "$D/cc_attrs" 2>&1)
ktap_eq "cc_attrs lists every enum cc_attr of 6.1, in order" \
	"$(printf '%s\n' CC_ATTR_MEM_ENCRYPT CC_ATTR_HOST_MEM_ENCRYPT CC_ATTR_GUEST_MEM_ENCRYPT \
		CC_ATTR_GUEST_STATE_ENCRYPT CC_ATTR_GUEST_UNROLL_STRING_IO CC_ATTR_GUEST_SEV_SNP \
		CC_ATTR_HOTPLUG_DISABLED)" \
	"$(printf '%s\n' "$cc" | cut -d' ' -f1)"
ktap_eq "under TCG cc_platform_has() answers false for each of the 7" \
	"7 false" "$(printf '%s\n' "$cc" | awk '$2 == "false" { n++ } END { print n + 0, "false" }')"

umount $M-always $M-never $M-ramfs
rm -f /tmp/fwc.expected /tmp/fwc.seen
ktap_done
