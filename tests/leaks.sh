#!/bin/sh
# What the course keeps from its students, and a search for it (used by
# tests/t-60-student-repo.sh and tests/t-30-book.sh).
#
#   tests/leaks.sh secrets DIR       the secrets into DIR/lines and
#                                    DIR/windows; prints their counts
#   tests/leaks.sh scan DIR PATH...  every text file under each PATH (an
#                                    HTML file as its text) against them:
#                                    prints the counts and the matches,
#                                    status 1 if there is one
#
# The secret lines: those added by a lab's exercise patch
# (solutions/LAB/*.patch), those of the worked solutions (solution.rst)
# and of the instructor's pages (docs/authoring.rst, docs/grading.rst),
# and those the skeleton generator drops from a lab's solution files (the
# code after each TODO marker: vm/skel.sh --strip dropped); less the
# lines a student is meant to have: the skeletons', and those of the
# course's other tracked files, the kernel series included but for its
# parts that carry a lab's kernel file (lab 0's /proc/tainted is there
# whole). A line is compared with its white space trimmed and each run
# of it made one space, and only with MIN_LINE characters or more, a
# letter or a digit among them: a shorter one ("return 0;", "} else {")
# tells nothing. The code among them (the patches' lines and the dropped
# ones, not the prose) is also cut into every window of WINDOW
# characters that holds an operator or a bracket (a name alone, such as
# ETHTOOL_MODULE_POWER_MODE_LOW, is the kernel's and the book's too),
# less the windows found in what a student is meant to have: a window
# found is a leak as well, a line of the answer inside another one or
# rewrapped.
set -eu
. "$(dirname "$0")/lib.sh"

MIN_LINE=12
WINDOW=24

# The awk functions both steps share: norm(S), S as it is compared.
norm_awk='
	function norm(s) {
		gsub(/[ \t\r]+/, " ", s)
		sub(/^ /, "", s)
		sub(/ $/, "", s)
		return s
	}'

