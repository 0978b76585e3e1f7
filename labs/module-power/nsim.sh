# shellcheck shell=sh
# The lab's netdevsim device, sourced by run.sh and check.sh: one device
# with two ports, renamed swp1 and swp2, sharing one simulated module
# whose debugfs knobs are in $MOD.

NSIM_ID=${NSIM_ID:-1}
# shellcheck disable=SC2034 # used by the scripts that source this file
MOD=/sys/kernel/debug/netdevsim/netdevsim$NSIM_ID/module

nsim_up() {
	modprobe netdevsim
	echo "$NSIM_ID 2" >/sys/bus/netdevsim/new_device
	n=1
	for d in /sys/bus/netdevsim/devices/netdevsim"$NSIM_ID"/net/*; do
		ip link set dev "${d##*/}" name swp$n
		n=$((n + 1))
	done
}

nsim_down() {
	echo "$NSIM_ID" >/sys/bus/netdevsim/del_device
}

# The lines of "ethtool -m" that show the identifier and the power mode.
module_power_lines() {
	ethtool -m "$1" | grep -E '^\s*(Identifier|Extended identifier description|Module State|LowPwr[A-Za-z]*|Power set|Power override)\s*:' |
		sed 's/^[[:space:]]*//'
}
