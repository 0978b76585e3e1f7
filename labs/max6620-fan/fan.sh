# shellcheck shell=sh
# The lab's emulated fan controller, sourced by run.sh and check.sh:
# i2c-stub answers at ADDR on its own SMBus adapter (bus $BUS), a max6620
# device is instantiated there, and $HW is its hwmon directory once the
# driver has bound. The registers are reached with busybox's i2c tools;
# -f because the driver owns the address once it is bound.

ADDR=0x29
BUS=
HW=

# The driver caches every register for one second (HZ jiffies, strictly
# more before it reads the chip again): a register changed through the
# stub shows in sysfs only after the cache has expired.
CACHE_WAIT=1.5

# fan_up: the stub, the device on its bus and the driver, bound. Quiet
# unless FAN_SHOW is set, in which case each command is shown.
fan_up() {
	fan_cmd modprobe i2c-stub chip_addr=$ADDR
	for a in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$a/name" 2>/dev/null)" = "SMBus stub driver" ] && BUS=${a##*i2c-}
	done
	[ -n "$BUS" ] || { echo "no i2c-stub adapter after modprobe i2c-stub" >&2; return 1; }
	fan_echo "max6620 $ADDR" "/sys/bus/i2c/devices/i2c-$BUS/new_device"
	fan_cmd modprobe max6620
	fan_hwmon
}

# fan_hwmon: set HW to the device's hwmon directory, if the driver bound.
fan_hwmon() {
	HW=
	for h in "/sys/bus/i2c/devices/$BUS-00${ADDR#0x}"/hwmon/hwmon*; do
		[ -d "$h" ] && HW=$h
	done
	[ -n "$HW" ]
}

# fan_down: unbind and unload everything fan_up made, whatever exists.
fan_down() {
	for a in /sys/bus/i2c/devices/i2c-*; do
		[ "$(cat "$a/name" 2>/dev/null)" = "SMBus stub driver" ] || continue
		[ -e "/sys/bus/i2c/devices/${a##*i2c-}-00${ADDR#0x}" ] &&
			echo $ADDR >"$a/delete_device"
	done
	modprobe -r max6620 2>/dev/null
	modprobe -r i2c-stub 2>/dev/null
	BUS=''
	HW=''
	return 0
}

# reg_get REG: one register of the emulated chip, as 0xNN. Registers
# and values go to busybox in hex: it reads a register number as hex
# even without 0x ("32" is register 0x32).
reg_get() {
	busybox i2cget -f -y "$BUS" $ADDR "$(printf '0x%02x' "$1")" b
}

# reg_set REG VALUE...: write one register, or several in a row from REG.
reg_set() {
	r=$(($1))
	shift
	for v; do
		busybox i2cset -f -y "$BUS" $ADDR "$(printf '0x%02x' "$r")" \
			"$(printf '0x%02x' "$v")" b || return 1
		r=$((r + 1))
	done
}

# count_regs COUNT: the two register bytes of an 11-bit count, as the
# chip lays them out: bits 10-3 in the first, bits 2-0 at the top of the
# second.
count_regs() {
	printf '0x%02x 0x%02x\n' $(($1 >> 3)) $((($1 & 7) << 5))
}

# cache_expire: wait until the driver's next read goes to the chip.
cache_expire() {
	sleep $CACHE_WAIT
}

fan_cmd() {
	[ -n "${FAN_SHOW:-}" ] && echo "# $*"
	"$@"
}

# fan_echo TEXT FILE: write TEXT into a sysfs FILE, shown as typed.
fan_echo() {
	[ -n "${FAN_SHOW:-}" ] && echo "# echo $1 > $2"
	echo "$1" >"$2"
}
