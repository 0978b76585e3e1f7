#!/bin/sh
# MAX6620 fan controller, the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=max6620-fan" >&2; exit 1; }
. /wb/lib.sh
. /lab/fan.sh
export FAN_SHOW=1

# show FILE...: each sysfs file of the current folder with its value.
show() {
	for f; do
		echo "$f: $(cat "$f" 2>&1)"
	done
}

# try VALUE FILE: a write that may be refused. coreutils' echo says why
# (the shell's own echo reports any refusal as an I/O error).
try() {
	echo "# /bin/echo $1 > $2"
	/bin/echo "$1" >"$2" || :
}

# regs: fan 1's target count registers.
regs() {
	echo "# registers 0x20 0x21: $(reg_get 0x20) $(reg_get 0x21)"
}

fan_down

echo "== 1. An SMBus adapter with an emulated chip at $ADDR"
fan_cmd modprobe i2c-stub chip_addr="$ADDR"
for a in /sys/bus/i2c/devices/i2c-*; do
	[ "$(cat "$a/name")" = "SMBus stub driver" ] && BUS=${a##*i2c-}
done
wb_run grep . "/sys/bus/i2c/devices/i2c-$BUS/name"
wb_run busybox i2cdetect -y -r "$BUS" 0x28 0x2f

echo "== 2. A max6620 device on that bus; its driver must be loaded by hand"
wb_run cd "/sys/bus/i2c/devices/i2c-$BUS"
fan_echo "max6620 $ADDR" new_device
try "max6620 $ADDR" new_device
D=$BUS-00${ADDR#0x}
wb_run cat "$D/name"
wb_run ls "$D/driver" 2>&1 || :
wb_run modprobe max6620
wb_run readlink "$D/driver"
fan_hwmon
wb_run cd "$HW"
wb_run ls
show name

echo "== 3. What probe wrote into the chip"
echo "# config $(reg_get 0x00), fan configuration $(reg_get 0x02) $(reg_get 0x03) $(reg_get 0x04) $(reg_get 0x05), dynamics $(reg_get 0x06) $(reg_get 0x07) $(reg_get 0x08) $(reg_get 0x09)"
show fan1_div fan1_input fan1_target

echo "== 4. A fan at 164 counts: registers 0x10 = 0x14, 0x11 = 0x80"
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x10 0x14
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x11 0x80
show fan1_input
echo "# (the driver's copy of the registers is up to a second old: wait, then read again)"
cache_expire
show fan1_input
if command -v sensors >/dev/null; then
	wb_run sensors "max6620-i2c-$BUS-${ADDR#0x}"
else
	echo "# (sensors is in Debian's lm-sensors, not installed here)"
fi

echo "== 5. Divisor 4: the same count is twice the speed"
fan_echo 4 fan1_div
echo "# dynamics register 0x06: $(reg_get 0x06)"
show fan1_div fan1_input
try 3 fan1_div
show fan1_div

echo "== 6. Targets: the driver writes a count into registers 0x20 and 0x21"
for t in 1000 300; do
	fan_echo $t fan1_target
	regs
	show fan1_target
done
cache_expire
echo "# (after the cache expired)"
show fan1_target
for s in 2:240 32:1000; do
	fan_echo "${s%:*}" fan1_div
	fan_echo "${s#*:}" fan1_target
	regs
	cache_expire
	show fan1_target
done

echo "== 7. A fan fault: bit 4 (fan 1 failed) and bit 0 in the fault register 0x01"
fan_echo 2 fan1_div
fan_echo 2000 fan1_target
regs
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x01 0x10
cache_expire
show fan1_alarm
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x01 0x11
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x21 0x1f
cache_expire
show fan1_alarm
regs
echo "# (the chip would clear its fault register on that read; the stub needs it done by hand)"
wb_run busybox i2cset -f -y "$BUS" "$ADDR" 0x01 0x00
show fan1_alarm

cd /
fan_down
