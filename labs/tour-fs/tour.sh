# shellcheck shell=sh
# What run.sh and check.sh of the tour share: the drive, the images they
# make, and the small steps both take. Sourced after /wb/lib.sh.

CD=/dev/sr0
W=/tmp/tour-fs

# disc NAME: a blank "disc" of 32 KiB in /build, where QEMU can open it.
disc() {
	dd if=/dev/zero of="/build/out/$1" bs=2048 count=16 2>/dev/null
}

# last: the drive's last media change, in ms, as the kernel records it.
# cd_graph LAST: one CDROM_TIMED_MEDIA_CHANGE (cdwatch timed, with the
# caller's last change at LAST ms) under ftrace's function graph, from
# cdrom_ioctl() down: trace-cmd starts the tracer, the call runs, and
# the kernel's trace buffer is shown, then the tracer reset. Only the
# CD layers' functions and __might_fault() are traced (-l), so that the
# timer interrupts that land during the call do not show in the graph.
# (trace-cmd record, which also saves the kernel's symbols and event
# formats with the trace, took 17 s of which 13 in the kernel under TCG,
# and once stalled RCU under the detectors; start, show and reset take
# about 7 s.) Each command is shown as typed.
cd_graph() {
	wb_typed "trace-cmd start -p function_graph -g cdrom_ioctl -l 'cdrom_*' -l 'sr_*' -l __might_fault >/dev/null 2>&1"
	wb_typed "/build/cdwatch timed $CD $1"
	wb_typed "trace-cmd stop; trace-cmd show | grep -v '^#'; trace-cmd reset >/dev/null"
}

last() {
	/build/cdwatch timed "$CD" 0 | cut -d' ' -f2
}

# erofs_images: a source tree with one 256 KiB file, made into an EROFS
# image whose metadata is in $W/meta.img and whose file data, as 4 KiB
# chunks, is on an extra device, $W/blob.img.
erofs_images() {
	rm -rf "$W"
	mkdir -p "$W/src" "$W/mnt"
	head -c 262144 /dev/urandom >"$W/src/big"
	echo "a small file, kept inline with its inode" >"$W/src/small"
	mkfs.erofs --blobdev="$W/blob.img" --chunksize=4096 "$W/meta.img" "$W/src" >"$W/mkfs.log" 2>&1
}
