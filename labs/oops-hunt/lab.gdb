# The debugging lab under gdb: who writes hunt_adds? A watchpoint, set
# once hunt.ko is loaded and its symbols read, stops at every store to
# it. With the worked solution the three adds of the steps are the only
# writers; with the skeleton, reading /proc/hunt (hunt_show, TODO 3) is
# one too.
#
# The module is out of the tree: its symbols come from the lab's build
# folder (wb-symbols, vm/workbook.gdb) once do_init_module() has it in
# the kernel's list. hunt_add() is inlined into hunt_write(): the
# breakpoint on it still stops there, with its own line. A watchpoint
# stops after the store, at the next instruction: hunt_adds++ is the
# last statement of the inlined hunt_add(), so the stop is at
# hunt_write()'s mutex_unlock().
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.
break do_init_module if $_streq(mod->name, "hunt")
wb-continue
print mod->name
delete 1
wb-symbols
break hunt_add
wb-continue
watch hunt_adds
delete 2
wb-continue
backtrace 1
wb-continue
backtrace 1
wb-continue
backtrace 1
delete
# expect: Breakpoint 1, do_init_module
# expect: ^\$1 = "hunt
# expect: Breakpoint 2, .*hunt_add
# expect: [Ww]atchpoint 3: hunt_adds
# expect: ^Old value = 0$
# expect: ^New value = 1$
# expect: ^Old value = 2$
# expect: ^New value = 3$
# expect: ^#0 +hunt_write \(.*hunt\.c:[0-9]+
