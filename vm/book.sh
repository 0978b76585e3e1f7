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
wb_step "building the $edition edition into $out"
sphinx-build -q -W --keep-going -b html -t "$edition" \
	-d "$out.doctrees" "$WB_ROOT" "$out"
wb_say "book: $out/index.html"
