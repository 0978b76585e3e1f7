#!/bin/sh
# Transceiver module power mode: the guided steps, run inside the
# workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=module-power" >&2; exit 1; }
. /wb/lib.sh
. /lab/nsim.sh

# Show the module as ethtool reads it: its parameters, then the fields of
# its memory map.
show() {
	wb_run ethtool --show-module "$1" || :
	echo "# ethtool -m $1 (power fields)"
	module_power_lines "$1" || :
}

echo "== 1. A netdevsim device with two ports sharing one module"
nsim_up
wb_run ip -br link show
wb_run ls "$MOD"
wb_run cat "$MOD/type" "$MOD/plugged"

echo "== 2. CMIS (QSFP-DD): policy high, then auto"
show swp1
wb_run ethtool --set-module swp1 power-mode-policy auto
show swp1
echo "# the same policy again: nothing changes"
wb_run ethtool --set-module swp1 power-mode-policy auto

echo "== 3. CMIS: the ports follow the policy"
wb_run ip link set dev swp1 up
show swp1
wb_run ip link set dev swp2 up
wb_run ip link set dev swp1 down
# make check's drgn script (lab.drgn) reads the kernel here.
wb_drgn_point
echo "# swp2 is still up: the module stays in high power"
wb_run ethtool --show-module swp2
wb_run ip link set dev swp2 down
show swp1

echo "== 4. SFF-8636 (QSFP28): the same sequence"
wb_run sh -c "echo sff8636 > $MOD/type"
wb_run ethtool --set-module swp1 power-mode-policy high
show swp1
wb_run ethtool --set-module swp1 power-mode-policy auto
show swp1
wb_run ip link set dev swp1 up
show swp1
wb_run ip link set dev swp1 down
show swp1

echo "== 5. ethtool --monitor sees the module notification"
stdbuf -oL ethtool --monitor --show-module >/tmp/monitor.out 2>&1 &
mon=$!
sleep 1
wb_run ethtool --set-module swp1 power-mode-policy high
wb_run ethtool --set-module swp1 power-mode-policy high
wb_run ethtool --set-module swp2 power-mode-policy auto
sleep 1
kill "$mon"
wait "$mon" 2>/dev/null || :
echo "# what the monitor printed"
cat /tmp/monitor.out

echo "== 6. Unplugged: the policy stays, the power mode is not reported"
wb_run sh -c "echo N > $MOD/plugged"
wb_run ethtool --show-module swp1
wb_run ethtool -m swp1 || :
wb_run sh -c "echo Y > $MOD/plugged"
show swp1

echo "== 7. Bad input"
echo "# ethtool knows only high and auto"
wb_run ethtool --set-module swp1 power-mode-policy low || :
echo "# modset sends any number: the kernel's attribute policy refuses it"
wb_run /build/modset swp1 3 || :
wb_run /build/modset swp1 0 || :
echo "# a device without the operations"
wb_run /build/modset lo auto || :
wb_run ethtool --set-module lo power-mode-policy auto || :
echo "# errors injected into the driver"
wb_run sh -c "echo 5 > $MOD/get_err"
wb_run ethtool --show-module swp1 || :
wb_run sh -c "echo 0 > $MOD/get_err; echo 22 > $MOD/set_err"
wb_run ethtool --set-module swp1 power-mode-policy high || :
wb_run sh -c "echo 0 > $MOD/set_err"
wb_run /build/modset swp1

nsim_down
echo "== The checker runs the tree's selftest next: cd /build && ./ethtool-module.sh"
