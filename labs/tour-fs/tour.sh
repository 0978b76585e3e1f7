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
