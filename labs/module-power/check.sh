#!/bin/sh
# Transceiver module power mode: the checker (KTAP). It makes its own
# netdevsim device, walks the policy sequence for both memory maps, tries
# the bad inputs, then runs the tree's netdevsim selftest.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=module-power" >&2; exit 1; }
. /wb/lib.sh
# shellcheck disable=SC2034 # read by nsim.sh
NSIM_ID=7
. /lab/nsim.sh

D=/tmp/module-power-check
mkdir -p $D

# params DEV: what --show-module reports, on one line.
params() {
	ethtool --show-module "$1" 2>&1 | tail -n +2 | paste -sd, - | sed 's/,/, /g'
}

# decoded DEV: the power fields of "ethtool -m", on one line.
decoded() {
	module_power_lines "$1" 2>&1 | grep -v -e Identifier -e 'Extended identifier' |
		sed 's/  *: */: /' | paste -sd, - | sed 's/,/, /g'
}

# The memory map fields for each power mode, as ethtool decodes them.
cmis_low="Module State: 0x01 (ModuleLowPwr), LowPwrAllowRequestHW: Off, LowPwrRequestSW: On"
cmis_high="Module State: 0x03 (ModuleReady), LowPwrAllowRequestHW: Off, LowPwrRequestSW: Off"
sff_low="Power set: On, Power override: On"
sff_high="Power set: Off, Power override: On"

# sequence TYPE ID LOW HIGH: the seed's sequence on one module type.
sequence() {
	t=$1 id=$2 low=$3 high=$4
	echo "$t" >"$MOD/type"
	ethtool --set-module swp1 power-mode-policy high >/dev/null 2>&1
	ktap_match "$t: ethtool -m reads the module's identifier ($id)" \
		"^Identifier +: $id " "$(module_power_lines swp1 2>&1 | head -n 1)"
	ktap_eq "$t: policy high, power mode high" \
		"power-mode-policy: high, power-mode: high" "$(params swp1)"
	ktap_eq "$t: the memory map shows high power" "$high" "$(decoded swp1)"
	ethtool --set-module swp1 power-mode-policy auto >/dev/null 2>&1
	ktap_eq "$t: policy auto with both ports down: low power" \
		"power-mode-policy: auto, power-mode: low" "$(params swp1)"
	ktap_eq "$t: the memory map shows low power" "$low" "$(decoded swp1)"
	ip link set dev swp1 up
	ktap_eq "$t: the first port up moves the module to high power" \
		"power-mode-policy: auto, power-mode: high" "$(params swp1)"
	ktap_eq "$t: the memory map follows to high power" "$high" "$(decoded swp1)"
	ip link set dev swp2 up
	ip link set dev swp1 down
	ktap_eq "$t: one port still up: high power, on both ports" \
		"power-mode-policy: auto, power-mode: high" "$(params swp2)"
	ip link set dev swp2 down
	ktap_eq "$t: the last port down moves the module to low power" \
		"power-mode-policy: auto, power-mode: low" "$(params swp1)"
	ktap_eq "$t: the memory map follows to low power" "$low" "$(decoded swp1)"
	ethtool --set-module swp1 power-mode-policy high >/dev/null 2>&1
	ktap_eq "$t: policy high with the ports down: high power" \
		"power-mode-policy: high, power-mode: high" "$(params swp1)"
}

ktap_plan 39
nsim_up

sequence cmis "0x18" "$cmis_low" "$cmis_high"
sequence sff8636 "0x11" "$sff_low" "$sff_high"

# ---- notifications ------------------------------------------------------

stdbuf -oL ethtool --monitor --show-module >$D/monitor 2>&1 &
mon=$!
sleep 1
ethtool --set-module swp1 power-mode-policy auto >/dev/null 2>&1
sleep 1
n1=$(grep -c 'Module parameters for swp1' $D/monitor)
ethtool --set-module swp1 power-mode-policy auto >/dev/null 2>&1
sleep 1
n2=$(grep -c 'Module parameters for swp1' $D/monitor)
kill $mon 2>/dev/null
wait $mon 2>/dev/null
ktap_eq "a policy change sends one module notification (ethtool --monitor)" 1 "$n1"
ktap_eq "the same policy again sends no notification" 1 "$n2"
ktap_match "the notification carries the new policy" '^power-mode-policy: auto' \
	"$(cat $D/monitor)"

# ---- plugging -----------------------------------------------------------

echo N >"$MOD/plugged"
ktap_eq "an unplugged module reports its policy and no power mode" \
	"power-mode-policy: auto" "$(params swp1)"
out=$(ethtool -m swp1 2>&1)
rc=$?
ktap_match "ethtool -m on an empty cage fails with the driver's message" \
	'No module is plugged in' "status $rc: $out"
ethtool --set-module swp1 power-mode-policy high >/dev/null 2>&1
ktap_eq "the policy can be set with no module plugged in" \
	"power-mode-policy: high" "$(params swp1)"
ethtool --set-module swp1 power-mode-policy auto >/dev/null 2>&1
echo cmis >"$MOD/type"
ktap_eq "a module plugged in under auto with the ports down starts in low power" \
	"power-mode-policy: auto, power-mode: low" "$(params swp1)"

# ---- bad input ----------------------------------------------------------

before=$(params swp1)
ktap_match "policy 3 (above auto) is refused by the attribute policy" \
	'^kernel: Numerical result out of range' "$(/build/modset swp1 3 2>&1)"
ktap_match "policy 0 (below high) is refused by the attribute policy" \
	'^kernel: Numerical result out of range' "$(/build/modset swp1 0 2>&1)"
ktap_eq "the refused requests left the policy as it was" "$before" "$(params swp1)"
ktap_match "a device without the operations (lo): not supported" \
	'^kernel: Operation not supported: Setting power mode policy is not supported by this device' \
	"$(/build/modset lo auto 2>&1)"
echo 5 >"$MOD/get_err"
out=$(ethtool --show-module swp1 2>&1)
rc=$?
echo 0 >"$MOD/get_err"
ktap_match "an injected get error reaches ethtool with the driver's message" \
	'Injected error: cannot read' "status $rc: $out"
echo 22 >"$MOD/set_err"
out=$(ethtool --set-module swp1 power-mode-policy high 2>&1)
rc=$?
echo 0 >"$MOD/set_err"
ktap_match "an injected set error reaches ethtool with the driver's message" \
	'Injected error: cannot set' "status $rc: $out"
ktap_eq "the failed set left the policy and the mode as they were" "$before" "$(params swp1)"

# ---- the extension: modset ----------------------------------------------

out=$(/build/modset swp1 high 2>&1)
ktap_eq "modset sets policy high with its own request" \
	"power-mode-policy: high, power-mode: high" "$out$(params swp1)"
ktap_eq "modset reads the policy (1, high) and the mode (2, high) as numbers" \
	"power-mode-policy 1
power-mode 2" "$(/build/modset swp1 2>&1)"
nsim_down

# ---- the tree's selftest ------------------------------------------------

# ethtool-module.sh sources ./ethtool-common.sh: it runs from /build.
out=/build/out/ethtool-module.out
touch $out 2>/dev/null || out=$D/ethtool-module.out
(cd /build && timeout 300 bash ./ethtool-module.sh) >$out 2>&1
rc=$?
ktap_match "ethtool-module.sh (the tree's netdevsim selftest) passes" \
	'^PASSED all [0-9]+ checks' "$(tail -n 3 $out)"
echo "# ethtool-module.sh exit status $rc: $(tail -n 1 $out)"
ktap_done
