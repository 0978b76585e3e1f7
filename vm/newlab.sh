#!/bin/sh
# make new-lab NAME=name [CHAPTER=nn]: the scaffold of a new lab, which
# passes make check LAB=name as it is written: its solution passes the
# checker, its skeleton (one TODO left undone) fails it, and its gdb
# script sees the module being loaded. The author then replaces each
# piece with the lab's own; the author guide (the instructor edition,
# "Writing a lab") says what each one is for.
#
#   labs/NAME/lab.mk           manifest: chapter, title, timeout, files
#   labs/NAME/README.rst       the guided steps, as the book shows them
#   labs/NAME/run.sh           the steps, run in the guest by RUN=1
#   labs/NAME/check.sh         the checker, KTAP, run in the guest
#   labs/NAME/lab.gdb          the gdb walkthrough, with "# expect:" lines
#   solutions/NAME/MOD.c       the worked solution of the one student file
#   solutions/NAME/solution.rst  its explanation (instructor edition)
#
# MOD is NAME with "-" turned into "_", the name Kbuild gives the module.
set -eu
. "$(dirname "$0")/lib.sh"

name=${1:-}
chapter=${2:-07}
case $name in
'' | *[!a-z0-9-]* | -*)
	wb_die "usage: make new-lab NAME=name [CHAPTER=nn]; the name is lower case letters, digits and '-', such as folio-walk"
	;;
esac
case $chapter in
front | [0-9][0-9]) ;;
*) wb_die "CHAPTER is 'front' or the two digits of a chapter folder (01 to 07), not '$chapter'" ;;
esac
[ ! -e "$WB_LABS/$name" ] || wb_die "labs/$name exists already"
[ ! -e "$WB_SOLUTIONS/$name" ] || wb_die "solutions/$name exists already"
mod=$(printf '%s' "$name" | tr - _)

ldir=$WB_LABS/$name
sdir=$WB_SOLUTIONS/$name
mkdir -p "$ldir" "$sdir"

cat >"$ldir/lab.mk" <<EOF
# $name: one line on what the lab teaches. Read by vm/lib.sh
# (wb_manifest): CHAPTER orders the labs as the book does, TIMEOUT bounds
# a RUN=1 boot in seconds, FILES lists the student's files as path:kind
# (tree, module, prog, bpf; ktool and kfile name tree files the guest
# needs). A kernel exercise is solutions/$name/*.patch, not a FILES entry.
CHAPTER := $chapter
TITLE := A new lab
TIMEOUT := 120
FILES := $mod.c:module
EOF

cat >"$ldir/README.rst" <<EOF
A new lab
=========

Say here what the lab shows and why it matters, in two or three short
paragraphs: the kernel change it comes from, and what the student will
see happen.

Your files
----------

- \`\`$mod.c\`\`, a module: TODO 1, print the greeting when it is loaded.

Steps
-----

1. Boot the lab with a shell::

       make lab LAB=$name

2. Load the module and read the kernel log::

       insmod /build/$mod.ko
       dmesg | tail -n 1

3. Run the checker: \`\`make lab LAB=$name RUN=1\`\`.
EOF

cat >"$ldir/run.sh" <<EOF
#!/bin/sh
# $name: the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=$name" >&2; exit 1; }
. /wb/lib.sh

echo "== 1. Load the module"
wb_run insmod /build/$mod.ko || :
echo "== 2. What it said"
wb_run dmesg | grep '$mod:' | tail -n 1
EOF

cat >"$ldir/check.sh" <<EOF
#!/bin/sh
# $name checker (KTAP), run inside the workbook VM after run.sh.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=$name" >&2; exit 1; }
. /wb/lib.sh

ktap_plan 2
rmmod $mod 2>/dev/null
ktap_true "$mod loads" "insmod succeeds" insmod /build/$mod.ko
ktap_match "$mod greets the kernel log" '$mod: hello from the workbook' \\
	"\$(dmesg | grep '$mod:' | tail -n 1)"
ktap_done
EOF

cat >"$ldir/lab.gdb" <<EOF
# $name under gdb: stop where the kernel starts the init function of
# this lab's module, and print the module's name. The guest's init loads
# other modules first (ipv6.ko at boot): the condition on the name makes
# this lab's step the only one that reaches the breakpoint. make check
# runs this file in batch mode while the steps run and matches each
# "expect:" line (an extended regular expression) against gdb's output.
break do_init_module if \$_streq(mod->name, "$mod")
wb-continue
print mod->name
# expect: Breakpoint 1, do_init_module
# expect: ^\\\$1 = "$mod"
EOF

cat >"$sdir/$mod.c" <<EOF
// SPDX-License-Identifier: GPL-2.0
/*
 * $mod: the scaffold's module. It says hello when loaded; replace it
 * with the lab's own code.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init ${mod}_init(void)
{
	/* TODO 1: print the greeting the checker looks for */
	pr_info("$mod: hello from the workbook\n");

	return 0;
}

static void __exit ${mod}_exit(void)
{
}

module_init(${mod}_init);
module_exit(${mod}_exit);
MODULE_DESCRIPTION("Scaffold of the $name lab (kernel workbook)");
MODULE_LICENSE("GPL");
EOF

cat >"$sdir/solution.rst" <<EOF
$name: worked solution
$(printf '%s' "$name: worked solution" | sed 's/./=/g')

\`\`$mod.c\`\`
$(printf '%s' "\`\`$mod.c\`\`" | sed 's/./-/g')

**TODO 1.** Explain the step in prose: why this code, not only what it
does, and what the student would see with a plausible wrong answer.
EOF

chmod 755 "$ldir/run.sh" "$ldir/check.sh"

# The lab's page in the book, listed last in its "Labs and tours" part
# (WB_BOOK_ROOT: where index.rst and chapters/ are; the checkout's).
book=${WB_BOOK_ROOT:-$WB_ROOT}
mkdir -p "$book/chapters/labs"
printf '.. lab-page:: %s\n' "$name" >"$book/chapters/labs/$name.rst"
if awk -v line="   $name: A new lab <chapters/labs/$name>" '
	{ l[NR] = $0 }
	/<chapters\/labs\/[a-z0-9-]*>$/ { last = NR }
	END {
		if (!last)
			exit 1
		for (i = 1; i <= NR; i++) { print l[i]; if (i == last) print line }
	}' "$book/index.rst" >"$book/index.rst.new"; then
	mv "$book/index.rst.new" "$book/index.rst"
else
	rm -f "$book/index.rst.new"
	wb_die "$book/index.rst has no \"Labs and tours\" list to add labs/$name to"
fi
wb_say "new lab: labs/$name and solutions/$name, its page chapters/labs/$name.rst (listed in index.rst)"
wb_say "next: make check LAB=$name (passes as it is), then make it the lab's own:"
wb_say "  a kernel exercise: list the tree file in FILES (path:tree), then make lab-patch LAB=$name;"
wb_say "  the book: the same new title in lab.mk, the README's first line and index.rst;"
wb_say "  link the page from chapters/$chapter-*/index.rst (see 'Writing a lab')"
