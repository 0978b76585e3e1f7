#!/bin/sh
# Netfilter on egress: the checker (KTAP). It builds its own namespaces,
# replays the guided steps and checks each one with counters, then
# checks the patch's /proc/net/netfilter/nf_netdev_hooks and the
# exercise's module.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=nf-egress" >&2; exit 1; }
. /wb/lib.sh
. /lab/topo.sh
. /lab/pktgen.sh

COUNTERS=/sys/kernel/debug/nfegress/counters

# nfe NAME: one of the module's counters (empty if there is none).
nfe() {
	sed -n "s/^$1 //p" "$COUNTERS" 2>/dev/null
}

# wait_key N: wait up to 5 s for the egress key to reach N (namespaces
# are dismantled by a worker, a moment after ip netns del returns).
wait_key() {
	n=0
	while [ "$(egress_key)" != "$1" ] && [ $n -lt 25 ]; do
		sleep 0.2
		n=$((n + 1))
	done
}

# lastlog: the module's last message in the kernel log.
lastlog() {
	dmesg | grep 'nfegress:' | tail -n 1
}

ktap_plan 26
rmmod nfegress 2>/dev/null
topo_up

# ---- nft egress chains ------------------------------------------------

A nft -f - <<'EOF'
table netdev lab {
	chain out {
		type filter hook egress device "veth0" priority 0; policy accept;
		meta mark 42 counter drop comment "marked"
		ip daddr 10.9.0.3 counter drop comment "to_b3"
		ip daddr 10.9.0.2 counter accept comment "to_b"
	}
}
EOF
ok=0
pings a -c 3 10.9.0.2 && ok=1
ktap_eq "egress chain: accepts and counts the pings to 10.9.0.2" \
	"replies 1, counted 3" "replies $ok, counted $(counter a lab out to_b)"
# at_least N VALUE: "N or more" when VALUE is a number >= N, else VALUE.
at_least() {
	if [ "${2:-x}" -ge "$1" ] 2>/dev/null; then
		echo "$1 or more"
	else
		echo "${2:-nothing}"
	fi
}

# A drop on egress reaches the sender as ENOBUFS, which ping takes for
# a full queue: it tries again at once, so a chain counts more packets
# than ping says it sent.
ok=0
pings a -c 2 10.9.0.3 || ok=1
ktap_eq "egress chain: drops by address (10.9.0.3)" \
	"no reply 1, counted 2 or more" "no reply $ok, counted $(at_least 2 "$(counter a lab out to_b3)")"
ok=0
pings a -c 2 -m 42 10.9.0.2 || ok=1
ktap_eq "egress chain: drops by mark (ping -m 42)" \
	"no reply 1, counted 2 or more" "no reply $ok, counted $(at_least 2 "$(counter a lab out marked)")"

ktap_eq "nf_netdev_hooks: one egress hook on a's veth0, none on veth1" \
	"ingress 0 egress 1
ingress 0 egress 0" "$(devhooks veth0 a)
$(devhooks veth1 a)"
ktap_eq "nf_netdev_hooks: the egress key counts the chain of namespace a" \
	"1" "$(egress_key)"
A nft delete table netdev lab
ktap_eq "nf_netdev_hooks: deleting the chain takes the hook and the key away" \
	"ingress 0 egress 0, key 0" "$(devhooks veth0 a), key $(egress_key)"

# ---- the order against tc ---------------------------------------------

A tc qdisc add dev veth0 clsact
A tc filter add dev veth0 egress pref 1 protocol ip handle 7 fw action gact ok index 1
A tc filter add dev veth0 egress pref 2 protocol ip matchall action skbedit mark 9 index 2
A nft -f - <<'EOF'
table netdev order {
	chain out {
		type filter hook egress device "veth0" priority 0;
		meta mark 9 counter comment "saw9"
		ip daddr 10.9.0.2 meta mark set 7
	}
}
EOF
pings a -c 3 10.9.0.2
pings a -c 3 10.9.0.3
ktap_eq "egress order: tc matches the mark nft set (nft runs first)" \
	"3" "$(tcpkts a gact 1)"
