# shellcheck shell=sh
# shellcheck disable=SC2034
# The outcome of a run, owned here and nowhere else: the exit statuses
# and their words, the run folder's file names, and the one reader of a
# checker's KTAP report (Documentation/dev-tools/ktap.rst). vm/lab.sh,
# vm/qemu.sh, vm/grade.sh, tests/check-lab.sh and tests/soak.sh ask it;
# none of them parses a report or maps a status on its own. Sourced by
# vm/lib.sh; needs only sh and awk (tests/t-05-verdict.sh runs it with no
# kernel and no VM).

# ---- exit statuses ------------------------------------------------------

# One line per status of vm/lab.sh (make lab, make check's runs): the
# number, its word for people, its status in make grade, its meaning.
# README.md's table and the book's are this table.
WB_STATUSES='0	pass	pass	the checker passed: every check ok, its report whole
1	fail	fail	the checker failed: a not ok, or a report that is not whole (no plan, fewer results than planned, results out of order: a checker killed midway, or something else writing into its output)
2	usage	fail	unknown lab, or a wrong setting (ACCEL, N)
3	oops	oops	the guest kernel crashed (an oops or panic the lab does not expect)
4	timeout	timeout	the guest did not boot, did not finish within the lab'"'"'s TIMEOUT, or hung (the kernel reported a hang, and the run was stopped)
5	no-verdict	fail	no verdict: the session in the guest was killed before its end, the guest powered off early, QEMU itself failed, or QEMU was stopped by a signal from outside the harness
6	build-error	build-error	the lab did not build (the compiler'"'"'s message is printed)'

# Their names, for the code that returns them.
WB_EXIT_PASS=0 WB_EXIT_FAIL=1 WB_EXIT_USAGE=2 WB_EXIT_OOPS=3 WB_EXIT_TIMEOUT=4 WB_EXIT_NO_VERDICT=5 WB_EXIT_BUILD_ERROR=6

# wb_status FIELD N: the word (FIELD word), the grade's status (grade)
# or the meaning (meaning) of status N. make grade's own "invalid" (a
# submission it would not take) is invalid-submission.
wb_status() {
	local col
	case $1 in word) col=2 ;; grade) col=3 ;; meaning) col=4 ;; *) return 2 ;; esac
	if [ "$2" = invalid ]; then
		echo invalid-submission
		return 0
	fi
	printf '%s\n' "$WB_STATUSES" | awk -F '\t' -v n="$2" -v c="$col" '
		$1 == n { print $c; found = 1 } END { if (!found) print (c == 3 ? "fail" : "unknown") }'
}

# wb_status_checked N: true when status N is the checker's own verdict
# (pass or fail), so that the report has points; false for a run that
# ended before it (a crash, a timeout, no verdict, a build error).
wb_status_checked() {
	[ "$1" = "$WB_EXIT_PASS" ] || [ "$1" = "$WB_EXIT_FAIL" ]
}

# ---- the run folder -----------------------------------------------------

# What a run folder holds (WB_RUN_DIR, or $WB_CACHE/run/LAB.PID). The
# harness writes each file and reads it back through these names.
#   console.log    the guest's console, as QEMU logged it
#   qemu.err       QEMU's own messages
#   accel          the accelerator of the boot (tcg or kvm)
#   verdict/       the verdict channel, written only by the guest's init
#                  and session (vm/guest/init): steps-end, check-begin,
#                  "K <line>" per line of the report, check-status,
#                  "D <line>" per line of the detectors', detectors-end, end
#   lab, variant, build   the lab, its variant, and its build folder
#   ktap           the checker's report, taken from the channel, with the
#                  detectors' results after the checker's own
#   detectors      the detectors' results alone (D records), decoded
#   ktap.broken    why the report is not whole (absent when it is)
#   steps.status   the guided steps' exit status; steps.txt their output
#   gdb.log        gdb's output, with WB_GDB_SCRIPT
#   drgn.log, drgn.info   the drgn script's output, with WB_DRGN_SCRIPT,
#                  and the seconds its snapshot and its run took
#   noboot, timed-out, over-budget   markers of the watchdog and timeout
#   qemu.pid, gdb.pid, timeout.pid, media.pid, drgn.pid, drgnrun.pid
#                  what wb_kill_rundir stops
#   control.{in,out}, monitor.{in,out}, gdb.sock   QEMU's FIFOs and socket
#   vmlinux, modules/   the kernel the VM booted, while it runs
# What a boot may leave running, by pid file in its run folder: a
# tour's GUESTS script (first, so that it starts no other guest), QEMU,
# the timeout(1) around it, gdb, the service that changes a CD drive's
# media (wb_media_service), and the one that runs a drgn script
# (wb_drgn_service) with its drgn.
WB_PIDFILES="guests qemu gdb timeout media drgn drgnrun"

