#!/bin/sh
# What the workbook VM does once its root is ready, as /wb/session.sh:
#   run    the lab's guided steps (/lab/run.sh), then its checker
#   cmd    /build/cmd.sh, a command the harness wrote for this boot
#   shell  an interactive shell in /lab
set -u
. /wb/lib.sh
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd /lab || exit 1

status() {
	echo "WB-STATUS $1"
}

case $1 in
run)
	if [ -f /lab/run.sh ]; then
		echo "WB-STEPS-BEGIN"
		sh /lab/run.sh
		echo "WB-STEPS-END $?"
	fi
	echo "WB-CHECK-BEGIN"
	sh /lab/check.sh
	rc=$?
	echo "WB-CHECK-END"
	status "$rc"
	;;
cmd)
	sh /build/cmd.sh
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
	bash -i
	;;
*)
	echo "unknown session mode '$1'"
	status 2
	;;
esac