ktap_eq "egress order: nft never sees the mark tc sets (tc runs second)" \
	"tc marked 3, nft saw 0" "tc marked $(tcpkts a skbedit 2), nft saw $(counter a order out saw9)"

B tc qdisc add dev veth0 clsact
B tc filter add dev veth0 ingress pref 1 protocol ip handle 6 fw action gact ok index 3
B tc filter add dev veth0 ingress pref 2 protocol ip matchall action skbedit mark 5 index 4
B nft -f - <<'EOF'
table netdev order {
	chain in {
		type filter hook ingress device "veth0" priority 0;
		meta mark 5 counter comment "saw5"
		meta mark set 6
	}
}
EOF
pings a -c 3 10.9.0.2
ktap_eq "ingress order: nft sees the mark tc set (tc runs first)" \
	"3" "$(counter b order in saw5)"
ktap_eq "ingress order: tc never sees the mark nft sets (nft runs second)" \
	"0" "$(tcpkts b gact 3)"
ktap_eq "nf_netdev_hooks: b's veth0 has an ingress hook and no egress hook" \
	"ingress 1 egress 0" "$(devhooks veth0 b)"

# ---- redirection ------------------------------------------------------

A nft delete table netdev order
A tc qdisc del dev veth0 clsact
A nft -f - <<'EOF'
table netdev redir {
	chain out1 {
		type filter hook egress device "veth1" priority 0;
		ip daddr 10.9.0.1 counter comment "to_a"
	}
}
EOF
A tc qdisc add dev veth0 clsact
A tc filter add dev veth0 ingress protocol ip matchall action mirred egress redirect dev veth1 index 5
tx0=$(txpkts a veth1)
pings b -c 3 10.9.0.1
tx=$(($(txpkts a veth1) - tx0))
# veth1 may also send a packet of its own (IPv6 neighbour discovery).
ktap_eq "tc mirred redirect: the packets leave veth1 without its egress chain" \
	"redirected 3, sent by veth1 3 or more, nft egress 0" \
	"redirected $(tcpkts a mirred 5), sent by veth1 $(at_least 3 "$tx"), nft egress $(counter a redir out1 to_a)"
A tc qdisc del dev veth0 clsact
A nft add chain netdev redir in0 '{ type filter hook ingress device "veth0" priority 0; }'
A nft add rule netdev redir in0 ip daddr 10.9.0.1 fwd to veth1
pings b -c 3 10.9.0.1
ktap_eq "nft fwd: the forwarded packets pass veth1's egress chain" \
	"3" "$(counter a redir out1 to_a)"

rc=0
out=$(A nft add chain netdev redir nodev '{ type filter hook egress priority 0; }' 2>&1) || rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'Error: Missing `device'"'"' in this chain definition'; then
	ktap_ok "nft refuses an egress chain without a device"
else
	ktap_fail "nft refuses an egress chain without a device" \
		"a failure: Error: Missing \`device' in this chain definition" "status $rc: $out"
fi

topo_down
wait_key 0
ktap_eq "nf_netdev_hooks: the key is off once the namespaces are gone" \
	"0" "$(egress_key)"

# ---- the module -------------------------------------------------------

dmesg -C
rc=0
out=$(insmod /build/nfegress.ko 2>&1) || rc=$?
msg=$(lastlog)
rmmod nfegress 2>/dev/null
if [ $rc -ne 0 ] && printf '%s' "$msg" | grep -q 'no device given'; then
	ktap_ok "nfegress refuses to load without dev="
else
	ktap_fail "nfegress refuses to load without dev=" \
		"insmod fails; the log says: nfegress: no device given ..." "status $rc: $out; log: $msg"
fi
rc=0
out=$(insmod /build/nfegress.ko dev=nosuch0 2>&1) || rc=$?
msg=$(lastlog)
rmmod nfegress 2>/dev/null
if [ $rc -ne 0 ] && printf '%s' "$msg" | grep -q 'nosuch0'; then
	ktap_ok "nfegress refuses an unknown device, naming it"
