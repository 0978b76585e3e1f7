#!/bin/sh
# The book: both editions build with -W, the student edition holds no
# solution text (neither the worked solutions' prose nor a line or a
# 24-character window of the solutions' code, in its pages or in its
# printable one-page form), it prints to PDF, the ABI entries
# validate, and in a real browser every page of both editions renders,
# keeps its tables and code blocks within their column, and has no
# broken internal link or image.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT

# A student repository has no instructor edition to build.
editions=student
[ ! -d "$WB_SOLUTIONS" ] || editions="student instructor"
for edition in $editions; do
	if WB_BOOK_OUT=$tmp/$edition "$WB_ROOT/vm/book.sh" "$edition" >"$tmp/$edition.log" 2>&1; then
		t_ok "the $edition edition builds with -W"
	else
		t_fail "the $edition edition builds with -W" "$(tail -n 20 "$tmp/$edition.log")"
	fi
done

# The printable edition: one page, printed to PDF by Chromium.
if command -v chromium >/dev/null &&
	WB_BOOK_OUT=$tmp/print "$WB_ROOT/docs/book-print.sh" pdf student >"$tmp/print.log" 2>&1 &&
	[ -s "$tmp/print/student.pdf" ]; then
	t_ok "the student edition prints to PDF with -W: $(sed -n 's/.*book: .*pdf (\(.*\))/\1/p' "$tmp/print.log")"
else
	t_fail "the student edition prints to PDF with -W" "$(tail -n 20 "$tmp/print.log" 2>/dev/null)"
fi

# The leak tests need the solutions: a student repository has none.
if [ -d "$WB_SOLUTIONS" ]; then
	# Plain prose lines of the worked solutions (letters, spaces, commas
	# and full stops only, so that smart quotes and markup cannot hide
	# them).
	cat "$WB_SOLUTIONS"/*/solution.rst 2>/dev/null |
		grep -E '^[A-Za-z][A-Za-z ,.]{40,}$' | sort -u >"$tmp/prose"
	n=$(wc -l <"$tmp/prose")
	leaks=$(grep -rlF -f "$tmp/prose" "$tmp/student" 2>/dev/null | head -n 5)
	found=$(grep -rhoF -f "$tmp/prose" "$tmp/instructor" 2>/dev/null | sort -u | wc -l)
	if [ "$n" -gt 0 ] && [ -z "$leaks" ]; then
		t_ok "the student edition contains none of $n lines of the worked solutions"
	else
		t_fail "the student edition contains none of $n lines of the worked solutions" "found in: $leaks"
	fi
	if [ "$found" -gt 0 ]; then
		t_ok "the instructor edition contains the worked solutions ($found of $n lines)"
	else
		t_fail "the instructor edition contains the worked solutions" "none of $n lines found"
	fi
	# The solutions' code, line by line and by every window of 24
	# characters (tests/leaks.sh), in the text of each page.
	sh "$WB_ROOT/tests/leaks.sh" secrets "$tmp/secrets" >/dev/null
	rc=0
	out=$(sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$tmp/student" "$tmp/print/student-single") || rc=$?
	if [ "$rc" = 0 ]; then
		t_ok "the student edition holds no line and no 24-character window of the solutions: $(printf '%s\n' "$out" | tail -n 1)"
	else
		t_fail "the student edition holds no line and no 24-character window of the solutions" "$out"
	fi
	out=$(sh "$WB_ROOT/tests/leaks.sh" scan "$tmp/secrets" "$tmp/instructor") || :
	case $out in
	*": 0 matches") t_fail "the same search finds the solutions in the instructor edition" "$out" ;;
	*) t_ok "the same search finds the solutions in the instructor edition: $(printf '%s\n' "$out" | tail -n 1)" ;;
	esac
fi

# The ABI entries, checked by the tree's own parser.
if [ -x "$WB_KSRC/scripts/get_abi.pl" ] && [ -d "$WB_ROOT/docs/ABI" ]; then
	out=$(perl "$WB_KSRC/scripts/get_abi.pl" validate --dir "$WB_ROOT/docs/ABI" 2>&1)
	rc=$?
	if [ "$rc" = 0 ] && ! printf '%s' "$out" | grep -qiE 'warning|error'; then
		t_ok "scripts/get_abi.pl validates docs/ABI"
	else
		t_fail "scripts/get_abi.pl validates docs/ABI" "status $rc: $out"
	fi
	count=$(perl "$WB_KSRC/scripts/get_abi.pl" search --dir "$WB_ROOT/docs/ABI" . 2>/dev/null | grep -c '^/sys')
	if [ "$count" -gt 0 ]; then
		t_ok "get_abi.pl finds $count documented sysfs attributes"
	else
		t_fail "get_abi.pl finds the documented sysfs attributes" "none found"
	fi
else
	t_fail "scripts/get_abi.pl validates docs/ABI" "no tree in $WB_KSRC or no docs/ABI"
fi

# make book needs the tree, not the lab toolchain: the tree step
# (vm/book.sh runs it when the cache has no tree) with every command on
# PATH but the compilers, ccache, the kernel build's other tools and QEMU.
mkdir "$tmp/nocc"
for d in $(printf '%s\n' "$PATH" | tr ':' ' '); do
	for f in "$d"/*; do
		n=${f##*/}
		case $n in
		gcc | gcc-* | *-gcc | *-gcc-* | cc | c89 | c99 | clang* | ccache | flex | bison | \
			pahole | lz4 | qemu-system-*) continue ;;
		esac
		[ -e "$tmp/nocc/$n" ] || ln -s "$f" "$tmp/nocc/$n"
	done