secrets() {
	local dir work lab path _kind p
	dir=$1
	work=$dir/work
	rm -rf "$work"
	mkdir -p "$work"
	: >"$work/code"
	: >"$work/prose"
	: >"$work/public"
	for lab in $(wb_exercise_names); do
		if ! "$WB_ROOT/vm/skel.sh" "$lab" solution "$work/sol/$lab" 2>"$work/skel.err" ||
			! "$WB_ROOT/vm/skel.sh" "$lab" skeleton "$work/skel/$lab" 2>>"$work/skel.err"; then
			wb_die "lab $lab: its solution or skeleton cannot be made: $(cat "$work/skel.err")"
		fi
		wb_lab_own_files "$lab" >"$work/own"
		while read -r path _kind; do
			"$WB_ROOT/vm/skel.sh" --strip dropped "$work/sol/$lab/$path" >>"$work/code"
			cat "$work/skel/$lab/$path" >>"$work/public"
		done <"$work/own"
		for p in $(wb_lab_patches "$lab"); do
			sed -n -e '/^+++ /d' -e 's/^+//p' "$p" >>"$work/code"
		done
		cat "$WB_SOLUTIONS/$lab/solution.rst" >>"$work/prose"
	done
	cat "$WB_ROOT/docs/authoring.rst" "$WB_ROOT/docs/grading.rst" >>"$work/prose"
	# The series is public but for its parts that carry a lab's kernel file.
	for lab in $(wb_exercise_names); do
		wb_lab_own_files "$lab"
	done | awk '$2 == "tree" { print "diff --git a/" $1 " b/" $1 }' >"$work/labfiles"
	wb_series "$WB_KERNEL_DIR/series" | while read -r p; do
		awk 'FNR == NR { lab[$0] = 1; on = 1; next } /^diff --git / { on = !($0 in lab) }
			on { print /^[-+ ]/ ? substr($0, 2) : $0 }' \
			"$work/labfiles" "$WB_KERNEL_DIR/patches/$p"
	done >>"$work/public"
	git -C "$WB_ROOT" ls-files | grep -v -e '^solutions/' -e '^kernel/patches/' \
		-e '^docs/authoring\.rst$' -e '^docs/grading\.rst$' |
		(cd "$WB_ROOT" && tr '\n' '\0' | xargs -0 grep -hI '') >>"$work/public" || :

	LC_ALL=C awk -v min="$MIN_LINE" -v wlen="$WINDOW" -v out="$dir" "$norm_awk"'
		FILENAME == ARGV[1] { public[norm($0)] = 1; pl[++np] = " " norm($0) " "; next }
		{
			s = norm($0)
			total++
			if (length(s) < min || s !~ /[A-Za-z0-9]/ || s in public)
				next
			secret[s] = 1
			if (FILENAME == ARGV[3])
				next
			for (i = 1; i + wlen - 1 <= length(s); i++) {
				w = substr(s, i, wlen)
				# Code, not a name: an operator or a bracket in it.
				if (w ~ /[][(){};=<>&|!+*\/%?^~"-]/)
					win[w] = 1
			}
		}
		END {
			for (k = 1; k <= np; k++)
				for (i = 1; i + wlen - 1 <= length(pl[k]); i++)
					delete win[substr(pl[k], i, wlen)]
			for (s in secret) {
				print s >(out "/lines")
				nl++
			}
			printf "" >(out "/windows")
			for (w in win) {
				print w >(out "/windows")
				nw++
			}
			printf "%d secret lines (of the %d lines of the solutions and instructor pages, those of %d characters or more that no file of a student has), %d windows of %d characters of solution code\n", nl, total, min, nw, wlen
		}' "$work/public" "$work/code" "$work/prose"
	rm -rf "$work"
}

scan() {
	local dir list f
	dir=$1
	shift
	list=$(mktemp -d)
	# Every text file, an HTML file as its text (tags off, entities back).
	find "$@" -type f ! -path '*/.git/*' | sort | while IFS= read -r f; do
		grep -Iq '' "$f" 2>/dev/null || continue
		case $f in
		*.html)
			mkdir -p "$list/html$(dirname "$f")"
			sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' \
				-e "s/&#39;/'/g" -e "s/&#x27;/'/g" -e 's/&amp;/\&/g' "$f" >"$list/html$f"
			echo "$list/html$f"
			;;
		*) echo "$f" ;;
		esac
	done >"$list/files"
	rc=0
	LC_ALL=C awk -v wlen="$WINDOW" -v lines="$dir/lines" -v windows="$dir/windows" \
		-v html="$list/html" "$norm_awk"'
		BEGIN {
			while ((getline l < lines) > 0) { secret[l] = 1; nl++ }
			while ((getline l < windows) > 0) { win[l] = 1; nw++ }
		}
		{
			f = $0
			files++
			k = 0
			while ((getline l < f) > 0) {
				k++
				s = norm(l)
				what = ""
				if (s in secret)
					what = "line"
				else if (s ~ /^[-+]/ && norm(substr(s, 2)) in secret)
					what = "line of a patch"
				else
					for (i = 1; i + wlen - 1 <= length(s); i++)
						if (substr(s, i, wlen) in win) {
							what = "window \"" substr(s, i, wlen) "\""
							break
						}
				if (what != "" && ++m <= 20)
					printf "# leak: %s:%d: %s: %s\n", substr(f, index(f, html) == 1 ? length(html) + 1 : 1), k, what, substr(s, 1, 100)
			}
			close(f)
			n += k
		}
		END {
			printf "compared %d secret lines and %d windows with %d lines of %d files: %d matches\n", nl, nw, n, files, m
			exit m > 0
		}' "$list/files" || rc=$?
	rm -rf "$list"
	return "$rc"
}

case ${1:-} in
secrets) secrets "${2:?usage: tests/leaks.sh secrets DIR}" ;;
scan)
	[ $# -ge 3 ] || wb_die "usage: tests/leaks.sh scan DIR PATH..."
	shift
	scan "$@"
	;;
*) wb_die "usage: tests/leaks.sh secrets DIR | scan DIR PATH..." ;;
esac
