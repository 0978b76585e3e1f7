#!/bin/sh
# make kernel builds the workbook kernel, then has nothing to do.
set -u
. "$(dirname "$0")/lib.sh"
# Known up front, and printed before the build's minutes of progress
# lines, so that the report's plan comes first: keep it in step with the
# checks below.
t_plan 17
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# The first build takes minutes: its progress lines are shown as it goes.
rc=0
{ "$WB_ROOT/vm/kernel.sh" 2>&1 || echo "WB-KERNEL-STATUS $?"; } | tee "$log"
grep -q '^WB-KERNEL-STATUS' "$log" && rc=1
if [ "$rc" = 0 ]; then
	t_ok "make kernel builds bzImage, vmlinux and the gdb scripts"
else
	t_fail "make kernel builds bzImage, vmlinux and the gdb scripts" "$(tail -n 30 "$log")"
fi
for f in arch/x86/boot/bzImage vmlinux vmlinux-gdb.py; do
	if [ -e "$WB_KBUILD/$f" ]; then
		t_ok "the build has $f"
	else
		t_fail "the build has $f" "missing: $WB_KBUILD/$f"
	fi
done
t_grep "make kernel prints the Debian package version" \
	"linux-source-6.1 $(cat "$WB_KSTATE/debian-version")" "$log"

"$WB_ROOT/vm/kernel.sh" >"$log" 2>&1
t_grep "a second make kernel does no work and says so" "kernel is up to date" "$log"

# A kernel built before is put back instead of built again: ioam6-encap's
# skeleton (its ipv6.ko differs from the tree's), then the tree's own,
# each built or put back, then each again, which must be put back, byte
# for byte what was there the first time.
sum() {
	sha256sum <"$1" | cut -c1-16
}
ko=lib/modules/$(cat "$WB_KBUILD/include/config/kernel.release")/kernel/net/ipv6/ipv6.ko
# sums: vmlinux, then ipv6.ko in the module folder and in the build.
sums() {
	echo "$(sum "$WB_KBUILD/vmlinux") $(sum "$WB_KMODROOT/$ko") $(sum "$WB_KBUILD/net/ipv6/ipv6.ko")"
}
# again WHAT NAMED EXPECTED: the second time, WHAT's kernel is put back
# as it was, and make kernel says so, naming it NAMED (an extended
# regular expression: a lab's skeleton may have been kept as the
# student's files, which are the same).
again() {
	t_grep "the kernel of $1 is put back the second time, not built" \
		"kernel \($2\) as built before" "$log"
	seen=$(sums)
	if [ "$3" = "$seen" ]; then
		t_ok "vmlinux and ipv6.ko (built and installed) are those of the first time"
	else
		t_fail "vmlinux and ipv6.ko (built and installed) are those of the first time" \
			"expected: $3" "seen: $seen"
	fi
}
"$WB_ROOT/vm/kernel.sh" ioam6-encap skeleton >"$log" 2>&1
lab=$(sums)
"$WB_ROOT/vm/kernel.sh" >"$log" 2>&1
tree=$(sums)
if [ "${lab#* }" != "${tree#* }" ]; then
	t_ok "ioam6-encap's skeleton has an ipv6.ko of its own"
else
	t_fail "ioam6-encap's skeleton has an ipv6.ko of its own" "$(tail -n 5 "$log")"
fi
"$WB_ROOT/vm/kernel.sh" ioam6-encap skeleton >"$log" 2>&1
again "ioam6-encap's skeleton" "lab ioam6-encap, [a-z]+" "$lab"
"$WB_ROOT/vm/kernel.sh" >"$log" 2>&1
again "the tree" "the tree's own" "$tree"

# A file of the tree edited by hand is in no kept kernel: with one, none
# is used (nor kept), and make kernel says why.
readme=$WB_KSRC/README
mtime=$(stat -c %Y "$readme")
# README goes back to its own mtime however this test ends.
trap 'touch -d "@$mtime" "$readme"; rm -f "$log"' EXIT
touch "$readme"
"$WB_ROOT/vm/kernel.sh" >"$log" 2>&1
touch -d "@$mtime" "$readme"
t_grep "a file edited by hand in the tree turns the reuse off, and make kernel says so" \
	'README was edited by hand' "$log"
if grep -q 'as built before' "$log" || ! grep -Eq '(kernel|modules) built in' "$log"; then
	t_fail "the kernel is then built, not put back" "$(tail -n 5 "$log")"
else
	t_ok "the kernel is then built, not put back"
fi

# DWARF, BTF, the gdb helpers and no KASLR stuck in the configuration.
cfg=$WB_KBUILD/.config
for want in CONFIG_DEBUG_INFO_DWARF5=y CONFIG_DEBUG_INFO_BTF=y CONFIG_GDB_SCRIPTS=y; do
	t_grep "the kernel is configured with $want" "^$want\$" "$cfg"
done
if grep -q '^CONFIG_RANDOMIZE_BASE=y' "$cfg"; then
	t_fail "the kernel is built without KASLR" "CONFIG_RANDOMIZE_BASE=y"
else
	t_ok "the kernel is built without KASLR"
fi
t_done