done
if out=$(PATH=$tmp/nocc "$WB_ROOT/vm/kernel.sh" --tree 2>&1); then
	t_ok "the book's tree step runs without a compiler, ccache or QEMU on PATH"
else
	t_fail "the book's tree step runs without a compiler, ccache or QEMU on PATH" "$out"
fi

# ---- in a real browser ----
if ! command -v chromium >/dev/null; then
	t_fail "the book loads in headless Chromium" "chromium is not installed (apt-get install chromium)"
	t_done
	exit
fi
# Each page gets tests/book-layout.js at its end (in this test's copy of
# the book only): once laid out, the page writes into itself how many
# tables and code blocks it has and which of them are wider than their
# column, and Chromium's dump of the DOM carries that back.
cp "$WB_ROOT/tests/book-layout.js" "$tmp/wb-layout.js"
for edition in $editions; do
	find "$tmp/$edition" -name '*.html' -exec sed -i 's|</body>|<script src="/wb-layout.js"></script></body>|' {} +
done
port=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 20000) }')
(cd "$tmp" && exec python3 -m http.server --bind 127.0.0.1 "$port") >"$tmp/http.log" 2>&1 &
server=$!
n=0
until curl -sf "http://127.0.0.1:$port/student/index.html" >/dev/null || [ $n -ge 50 ]; do
	sleep 0.1
	n=$((n + 1))
done

chrome() {
	chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chrome" "$@" 2>>"$tmp/chrome.log"
}

# Every page of each edition, as a reader at 1280 pixels sees it: it
# renders, its tables and code blocks stay in their column, and every
# internal link and image it has loads.
for edition in $editions; do
	pages=0 tables=0 blocks=0 wide=0 bad=0
	: >"$tmp/wide"
	: >"$tmp/refs"
	for page in $(cd "$tmp/$edition" && find . -name '*.html' ! -name search.html | sed 's|^\./||' | sort); do
		chrome --window-size=1280,1000 --virtual-time-budget=5000 \
			--dump-dom "http://127.0.0.1:$port/$edition/$page" >"$tmp/dom.html"
		pages=$((pages + 1))
		if ! grep -q '</html>' "$tmp/dom.html" || ! grep -q 'Kernel workbook' "$tmp/dom.html"; then
			bad=$((bad + 1))
			echo "$page: not rendered" >>"$tmp/wide"
			continue
		fi
		counts=$(sed -n 's/.*wb-layout: tables \([0-9]*\) blocks \([0-9]*\) overflowing \([0-9]*\).*/\1 \2 \3/p' "$tmp/dom.html")
		if [ -z "$counts" ]; then
			bad=$((bad + 1))
			echo "$page: the layout script did not report" >>"$tmp/wide"
			continue
		fi
		read -r nt nb nw <<-EOF
			$counts
		EOF
		tables=$((tables + nt)) blocks=$((blocks + nb)) wide=$((wide + nw))
		sed -n "s|^wb-overflow: |$page: |p" "$tmp/dom.html" | sed 's/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g' >>"$tmp/wide"
		dir=$(dirname "$page")
		grep -oE '(href|src)="[^"#?]+' "$tmp/dom.html" | sed 's/^[a-z]*="//' |
			grep -vE '^(https?:|mailto:|data:|//)' | while read -r ref; do
			case $ref in
			/*) echo "$ref" ;;
			*) echo "/$edition/$dir/$ref" ;;
			esac
		done >>"$tmp/refs"
	done
	if [ "$bad" = 0 ] && [ "$pages" -gt 0 ]; then
		t_ok "Chromium renders the $pages pages of the $edition edition"
	else
		t_fail "Chromium renders the $pages pages of the $edition edition" "$(grep -v 'px >' "$tmp/wide")" "$(tail -n 5 "$tmp/chrome.log")"
	fi
	if [ "$wide" = 0 ] && [ "$bad" = 0 ] && [ "$tables" -gt 0 ] && [ "$blocks" -gt 0 ]; then
		t_ok "$edition edition: $tables tables and $blocks code blocks checked, overflowing their column: 0"
	else
		t_fail "$edition edition: no table or code block wider than its column" \
			"$tables tables and $blocks code blocks checked, $wide overflowing:" "$(head -n 30 "$tmp/wide")"
	fi
	# Each link and image once, with its path made plain (a/./b, a/x/../b).
	sort -u "$tmp/refs" | awk '{
		n = split($0, p, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (p[i] == "" || p[i] == ".") continue
			if (p[i] == "..") { if (k > 0) k--; continue }
			q[++k] = p[i]
		}
		s = ""
		for (i = 1; i <= k; i++) s = s "/" q[i]
		print s
	}' | sort -u >"$tmp/urls"
	checked=$(wc -l <"$tmp/urls")
	broken=$(while read -r u; do
		curl -sf -o /dev/null "http://127.0.0.1:$port$u" || echo "$u"
	done <"$tmp/urls")
	if [ -z "$broken" ] && [ "$checked" -gt 0 ]; then
		t_ok "$edition edition: its $checked internal links and images load"
	else
		t_fail "$edition edition: no broken internal link or image" "broken: $broken"
	fi
done

mkdir -p "$WB_ROOT/_build/screenshots"
for page in index.html chapters/05-networking/index.html; do
	shot=$WB_ROOT/_build/screenshots/$(echo "$page" | tr '/' '-' | sed 's/\.html$//').png
	chrome --screenshot="$shot" --window-size=1280,1000 --hide-scrollbars \
		"http://127.0.0.1:$port/student/$page" >/dev/null
	if [ -s "$shot" ]; then
		t_ok "a screenshot of $page is saved ($shot)"
	else
		t_fail "a screenshot of $page is saved" "$(tail -n 5 "$tmp/chrome.log")"
	fi
done
t_done