# ---- the KTAP reader ----------------------------------------------------

# wb_ktap_count FILE total|pass|fail|skip: one figure of wb_ktap count.
wb_ktap_count() {
	local f
	case $2 in total) f=1 ;; pass) f=2 ;; fail) f=3 ;; skip) f=4 ;; *) return 2 ;; esac
	wb_ktap count "$1" | cut -d' ' -f"$f"
}

# wb_detector_names: the name of each detector's result, one a line, in
# the order of vm/detectors.tab.
wb_detector_names() {
	awk -F '\t' '!/^#/ && NF >= 3 { print $3 }' "$WB_ROOT/vm/detectors.tab"
}

# wb_detectors_whole FILE: nothing if FILE, the detectors' results (their
# "ok - NAME" lines), has one result per detector of vm/detectors.tab, in
# its order; otherwise what it has instead.
wb_detectors_whole() {
	local want got n m
	want=$(wb_detector_names)
	got=$(sed -n 's/^\(not \)\{0,1\}ok - //p' "$1" 2>/dev/null)
	[ "$want" != "$got" ] || return 0
	n=$(printf '%s' "$got" | grep -c '^') m=$(printf '%s\n' "$want" | grep -c '^')
	if [ "$n" = "$m" ]; then
		echo "results other than the detectors of vm/detectors.tab"
	else
		echo "$n results for the $m detectors of vm/detectors.tab"
	fi
}

