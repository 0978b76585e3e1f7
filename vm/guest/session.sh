#!/bin/sh
# What the workbook VM does once its root is ready, as /wb/session.sh:
#   run    the lab's guided steps (/lab/run.sh), then its checker
#   cmd    /build/cmd.sh, a command the harness wrote for this boot
#   shell  an interactive shell in /lab
set -u
. /wb/lib.sh
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd /lab || exit 1

# The verdict channel, fd 9, opened by init: one record per line, which
# the harness reads instead of the console. Only this script and its own
# subshells hold it; every program of the lab runs with it closed.
if { true >&9; } 2>/dev/null; then
	verdict() { printf '%s\n' "$*" >&9; }
else
	verdict() { :; }
fi

status() {
	echo "WB-STATUS $1"
	verdict "status $1"
}

# relay TAG END: lines of a report, one by one, to the console and, as
# "TAG line" records, to the verdict channel, then the record END.
relay() {
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		verdict "$1 $line"
	done
	verdict "$2"
}

# lab CMD...: run one of the lab's scripts as the lab's programs run:
# root, with every capability but CAP_SYS_PTRACE (taken out of the
# bounding set, so no program they start gets it back), and without the
# verdict channel. This shell and PID 1 keep CAP_SYS_PTRACE: their
# /proc/PID files (fd, root, ns, environ) are closed to the lab, whose
# capabilities are not a superset of theirs. Yama (scope 3, set by init)
# keeps every process from attaching to any other.
lab() {
	setpriv --bounding-set -sys_ptrace "$@" 9>&-
}

# Nothing the guided steps of a lab started may outlive them: a program
# left running would share the checker's boot. Nor may anything the
# checker started outlive it, into the detectors' pass, which such a
# program could end early. Every process but PID 1 and this shell is
# killed, and the kill repeated until no other process has a program
# (kernel threads have none, nor have the dead), for at most 5 s. The
# loop forks nothing but sleep, after the kill.
end_programs() {
	i=0
	while [ $i -lt 50 ]; do
		kill -s KILL -- -1 2>/dev/null
		left=
		for p in /proc/[0-9]*; do
			p=${p#/proc/}
			[ "$p" = 1 ] || [ "$p" = $$ ] || [ ! -e "/proc/$p/exe" ] || left="$left $p"
		done
		[ -n "$left" ] || return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "wb-session: processes of the guided steps would not die:$left" >&2
}

case $1 in
run)
	if [ -f /lab/run.sh ]; then
		echo "WB-STEPS-BEGIN"
		verdict steps-begin
		# The steps run in a mount namespace of their own: what they
		# mount over the system's files (a /usr/bin/grep of their
		# own, say) is not what the checker sees. Only /run/netns is
		# shared (named network namespaces, made by the steps, used
		# by some checkers).
		# A tour is never graded: its steps run as they always did,
		# beside the checker, and what they start stays for it.
		tour=$(wb_param wb.tour)
		ns="unshare -m --propagation unchanged"
		[ "$tour" != 1 ] || ns=
		# shellcheck disable=SC2086
		lab $ns sh /lab/run.sh
		rc=$?
		[ "$tour" = 1 ] || end_programs
		echo "WB-STEPS-END $rc"
		verdict "steps-end $rc"
	fi
	echo "WB-CHECK-BEGIN"
	verdict check-begin
	# The checker's status goes to the channel from this subshell, not
	# through the pipe that the checker's programs can write to.
	# The checker runs in a mount namespace of its own too: what the
	# programs it runs mount is theirs, never this shell's or PID 1's.
	{
		lab unshare -m --propagation unchanged sh /lab/check.sh
		verdict "check-status $?"
	} | relay K check-end
	echo "WB-CHECK-END"
	# The kernel's own detectors, after the checker (vm/detectors.tab):
	# their results, D records, follow the checker's in the report. The
	# host turns them off for some runs (WB_DETECTORS=0).
	end=$(cut -d' ' -f1 /proc/uptime)
	end_programs
	if [ "$(wb_param wb.detectors)" != off ]; then
		echo "WB-DETECTORS-BEGIN"
		sh /wb/detectors.sh "$end" | relay D detectors-end
		echo "WB-DETECTORS-END"
	fi
	;;
cmd)
	lab sh /build/cmd.sh
	status $?
	;;
shell)
	cols=$(wb_param wb.cols)
	rows=$(wb_param wb.rows)
	[ -n "$cols" ] && stty cols "$cols" rows "$rows" 2>/dev/null
	TERM=${TERM:-linux}
	export TERM
	echo
	echo "Workbook VM, lab $(wb_param wb.lab). Your lab folder is /lab, its build output /build."
	echo "  sh /lab/run.sh    the guided steps      sh /lab/check.sh   the checker"
	echo "  exit              power off             Ctrl-a x           kill QEMU"
	bash -i 9>&-
	status $?
	;;
*)
	echo "unknown session mode '$1'"
	status 2
	;;
esac
# The last record: a session that is killed before it never says it.
verdict end
