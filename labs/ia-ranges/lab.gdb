# Independent access ranges under gdb: stop where sd hands the ranges it
# read from VPD page B9h to the block layer, three times:
#   1. while modprobe runs: sd_probe() skipped the page on the disk's first
#      scan, then the partition scan opened the disk and sd_open()
#      revalidated it (the backtrace shows that path); two ranges;
#   2. at the rescan of step 2: the same two ranges again, while the disk
#      already holds a set (the block layer keeps it, since nothing changed);
#   3. at the 4096-byte disk of step 4: four ranges, in 512-byte sectors.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.
break disk_set_independent_access_ranges
wb-continue
print iars->nr_ia_ranges
printf "range 0: sector %llu, %llu sectors\n", iars->ia_range[0].sector, iars->ia_range[0].nr_sectors
printf "range 1: sector %llu, %llu sectors\n", iars->ia_range[1].sector, iars->ia_range[1].nr_sectors
print disk->disk_name
backtrace 9
wb-continue
print iars->nr_ia_ranges
print disk->ia_ranges->nr_ia_ranges
backtrace 4
wb-continue
print iars->nr_ia_ranges
printf "range 3: sector %llu, %llu sectors\n", iars->ia_range[3].sector, iars->ia_range[3].nr_sectors
# expect: Breakpoint 1, disk_set_independent_access_ranges
# expect: ^\$1 = 2$
# expect: ^range 0: sector 0, 8192 sectors$
# expect: ^range 1: sector 8192, 8192 sectors$
# expect: ^\$2 = "sd[a-z]+
# expect: in sd_read_cpr .*sd\.c
# expect: in sd_open
# expect: in disk_scan_partitions
# expect: in sd_probe
# expect: ^\$3 = 2$
# expect: ^\$4 = 2$
# expect: in sd_rescan
# expect: ^\$5 = 4$
# expect: ^range 3: sector 12288, 4096 sectors$
