#!/bin/sh
# bpf-license, host side (HOSTBUILD in lab.mk): two more modules from the
# variant's licmod.c ($WB_LAB_SRC/licmod.c), both with LICMOD_GPL_SYMBOL (so they call
# ktime_get(), exported with EXPORT_SYMBOL_GPL()).
#
#   sh hostbuild.sh BUILD
#
# BUILD/licmod_gpl.ko    licensed "GPL"; Kbuild builds it as usual.
# BUILD/licmod_prop.ko   licensed "Proprietary". modpost refuses it at
#                        build time; its message is kept in
#                        BUILD/modpost.log. To let the lab show the
#                        kernel's own check as well, the module is then
#                        linked the way Kbuild's last step links every
#                        module (scripts/Makefile.modfinal): its object,
#                        plus the .mod.o that modpost writes for the same
#                        source built as "GPL". That .mod.o holds the
#                        struct module, vermagic and dependencies, none of
#                        which depends on the license; the license stays
#                        in the object's .modinfo, as written in licmod.c.
#                        The command used is in BUILD/link.log.
set -eu
build=${1:?usage: hostbuild.sh BUILD}
: "${WB_ROOT:?WB_ROOT names the workbook checkout}"
# shellcheck source=../../vm/lib.sh
. "$WB_ROOT/vm/lib.sh"
src=${WB_LAB_SRC:?WB_LAB_SRC names the folder of the variant files}/licmod.c
if [ ! -f "$src" ]; then
	echo "hostbuild: $src is missing" >&2
	exit 1
fi

gpl="-DLICMOD_GPL_SYMBOL -DLICMOD_LICENSE='\"GPL\"'"

if ! wb_kbuild_module licmod_gpl "$src" "$build/.mod-licmod_gpl" "$gpl"; then
	cat "$build/.mod-licmod_gpl/build.log" >&2
	exit 1
fi
cp "$build/.mod-licmod_gpl/licmod_gpl.ko" "$build/"

prop=$build/.mod-licmod_prop
if wb_kbuild_module licmod_prop "$src" "$prop" -DLICMOD_GPL_SYMBOL; then
	echo "modpost accepted licmod_prop.ko: it uses no GPL-only symbol" >"$build/modpost.log"
	cp "$prop/licmod_prop.ko" "$build/"
	exit 0
fi
grep -e 'ERROR: modpost' -e 'WARNING: modpost' "$prop/build.log" >"$build/modpost.log" || :
if ! grep -q 'GPL-incompatible module licmod_prop.ko uses GPL-only symbol' "$build/modpost.log"; then
	echo "hostbuild: licmod_prop failed for another reason than modpost's license check:" >&2
	cat "$prop/build.log" >&2
	exit 1
fi

# The same source as "GPL", under the same module name, for its .mod.o.
stub=$build/.stub-licmod_prop
if ! wb_kbuild_module licmod_prop "$src" "$stub" "$gpl"; then
	cat "$stub/build.log" >&2
	exit 1
fi
# Kbuild's own link command for the stub build, pointed at the
# proprietary object and output.
cmd=$(sed -n 's/^cmd_[^ ]* := //p' "$stub/.licmod_prop.ko.cmd" |
	sed -e "s#-o $stub/licmod_prop.ko #-o $prop/licmod_prop.ko #" \
		-e "s# $stub/licmod_prop.o # $prop/licmod_prop.o #")
case $cmd in
*"$prop/licmod_prop.o $stub/licmod_prop.mod.o"*) ;;
*)
	echo "hostbuild: unexpected link command in $stub/.licmod_prop.ko.cmd: $cmd" >&2
	exit 1
	;;
esac
printf '%s\n' "$cmd" >"$build/link.log"
(cd "$WB_KBUILD" && eval "$cmd")
cp "$prop/licmod_prop.ko" "$build/"
