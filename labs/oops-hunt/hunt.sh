# shellcheck shell=sh
# What run.sh and check.sh of the debugging lab share. Sourced after
# /wb/lib.sh.

H=/proc/hunt

# hunt_graph NAME: "del NAME" under ftrace's function graph, from
# hunt_write() down, with the module's functions and kfree() traced (-l)
# and nothing else; trace-cmd starts the tracer, the kernel's trace
# buffer is shown, the tracer reset. Each command is shown as typed.
hunt_graph() {
	wb_typed "trace-cmd start -p function_graph -g hunt_write -l 'hunt_*' -l kfree >/dev/null 2>&1"
	wb_typed "echo 'del $1' >$H"
	wb_typed "trace-cmd stop; trace-cmd show | grep -v '^#'; trace-cmd reset >/dev/null"
}
