#!/bin/sh
# The debugging lab's guided steps, run inside the workbook VM. The bug
# of TODO 1 is not triggered here: with the skeleton it oopses, and a
# module that oopsed holding its lock is stuck until the next boot. The
# lab's page triggers it by hand.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=oops-hunt" >&2; exit 1; }
. /wb/lib.sh
. /lab/hunt.sh

echo "== 1. Load the module: /proc/hunt appears"
rmmod hunt 2>/dev/null
wb_run insmod /build/hunt.ko
wb_run ls -l "$H"

echo "== 2. Three adds, then the file read twice"
wb_typed "echo 'add a' >$H"
wb_typed "echo 'add b' >$H"
wb_typed "echo 'add a' >$H"
# make check's drgn script (lab.drgn) reads the kernel here.
wb_drgn_point
wb_run cat "$H"
wb_run cat "$H"

echo "== 3. A name forgotten, under ftrace's function graph"
hunt_graph a
wb_run cat "$H"