# wb_ktap_append REPORT MORE POINTS: a whole report (wb_ktap check) with
# the results of MORE (unnumbered "ok - NAME" / "not ok - NAME" lines
# and their diagnostics, the detectors' of vm/guest/detectors.sh)
# numbered after its own, each worth POINTS; the plan counts them, and
# the report's "# Totals:" line, which no longer adds up, is left out.
wb_ktap_append() {
	awk -v more="$2" -v pts="$3" '
		BEGIN { while ((getline l < more) > 0) { m[++nm] = l; if (l ~ /^(not )?ok - /) nr++ } }
		/^1\.\.[0-9]+$/ && !planned { planned = 1; plan = substr($0, 4) + 0; print "1.." plan + nr; next }
		/^# Totals: / { next }
		{ print }
		END {
			k = plan
			for (i = 1; i <= nm; i++) {
				l = m[i]
				if (l ~ /^(not )?ok - /) {
					k++
					sub(/ - /, " " k " ", l)
					print l
					if (pts != 1) print "# points: " pts
					continue
				}
				if (l ~ /^#/) print l
			}
		}' "$1"
}

# wb_ktap MODE FILE [ARG...]: read a checker's report. Only top-level
# lines count (a subtest's lines are indented); any other line may come
# anywhere (the console mixes the kernel's messages in). A report is
# whole when it has the version line, the plan 1..N before any result,
# then exactly N results numbered 1 to N in order, and, if it has
# kselftest's "# Totals:" line, totals that add up to them. MODE:
#   check          prints why the report is not whole and fails, or
#                  prints nothing
#   count          "TOTAL PASS FAIL SKIP" (a SKIP result is "ok ... # SKIP")
#   names          the plan line, then "N POINTS NAME" for each result
#   failures       each not ok line and the diagnostics that follow it
#   passes         each ok line (SKIP results included)
#   points         "EARNED MAX": each result is worth the points its
#                  checker gave it ("# points: N" right after it, from
#                  ktap_points; one without), a SKIP counts neither way
#   course NAMES   the report with every result whose number, points and
#                  name are not those of NAMES (the output of names for
#                  the course's checker) turned into not ok, and all of
#                  them when the plan differs; says which on stderr
#   junit LAB STATUS LOG   a JUnit <testsuite>, one case per result; no
#                  result at all is one failed case with LOG's last lines
wb_ktap() {
	local mode file
	mode=$1 file=$2
	shift 2
	awk -v mode="$mode" -v arg1="${1:-}" -v arg2="${2:-}" -v arg3="${3:-}" '
		function esc(s) {
			gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s)
			gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
			return s
		}
		BEGIN {
			if (mode == "course")
				while ((getline l < arg1) > 0) {
					if (l ~ /^1\.\./) { rplan = l; continue }
					k = l; sub(/ .*/, "", k)
					want[k] = substr(l, length(k) + 2)
				}
		}
		$0 == "KTAP version 1" && !version { version = 1 }
		/^1\.\.[0-9]+$/ && !seen {
			seen = 1
			if (n) bad = bad ? bad : "the plan comes after result " n
			plan = substr($0, 4) + 0
			if (mode == "course" && $0 != rplan) {
				print "plan " $0 ", the course checker plans " substr(rplan, 4) > "/dev/stderr"
				foreign = 1
			}
		}
		/^(not )?ok [0-9]+( |$)/ {
			n++
			num = ($1 == "not") ? $3 : $2
			if (num + 0 != n && !bad) bad = "result " n " is numbered " num
			if (!seen && !bad) bad = "result " n " comes before any plan"
			nm = $0
			sub(/^(not )?ok [0-9]+( - )? */, "", nm)
			isskip = (nm ~ / # SKIP( |$)/)
			sub(/ # SKIP.*$/, "", nm)
			name[n] = nm; failed[n] = ($1 == "not"); skipped[n] = isskip && !failed[n]
			weight[n] = 1; line[n] = $0
			if (failed[n]) nfail++
			else if (skipped[n]) nskip++
			else npass++
			if (mode == "failures") { infail = failed[n]; if (infail) print }
			if (mode == "passes" && !failed[n]) print
			weighed = 0
			next
		}
		/^# points: [0-9]+$/ && n && !weighed { weight[n] = $3 + 0; weighed = 1; next }
		/^# Totals: / {
			totals = 1
			for (i = 3; i <= NF; i++) {
				split($i, kv, ":")
				tsum += kv[2]
				if (kv[1] == "fail") tfail = kv[2] + 0
			}
			next
		}
		/^#/ && n {
			if (mode == "failures" && infail) print
			diag[n] = diag[n] substr($0, 3) "\n"
			rawdiag[n] = rawdiag[n] $0 "\n"
		}
		!/^#/ { infail = 0 }
		END {
			if (!bad && !version) bad = "no KTAP version line"
			if (!bad && !seen) bad = "no plan"
			if (!bad && n != plan) bad = "planned " plan ", reported " n
			if (!bad && totals && (tsum != n || tfail != nfail + 0))
				bad = "its # Totals line does not add up to its results"
			if (mode == "check") {
				if (bad) { print bad; exit 1 }
				exit 0
			}
			if (mode == "count") printf "%d %d %d %d\n", n, npass, nfail, nskip
			if (mode == "names") {
				if (seen) print "1.." plan
				for (i = 1; i <= n; i++) print i, weight[i], name[i]
			}
			if (mode == "points") {
				for (i = 1; i <= n; i++) {
					if (skipped[i]) continue
					max += weight[i]
					if (!failed[i]) got += weight[i]
				}
				printf "%d %d\n", got, max
			}
			if (mode == "course") {
				# Every result, in order, with its points; one that is
				# not the course checker (number, points, name) fails.
				print "KTAP version 1"
				if (seen) print "1.." plan
				for (i = 1; i <= n; i++) {
					l = line[i]
					if (foreign || !(i in want) || want[i] != weight[i] " " name[i]) {
						if (!foreign)
							print "result " i " \"" name[i] "\" (" weight[i] " points) is not the course checker'"'"'s" > "/dev/stderr"
						sub(/^ok /, "not ok ", l)
					}
					print l
					# The points are those of the course: a result that
					# claims more cannot raise what the lab is worth.
					w = (i in want) ? want[i] : "0"
					sub(/ .*/, "", w)
					if (w != 1) print "# points: " w
					printf "%s", rawdiag[i]
				}
			}
			if (mode == "junit") {
				lab = arg1; status = arg2
				if (!n) {
					while ((getline l < arg3) > 0) tail[++t] = l
					for (i = (t > 25 ? t - 24 : 1); i <= t; i++) why = why tail[i] "\n"
					printf "  <testsuite name=\"%s\" tests=\"1\" failures=\"%d\">\n", esc(lab), status != "pass"
					printf "    <testcase classname=\"%s\" name=\"%s: run\">\n", esc(lab), esc(lab)
					if (status != "pass")
						printf "      <failure message=\"%s\">%s</failure>\n", esc(status), esc(why)
					print "    </testcase>"
					print "  </testsuite>"
					exit 0
				}
				printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">\n", esc(lab), n, nfail
				for (i = 1; i <= n; i++) {
					printf "    <testcase classname=\"%s\" name=\"%s\">\n", esc(lab), esc(name[i])
					if (failed[i])
						printf "      <failure message=\"%s\">%s</failure>\n", esc(name[i]), esc(diag[i])
					else if (skipped[i])
						print "      <skipped/>"
					print "    </testcase>"
				}
				print "  </testsuite>"
			}
		}' "$file"
}
