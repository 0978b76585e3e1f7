# gdb commands of the workbook, sourced by every gdb session of the
# harness (vm/qemu.sh, wb_gdb_args) after the tree's own helpers.

# wb-continue: continue, as "continue" does, but go on past a stop that
# only repeats the previous one. QEMU's gdb stub under TCG with several
# vCPUs can report one breakpoint hit twice: gdb steps the thread over
# the breakpoint, the step is lost, and the thread stops at the same
# breakpoint without having run an instruction. A true second hit (the
# function called again) has run code in between, which overwrites the
# free stack below the stack pointer; so at each stop a marker is
# written 256 bytes below $sp, and a stop at the same pc and sp that
# finds it intact is the repeat. Lab scripts use wb-continue wherever
# they continue to a breakpoint.
set $wb_marker = 0x5742000000000000
set $wb_last_pc = 0
set $wb_last_sp = 0
define wb-continue
	set $wb_again = 1
	while $wb_again
		continue
		set $wb_again = 0
		if $pc == $wb_last_pc && $sp == $wb_last_sp && *(unsigned long *)($sp - 256) == $wb_marker
			echo wb-continue: the gdb stub reported the same stop twice; going on\n
			python wb_stop_repeated()
			set $wb_again = 1
		end
	end
	set $wb_last_pc = $pc
	set $wb_last_sp = $sp
	set $wb_marker = $wb_marker + 1
	set *(unsigned long *)($sp - 256) = $wb_marker
end
document wb-continue
Continue to the next stop, skipping a stop that repeats the previous one
(same pc and stack pointer, no instruction run in between).
end

# wb-finish: finish, as "finish" does, but when the stub reports the
# breakpoint the frame stopped at once more (the same pc and stack
# pointer: the function has not run), finish again. Lab scripts use it
# wherever they finish a function they stopped in at a breakpoint.
define wb-finish
	set $wb_fpc = $pc
	set $wb_fsp = $sp
	set $wb_again = 1
	while $wb_again
		finish
		set $wb_again = 0
		if $pc == $wb_fpc && $sp == $wb_fsp
			echo wb-finish: the gdb stub reported the same stop again; finishing\n
			python wb_stop_repeated()
			set $wb_again = 1
		end
	end
end
document wb-finish
Finish the current function, going on past a stop that repeats the one
it started from (same pc and stack pointer).
end

# wb-hits LOCATION...: print "hits: LOCATION N, ..." for the breakpoints
# set on those locations, in the order given. gdb's own hit count also
# counts a stop that the stub reported twice; the repeats wb-continue
# went past are taken off, so N is the number of times the kernel really
# reached the location.
python
wb_last_stop = []
wb_repeats = {}


def wb_on_stop(event):
    global wb_last_stop
    wb_last_stop = [b.number for b in getattr(event, "breakpoints", [])]


def wb_stop_repeated():
    for n in wb_last_stop:
        wb_repeats[n] = wb_repeats.get(n, 0) + 1


class WbHits(gdb.Command):
    """Print how many times the kernel reached each breakpoint location.
Usage: wb-hits LOCATION...  (as given to break, without the condition).
A stop that wb-continue went past as a repeat is not counted."""

    def __init__(self):
        super().__init__("wb-hits", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        counts = []
        for loc in gdb.string_to_argv(arg):
            n = sum(b.hit_count - wb_repeats.get(b.number, 0)
                    for b in gdb.breakpoints() if b.location == loc)
            counts.append("%s %d" % (loc, n))
        print("hits: " + ", ".join(counts))


# wb-symbols: lx-symbols (the tree's gdb helpers) on the folders of this
# run's modules: the lab's build folder and the tree's modules of the run
# (wb_symbol_folders, which wb_gdb_args in vm/qemu.sh sets for make gdb
# and for make check's lab.gdb), or else the folder of the vmlinux gdb
# read, the run folder.
# lx-symbols with no argument would look in gdb's current folder only.
wb_symbol_folders = None


class WbSymbols(gdb.Command):
    """Read the symbols of the modules loaded in the guest, from the run's folders.
Usage: wb-symbols"""

    def __init__(self):
        super().__init__("wb-symbols", gdb.COMMAND_FILES)

    def invoke(self, arg, from_tty):
        import os
        where = wb_symbol_folders or os.path.dirname(gdb.current_progspace().filename)
        gdb.execute("lx-symbols " + where)


gdb.events.stop.connect(wb_on_stop)
WbHits()
WbSymbols()
end