else
	ktap_fail "nfegress refuses an unknown device, naming it" \
		"insmod fails; the log names nosuch0" "status $rc: $out; log: $msg"
fi

ip link set dummy0 up
insmod /build/nfegress.ko dev=dummy0
ktap_eq "nf_netdev_hooks: the module's hook is on dummy0 and the key is on" \
	"ingress 0 egress 1, key 1" "$(devhooks dummy0), key $(egress_key)"
pg_setup dummy0 1000
pg_run
ktap_eq "nfegress counts pktgen's 1000 IPv4 packets on dummy0" \
	"device dummy0, ipv4 1000, dropped 0" \
	"device $(nfe device), ipv4 $(nfe ipv4), dropped $(nfe dropped)"
rmmod nfegress
ktap_eq "nf_netdev_hooks: rmmod takes the hook and the key away" \
	"ingress 0 egress 0, key 0" "$(devhooks dummy0), key $(egress_key)"

nfe_up
insmod /build/nfegress.ko dev=nfe0 drop=0x86dd
v4=0 v6=0
ping -q -c 3 -i 0.2 -W 1 10.9.9.2 >/dev/null 2>&1 && v4=1
ping -q -c 3 -i 0.2 -W 1 fd09::2 >/dev/null 2>&1 && v6=1
ktap_eq "nfegress with drop=0x86dd: IPv4 gets replies, IPv6 does not" \
	"ipv4 1, ipv6 0" "ipv4 $v4, ipv6 $v6"
snap=$(cat "$COUNTERS" 2>&1)
get() {
	printf '%s\n' "$snap" | sed -n "s/^$1 //p"
}
six=$(get ipv6)
if [ "$(get ipv4)" -ge 3 ] 2>/dev/null && [ "$(get arp)" -ge 1 ] &&
	[ "${six:-0}" -ge 3 ] && [ "$(get dropped)" = "$six" ]; then
	ktap_ok "nfegress counts IPv4, ARP and IPv6 and drops every IPv6 packet"
else
	ktap_fail "nfegress counts IPv4, ARP and IPv6 and drops every IPv6 packet" \
		"ipv4 >= 3, arp >= 1, ipv6 >= 3, dropped = ipv6" \
		"$(printf '%s\n' "$snap" | tr '\n' ' ')"
fi

# Deleting the device must not wait for the module: without the
# notifier the device would stay referenced and ip would hang.
dmesg -C
ip link del nfe0 &
del=$!
n=0
while kill -0 $del 2>/dev/null && [ $n -lt 50 ]; do
	sleep 0.2
	n=$((n + 1))
done
if kill -0 $del 2>/dev/null; then
	gone="ip link del still waiting after 10 s"
else
	gone="deleted"
fi
ktap_eq "nfegress lets nfe0 go: the hook leaves with the device" \
	"deleted, device -, key 0" "$gone, device $(nfe device), key $(egress_key)"
ktap_match "nfegress says in the log that its device went away" \
	'nfegress: nfe0 is going away' "$(lastlog)"
ktap_true "nfegress unloads after its device is gone" "rmmod succeeds" \
	rmmod nfegress
ip netns del nfepeer 2>/dev/null

insmod /build/nfegress.ko dev=dummy0
pg_setup dummy0 0
pg_start
sleep 1
before=$(nfe ipv4)
rc=0
out=$(rmmod nfegress 2>&1) || rc=$?
sleep 1
pg_stop
sent=$(pg_result dummy0 | cut -d' ' -f2)
ktap_eq "rmmod while pktgen sends through the hook" \
	"rmmod status 0, hook counted some, pktgen went on, key 0" \
	"rmmod status $rc$out, hook counted $([ "${before:-0}" -gt 0 ] && echo some || echo none), pktgen went on$([ "${sent:-0}" -gt "${before:-0}" ] || echo ' NOT'), key $(egress_key)"
ktap_done
