#!/bin/sh
# The guest's initramfs: Debian's static busybox, the scripts in
# vm/guest/ and the KTAP emitter they share with the host's tests
# (vm/ktap.sh, as /wb/ktap.sh). Rebuilt only when one of them is newer
# than the archive.
set -eu
. "$(dirname "$0")/lib.sh"

out=$WB_CACHE/initramfs.cpio.gz
busybox=/bin/busybox
wb_need_cache
wb_need_cmds cpio:cpio gzip:gzip
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' || wb_die "$busybox is missing or not static; install it with: apt-get install busybox-static"

if [ -f "$out" ] && [ -z "$(find "$WB_ROOT/vm/guest" "$WB_ROOT/vm/ktap.sh" "$busybox" -newer "$out" -print | head -n 1)" ]; then
	exit 0
fi
wb_step "building the initramfs ($out)"
tmp=$(mktemp -d "$WB_CACHE/initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/sbin" "$tmp/usr/bin" "$tmp/usr/sbin" "$tmp/proc" \
	"$tmp/sys" "$tmp/dev" "$tmp/wb"
cp "$busybox" "$tmp/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$tmp/bin/$applet"
done
cp "$WB_ROOT/vm/guest/init" "$tmp/init"
cp "$WB_ROOT/vm/guest/lib.sh" "$WB_ROOT/vm/guest/session.sh" "$tmp/wb/"
cp "$WB_ROOT/vm/ktap.sh" "$tmp/wb/ktap.sh"
chmod 755 "$tmp/init"
(cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.new"
mv "$out.new" "$out"
