#!/bin/sh
# MAX6620 fan controller checker (KTAP). It brings up its own emulated
# chip on i2c-stub, puts counts into the registers and reads the speeds
# at every divisor, stores targets at every divisor (the counts that
# overflowed the 11-bit registers among them), tries the clamps and a
# bad divisor, and raises a fan fault.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=max6620-fan" >&2; exit 1; }
. /wb/lib.sh
. /lab/fan.sh

# The rate bits the driver's probe leaves in every dynamics register
# (0x30: divisor code 1, rate of change 100).
RATE=0x10

# rpm DIV COUNT: the speed a count stands for, in the driver's integer
# arithmetic: 60 s * DIV pulses * 8192 Hz / (COUNT * 2 pulses a turn).
rpm() {
	[ "$2" -eq 0 ] && { echo 0; return; }
	echo $((60 * $1 * 8192 / ($2 * 2)))
}

# count DIV RPM: the target count for RPM (clamped to 240..30000), at
# most 0x7ff, the largest count the two registers hold.
count() {
	r=$2
	[ "$r" -lt 240 ] && r=240
	[ "$r" -gt 30000 ] && r=30000
	c=$((60 * $1 * 8192 / (r * 2)))
	[ $c -gt 2047 ] && c=2047
	echo $c
}

# div_code DIV: the divisor's code in bits 7-5 of the dynamics register.
div_code() {
	k=0 d=1
	while [ $d -lt "$1" ]; do
		d=$((d * 2))
		k=$((k + 1))
	done
	echo $k
}

# sysfs_write VALUE FILE: write VALUE, and say "ok" or the error
# (coreutils' echo names the errno; the shell's own does not always).
sysfs_write() {
	if out=$(/bin/echo "$1" 2>&1 >"$2"); then
		echo ok
	else
		echo "${out##*: }"
	fi
}

# regs REG: the two bytes of a count register pair, on one line.
regs() {
	echo "$(reg_get "$1") $(reg_get $(($1 + 1)))"
}

# The attributes Documentation/hwmon/max6620.rst lists, with the modes
# its ro/rw column means, one "fanN_attr mode" per line.
documented() {
	sed -n 's/^fan\[1-4\]_\([a-z]*\) *\(r[ow]\) .*/\1 \2/p' /build/max6620.rst |
		while read -r a m; do
			for n in 1 2 3 4; do
				if [ "$m" = ro ]; then
					echo "fan${n}_$a 444"
				else
					echo "fan${n}_$a 644"
				fi
			done
		done | sort
}

ktap_plan 45
fan_down

# ---- the device and its driver -------------------------------------------

if fan_up >/tmp/fan-up.out 2>&1; then
	ktap_ok "max6620 binds to the chip at $ADDR on the stub's bus and registers a hwmon device"
else
	ktap_fail "max6620 binds to the chip at $ADDR on the stub's bus and registers a hwmon device" \
		"a hwmon directory under /sys/bus/i2c/devices/<bus>-0029" "$(cat /tmp/fan-up.out)"
	i=2
	while [ $i -le 45 ]; do
		ktap_skip "result $i needs the device" "max6620 did not bind"
		i=$((i + 1))
	done
	ktap_done
	exit 1
fi
ktap_eq "the hwmon device is named max6620" max6620 "$(cat "$HW/name")"
ktap_eq "the fan attributes and their modes are those of Documentation/hwmon/max6620.rst" \
	"$(documented)" "$(cd "$HW" && stat -c '%n %a' fan* | sort)"
ktap_eq "probe sets RPM mode (0xa8), divisor 2 (0x30) on every fan, and config bit 4" \
	"0xa8 0xa8 0xa8 0xa8 0x30 0x30 0x30 0x30 0x10" \
	"$(for r in 2 3 4 5 6 7 8 9 0; do reg_get $r; done | paste -sd' ' -)"

# ---- speeds from the registers -------------------------------------------

