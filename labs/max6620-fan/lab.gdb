# MAX6620 under gdb: stop where the driver writes the first byte of fan
# 1's target count (register 0x20) to the chip, and look at the count in
# the caller, max6620_write(), before it is split into the two bytes.
# In the order run.sh reaches them:
#   1-4. the four stores of fan1_target in step 6: 1000 RPM at divisor
#        4 (count 983, it fits), 300 at 4 (3276, capped at 2047), 240 at
#        2 (2048, capped) and 1000 at 32 (7864, capped);
#   5.   the store of 2000 RPM at divisor 2 in step 7 (count 245);
#   6.   the read of fan1_alarm in step 7: a read that writes the chip.
#        It writes back the count the driver last read, 240: step 7 put
#        0x1f into the second target register, whose bits 7-5 (the
#        count's bits 2-0) are then 0, and the driver rewrites it as 0x00.
# For each store, one line: the speed written to the file (val, in the
# hwmon core's caller), the divisor (from the driver's copy of the
# dynamics register), the count (tach), the count as the formula gives
# it before the cap, the byte being written, and the driver's copy of the
# target count before this store. gdb stops for good at the alarm read.
#
# i2c_smbus_write_byte_data() is built in; nothing but max6620 calls it
# in this lab (i2cset goes through i2c-dev), and only a target store or
# an alarm re-arm writes register 0x20. max6620 is a module: gdb stops
# once where the kernel is about to run its init, and lx-symbols (from
# the tree's gdb scripts) loads its symbols there, from the folder of
# vmlinux, where the run keeps its modules. With -O2, val and div are
# optimized out in max6620_write(); tach lives on to make the second
# byte, so gdb can show it.
#
# The stores are reported by the breakpoint's Python stop() method, which
# lets the guest run on. QEMU's gdb stub, under TCG with two vCPUs, now
# and then reports a breakpoint a second time for the same call: a report
# identical to the one before it is that, and is left out.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line.

python
class ModuleLoad(gdb.Breakpoint):
	"""Stop when the kernel is about to run max6620's init function."""
	def stop(self):
		name = gdb.parse_and_eval("mod->name").string()
		return name == "max6620"


class TargetWrite(gdb.Breakpoint):
	"""A write of register 0x20, fan 1's target count, high byte."""
	last = None

	def stop(self):
		if int(gdb.parse_and_eval("command")) != 0x20 or \
		   int(gdb.parse_and_eval("client->addr")) != 0x29:
			return False
		value = int(gdb.parse_and_eval("value"))
		caller = gdb.newest_frame().older()
		if caller.name() != "max6620_write":
			print("fan1 target byte 0x%02x written by %s" %
			      (value, caller.name()))
			return True
		tach = int(caller.read_var("tach"))
		data = caller.read_var("data")
		chan = int(caller.read_var("channel"))
		div = 1 << (int(data["fandyn"][chan]) >> 5)
		f = caller
		while f.name() != "hwmon_attr_store":
			f = f.older()
		rpm = int(f.read_var("val"))
		report = ("store %d RPM at divisor %d: count %d (formula %d), "
			  "first byte 0x%02x, driver's copy %d" %
			  (rpm, div, tach, 60 * div * 8192 // (rpm * 2), value,
			   int(data["target"][chan])))
		if report != self.last:
			print(report)
			self.last = report
		return False


load = ModuleLoad("do_init_module")
end
wb-continue
python import os; gdb.execute("lx-symbols " + os.path.dirname(gdb.current_progspace().filename))
python load.delete(); TargetWrite("i2c_smbus_write_byte_data")
wb-continue
backtrace 3
print/x value
frame function max6620_read
print data->fault
print data->target[0]
# expect: Breakpoint 1, do_init_module
# expect: ^store 1000 RPM at divisor 4: count 983 \(formula 983\), first byte 0x7a, driver's copy 0$
# expect: ^store 300 RPM at divisor 4: count 2047 \(formula 3276\), first byte 0xff, driver's copy 983$
# expect: ^store 240 RPM at divisor 2: count 2047 \(formula 2048\), first byte 0xff, driver's copy 2047$
# expect: ^store 1000 RPM at divisor 32: count 2047 \(formula 7864\), first byte 0xff, driver's copy 2047$
# expect: ^store 2000 RPM at divisor 2: count 245 \(formula 245\), first byte 0x1e, driver's copy 2047$
# expect: ^fan1 target byte 0x1e written by max6620_read$
# expect: Breakpoint 2, i2c_smbus_write_byte_data
# expect: ^#1 .* in max6620_read \(
# expect: in hwmon_attr_show \(
# expect: ^\$1 = 0x1e$
# expect: ^\$2 = 1 '\\001'$
# expect: ^\$3 = 240$
