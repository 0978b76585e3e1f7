#!/bin/sh
# make book [EDITION=student|instructor]: the HTML book, built with -W so
# that any warning fails the build.
set -eu
. "$(dirname "$0")/lib.sh"

edition=${1:-student}
case $edition in
student | instructor) ;;
*) wb_die "EDITION must be student or instructor, not '$edition'" ;;
esac
wb_need_cmds sphinx-build:python3-sphinx dot:graphviz
out=${WB_BOOK_OUT:-$WB_ROOT/_build/book/$edition}
# kernel-doc reads the extracted tree: extract it when it is missing (no
# kernel build is needed for the book).
if [ ! -f "$WB_KSRC/scripts/kernel-doc" ]; then
	"$WB_ROOT/vm/kernel.sh" --tree || wb_die "the book needs the extracted tree"
fi
export WB_KSRC
wb_step "building the $edition edition into $out"
sphinx-build -q -W --keep-going -b html -t "$edition" \
	-d "$out.doctrees" "$WB_ROOT" "$out"
wb_say "book: $out/index.html"
