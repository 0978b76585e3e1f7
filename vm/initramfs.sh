#!/bin/sh
# What the guest boots from, both in the cache and both rebuilt only when
# one of their inputs changed:
#
#   initramfs.cpio.gz  Debian's static busybox, vm/guest/init, which
#                      mounts the guest's root and hands over to it, and
#                      the guest library it reads the command line with
#   guestroot/         the guest's root folder, exported read-only: links
#                      to /usr (bin, sbin, lib64...), an /etc made from an
#                      allow-list below, the guest library in /wb
#                      (vm/guest/lib.sh, session.sh, the KTAP emitter
#                      vm/ktap.sh, a copy of busybox) and empty folders on
#                      which init mounts the rest
#
# Of the host, the guest sees only Debian's /usr (its folders listed in
# guestroot/wb/usr-folders; never /usr/local or /usr/src), each exported
# read-only by vm/qemu.sh, and the folders of its own run. Nothing of
# /etc but what is named here, nothing of /root, /home, /var, /tmp or the
# cache.
set -eu
. "$(dirname "$0")/lib.sh"

out=$WB_CACHE/initramfs.cpio.gz
busybox=/bin/busybox
wb_need_cache
wb_need_cmds cpio:cpio gzip:gzip
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' || wb_die "$busybox is missing or not static; install it with: apt-get install busybox-static"
{ [ -L /lib ] && [ -L /bin ]; } || wb_die "the guest borrows Debian's merged /usr; /lib and /bin are not links to /usr on this machine"

# The files of /etc a lab's programs read, copied as they are: the
# dynamic linker's cache, Debian's alternatives (links: awk is mawk), the
# network databases, iproute2's tables, the shells' start files. Nothing
# else of the host's /etc reaches the guest; passwd and group (the system
# accounts only), hosts and hostname are written below.
ETC_ALLOW="alternatives ld.so.cache ld.so.conf ld.so.conf.d nsswitch.conf
host.conf gai.conf protocols services ethertypes rpc iproute2 bash.bashrc
inputrc profile terminfo localtime debian_version os-release mke2fs.conf
libaudit.conf"

# What the guest root depends on: this script, the guest's scripts, the
# KTAP emitter, busybox, the accounts, the allowed /etc files and the
# list of /usr/lib.
key=$(
	cat "$0" "$WB_ROOT/vm/guest/init" "$WB_ROOT/vm/guest/lib.sh" \
		"$WB_ROOT/vm/guest/session.sh" "$WB_ROOT/vm/guest/detectors.sh" \
		"$WB_ROOT/vm/detectors.tab" "$WB_ROOT/vm/detectors.known" "$WB_ROOT/vm/detectors.awk" \
		"$WB_ROOT/vm/ktap.sh" "$busybox" /etc/passwd /etc/group
	ls -la /usr/lib /usr
	cd /etc && for e in $ETC_ALLOW; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		find "$e" -printf '%p %l %s %T@\n' 2>/dev/null
	done
)
key=$(printf '%s\n' "$key" | sha256sum | cut -c1-32)
if [ -f "$out" ] && [ "$(cat "$WB_GUESTROOT/current" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
# Each version in a folder of its own: a VM that is running keeps the
# one it booted with.
root=$WB_GUESTROOT/$key
wb_step "building the initramfs and the guest's root ($out, $root)"
tmp=$(mktemp -d "$WB_CACHE/initramfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- the initramfs -----------------------------------------------------
i=$tmp/initramfs
mkdir -p "$i/bin" "$i/proc" "$i/sys" "$i/dev" "$i/newroot" "$i/wbv" "$i/wb"
cp "$busybox" "$i/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$i/bin/$applet"
done
cp "$WB_ROOT/vm/guest/init" "$i/init"
cp "$WB_ROOT/vm/guest/lib.sh" "$WB_ROOT/vm/ktap.sh" "$i/wb/"
chmod 755 "$i/init"
(cd "$i" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/initramfs.cpio.gz"

# ---- the guest's root --------------------------------------------------
g=$tmp/guestroot
mkdir -p "$g"
for d in proc sys dev tmp run root mnt lab build wb etc usr; do
	mkdir "$g/$d"
done
# Debian's /usr, folder by folder; /usr/local (whatever was installed by
# hand) and /usr/src (the kernel source) are left out.
for d in bin sbin lib lib32 lib64 libx32 libexec share; do
	{ [ -d "/usr/$d" ] && [ ! -L "/usr/$d" ]; } || continue
	mkdir "$g/usr/$d"
	echo "$d" >>"$g/wb/usr-folders"
done
for d in bin sbin lib32 lib64 libx32; do
	[ -d "$g/usr/$d" ] && ln -s "usr/$d" "$g/$d"
done
# /lib is a folder of links into /usr/lib plus lib/modules, on which init
# mounts the modules of the kernel that booted (modprobe reads them there).
mkdir "$g/lib" "$g/lib/modules"
for e in /usr/lib/* /usr/lib/.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	[ "${e##*/}" = modules ] || ln -s "$e" "$g/lib/${e##*/}"
done
(
	cd /etc
	for e in $ETC_ALLOW; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		cp -a --parents "$e" "$g/etc/"
	done
)
# Debian's system accounts (tcpdump drops its privileges to its own),
# without their members: no person's account reaches the guest.
awk -F: -v OFS=: '$3 < 1000 || $3 == 65534 { $2 = "x"; print }' /etc/passwd >"$g/etc/passwd"
awk -F: -v OFS=: '$3 < 1000 || $3 == 65534 { $2 = "x"; $4 = ""; print }' /etc/group >"$g/etc/group"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tworkbook\n' \
	>"$g/etc/hosts"
echo workbook >"$g/etc/hostname"
ln -s ../proc/self/mounts "$g/etc/mtab"
mkdir -p "$g/etc/modprobe.d"
cp "$WB_ROOT/vm/guest/lib.sh" "$WB_ROOT/vm/guest/session.sh" "$WB_ROOT/vm/guest/detectors.sh" \
	"$WB_ROOT/vm/detectors.tab" "$WB_ROOT/vm/detectors.known" "$WB_ROOT/vm/detectors.awk" "$g/wb/"
cp "$WB_ROOT/vm/ktap.sh" "$g/wb/ktap.sh"
cp "$busybox" "$g/wb/busybox"
chmod -R a+rX,go-w "$g"

mkdir -p "$WB_GUESTROOT"
rm -rf "$root"
mv "$g" "$root"
mv "$tmp/initramfs.cpio.gz" "$out"
echo "$key" >"$WB_GUESTROOT/current.new"
mv "$WB_GUESTROOT/current.new" "$WB_GUESTROOT/current"
# The versions before the last two go.
for old in $(cd "$WB_GUESTROOT" && ls -t); do
	echo "$old"
done | grep -v '^current' | tail -n +3 | while read -r old; do
	rm -rf "${WB_GUESTROOT:?}/$old"
done