# read_round DIV:COUNT[:LOW] x4: fans 1-4 get a divisor and a count
# through the stub (LOW, if given, is the second register byte with its
# five unused bits set, which the driver must ignore). Once the cache has
# expired, each fanN_input must be the speed of its count, and fanN_div
# the divisor.
read_round() {
	n=1 divs=
	for c in "$@"; do
		d=${c%%:*} cnt=${c#*:}
		low=
		case $cnt in *:*) low=${cnt#*:} cnt=${cnt%%:*} ;; esac
		[ -n "$low" ] || low=$(((cnt & 7) << 5))
		reg_set $((5 + n)) $((($(div_code "$d") << 5) | RATE))
		reg_set $((0x0e + 2 * n)) $((cnt >> 3)) "$low"
		divs="$divs${divs:+ }$d"
		n=$((n + 1))
	done
	cache_expire
	n=1
	for c in "$@"; do
		d=${c%%:*} cnt=${c#*:}
		cnt=${cnt%%:*}
		ktap_eq "fan${n}_input: count $cnt at divisor $d is $(rpm "$d" "$cnt") RPM" \
			"$(rpm "$d" "$cnt")" "$(cat "$HW/fan${n}_input" 2>&1)"
		n=$((n + 1))
	done
	ktap_eq "fan1-4_div follow the dynamics registers ($divs)" "$divs" \
		"$(cat "$HW"/fan[1-4]_div | paste -sd' ' -)"
}

read_round 1:2047 2:164:0x9f 4:1000 8:8
read_round 16:1234 32:600 2:0 32:2047

# ---- targets into the registers ------------------------------------------

# target_round DIV:RPM x4: fan N gets the divisor through fanN_div, then
# the target through fanN_target. The registers must hold the count (at
# most 0x7ff), and the target must read back at once, from the driver's
# cache, as the speed of that count; once the cache has expired, it must
# read the same from the registers.
target_round() {
	n=1 want=
	for c in "$@"; do
		d=${c%%:*} t=${c#*:}
		echo "$d" >"$HW/fan${n}_div"
		w=$(sysfs_write "$t" "$HW/fan${n}_target")
		cnt=$(count "$d" "$t")
		r=$(rpm "$d" "$cnt")
		ktap_eq "fan${n}_target=$t at divisor $d writes count $cnt ($(count_regs "$cnt"))" \
			"ok $(count_regs "$cnt")" "$w $(regs $((0x1e + 2 * n)))"
		ktap_eq "fan${n}_target reads back $r at once (the cache follows the store)" \
			"$r" "$(cat "$HW/fan${n}_target" 2>&1)"
		want="$want${want:+ }$r"
		n=$((n + 1))
	done
	cache_expire
	ktap_eq "fan1-4_target read back from the registers after the cache expired" \
		"$want" "$(cat "$HW"/fan[1-4]_target 2>&1 | paste -sd' ' -)"
}

target_round 1:240 2:240 4:300 8:1000
target_round 16:2000 32:1000 32:3840 32:30000

# ---- what the store refuses or clamps --------------------------------------

echo 2 >"$HW/fan1_div"
for t in 10:240 -100:240 100000:30000; do
	to=${t#*:} t=${t%:*}
	cnt=$(count 2 "$t")
	w=$(sysfs_write "$t" "$HW/fan1_target")
	ktap_eq "fan1_target=$t is clamped to $to RPM: count $cnt at divisor 2" \
		"ok $(count_regs "$cnt")" "$w $(regs 0x20)"
done
for d in 3 0 64; do
	w=$(sysfs_write $d "$HW/fan1_div")
	ktap_eq "fan1_div=$d is refused with EINVAL, the divisor stays 2 (0x30)" \
		"Invalid argument 2 0x30" "$w $(cat "$HW/fan1_div") $(reg_get 0x06)"
done

# ---- a fan fault ---------------------------------------------------------

# Fan 1 faulted (bit 4 with its bit 0), and a target whose second byte
# has its five unused bits set: a re-arm rewrites the pair from the
# driver's count, which clears them.
reg_set 0x20 0x40 0x1f
reg_set 0x01 0x11
cache_expire
a=$(cat "$HW/fan1_alarm" 2>&1)
# The chip clears its fault register on read; the stub does not.
reg_set 0x01 0x00
ktap_eq "fan1_alarm reads 1 with the fault bits 4 and 0 set" 1 "$a"
ktap_eq "reading fan1_alarm re-armed fault detection: target count 512 rewritten" \
	"0x40 0x00" "$(regs 0x20)"
ktap_eq "fan2_alarm stays 0: the fault is fan 1's" 0 "$(cat "$HW/fan2_alarm" 2>&1)"
ktap_eq "fan1_alarm reads 0 next: the read cleared the latched fault" 0 "$(cat "$HW/fan1_alarm" 2>&1)"
reg_set 0x21 0x1f
cat "$HW/fan1_alarm" >/dev/null
ktap_eq "a fan1_alarm read of 0 writes nothing to the chip" "0x40 0x1f" "$(regs 0x20)"

# Fans 2 and 3 fault; the chip's register is cleared once the driver has
# read it. Fan 2's fault stays latched across the next read of the
# chip; fan 3's is cleared by a new target, which re-arms detection.
reg_set 0x01 0x66
cache_expire
cat "$HW/fan2_input" >/dev/null
reg_set 0x01 0x00
echo 1000 >"$HW/fan3_target"
cache_expire
ktap_eq "fan2_alarm stays latched after the chip's fault register went back to 0" \
	1 "$(cat "$HW/fan2_alarm" 2>&1)"
ktap_eq "storing fan3_target clears fan 3's latched fault" 0 "$(cat "$HW/fan3_alarm" 2>&1)"

fan_down
ktap_done
