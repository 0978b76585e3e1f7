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

# The checker's output, line by line, to the console and, as K records,
# to the verdict channel.
relay() {
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "$line"
		verdict "K $line"
	done
	verdict check-end
}

case $1 in
run)
	if [ -f /lab/run.sh ]; then
		echo "WB-STEPS-BEGIN"
		verdict steps-begin
		sh /lab/run.sh 9>&-
		rc=$?
		echo "WB-STEPS-END $rc"
		verdict "steps-end $rc"
	fi
	echo "WB-CHECK-BEGIN"
	verdict check-begin
	# The checker's status goes to the channel from this subshell, not
	# through the pipe that the checker's programs can write to.
	{
		sh /lab/check.sh 9>&-
		verdict "check-status $?"
	} | relay
	echo "WB-CHECK-END"
	;;
cmd)
	sh /build/cmd.sh 9>&-
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
