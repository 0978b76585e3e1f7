#!/bin/sh
# make book FORMAT=pdf|single [EDITION=student|instructor]: the book as one
# HTML page (FORMAT=single), or that page printed to PDF by headless
# Chromium (FORMAT=pdf), both built with -W like the HTML book.
#
#   docs/book-print.sh FORMAT EDITION
#
# Out: _build/book/EDITION-single/index.html and _build/book/EDITION.pdf
# (WB_BOOK_OUT=dir puts both under dir instead).
set -eu
. "$(dirname "$0")/../vm/lib.sh"

format=${1:-pdf}
edition=${2:-student}
case $format in
pdf | single) ;;
*) wb_die "FORMAT must be html, single or pdf, not '$format'" ;;
esac
case $edition in
student | instructor) ;;
*) wb_die "EDITION must be student or instructor, not '$edition'" ;;
esac
wb_need_cmds sphinx-build:python3-sphinx dot:graphviz
[ "$format" = single ] || wb_need_cmds chromium:chromium
base=${WB_BOOK_OUT:-$WB_ROOT/_build/book}
single=$base/$edition-single
if [ ! -f "$WB_KSRC/scripts/kernel-doc" ]; then
	"$WB_ROOT/vm/kernel.sh" --tree || wb_die "the book needs the extracted tree"
fi
export WB_KSRC
wb_step "building the $edition edition as one page into $single"
sphinx-build -q -W --keep-going -b singlehtml -t "$edition" -t print \
	-d "$single.doctrees" "$WB_ROOT" "$single"
wb_say "book: $single/index.html"
[ "$format" = pdf ] || exit 0

pdf=$base/$edition.pdf
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
wb_step "printing it to $pdf"
# Chromium prints what it has once the page and its images have loaded;
# the virtual time budget lets the theme's scripts run first.
chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --virtual-time-budget=10000 \
	--no-pdf-header-footer --print-to-pdf="$pdf" \
	"file://$single/index.html" >"$profile/log" 2>&1 ||
	wb_die "Chromium could not print the book: $(tail -n 5 "$profile/log")"
[ -s "$pdf" ] || wb_die "Chromium wrote no PDF: $(tail -n 5 "$profile/log")"
pages=$(grep -ao '/Type */Pages\{0,1\}' "$pdf" | grep -vc 'Pages$' || :)
wb_say "book: $pdf ($pages pages)"
