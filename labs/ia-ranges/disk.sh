# shellcheck shell=sh
# The lab's emulated disk, for run.sh and check.sh (sourced after
# /wb/lib.sh, so only inside the workbook VM).

SDEBUG=/sys/bus/pseudo/drivers/scsi_debug

# disk_load PARAM...: (re)load scsi_debug with these parameters and set
# DISK to the name of the disk it creates. Returns modprobe's status, or
# 1 when no disk shows up within two seconds. With DISK_SHOW set, the
# commands are echoed as a student would type them.
disk_load() {
	disk_unload
	[ -z "${DISK_SHOW:-}" ] || echo "# modprobe scsi_debug $*"
	modprobe scsi_debug "$@" || return
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		for b in "$SDEBUG"/adapter*/host*/target*/*/block/*; do
			if [ -e "$b" ]; then
				DISK=${b##*/}
				return 0
			fi
		done
		sleep 0.2
	done
	echo "scsi_debug is loaded but no disk appeared" >&2
	return 1
}

disk_unload() {
	DISK=
	if [ -d /sys/module/scsi_debug ]; then
		[ -z "${DISK_SHOW:-}" ] || echo "# modprobe -r scsi_debug"
		modprobe -r scsi_debug
	fi
}

# disk_rescan: revalidate the disk. sd reads page B9h on a revalidation,
# never on the disk's first scan.
disk_rescan() {
	[ -z "${DISK_SHOW:-}" ] || echo "# echo 1 > /sys/block/$DISK/device/rescan"
	echo 1 >"/sys/block/$DISK/device/rescan"
}

# disk_vpd_pages: the VPD pages the disk says it supports (page 00h, as
# the SCSI layer cached it), as hex bytes on one line.
disk_vpd_pages() {
	od -An -v -tx1 "/sys/block/$DISK/device/vpd_pg0" |
		tr -s ' \n' '  ' | cut -d' ' -f6-
}

# disk_ranges: "N SECTOR NR_SECTORS" for each range, as sysfs shows it.
disk_ranges() {
	d=/sys/block/$DISK/queue/independent_access_ranges
	[ -d "$d" ] || return 0
	for r in "$d"/*; do
		echo "${r##*/} $(cat "$r/sector") $(cat "$r/nr_sectors")"
	done | sort -n
}
