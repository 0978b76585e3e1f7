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
