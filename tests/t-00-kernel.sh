#!/bin/sh
# make kernel builds the workbook kernel, then has nothing to do.
set -u
. "$(dirname "$0")/lib.sh"
# Known up front, and printed before the build's minutes of progress
# lines, so that the report's plan comes first: keep it in step with the
# checks below.
t_plan 10
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
