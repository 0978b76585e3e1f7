#!/bin/sh
# Netfilter on egress: the guided steps, run inside the workbook VM.
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=nf-egress" >&2; exit 1; }
. /wb/lib.sh
. /lab/topo.sh
. /lab/pktgen.sh

# show CMD...: run a command in the shown form, and carry on if it fails.
show() {
	wb_run "$@" || echo "(exit status $?)"
}

echo "== 1. Before any chain: the patch's view of the netdev hooks"
topo_up
show cat /proc/net/netfilter/nf_netdev_hooks
show A cat /proc/net/netfilter/nf_netdev_hooks

echo "== 2. An egress chain on a's veth0 that counts, accepts and drops"
show A nft add table netdev lab
show A nft add chain netdev lab out '{ type filter hook egress device "veth0" priority 0; policy accept; }'
show A nft add rule netdev lab out meta mark 42 counter drop comment '"marked"'
show A nft add rule netdev lab out ip daddr 10.9.0.3 counter drop comment '"to_b3"'
show A nft add rule netdev lab out ip daddr 10.9.0.2 counter accept comment '"to_b"'
show A cat /proc/net/netfilter/nf_netdev_hooks
show A ping -c 3 -i 0.2 10.9.0.2
show A ping -c 2 -i 0.2 -W 1 10.9.0.3
show A ping -c 2 -i 0.2 -W 1 -m 42 10.9.0.2
show A nft list chain netdev lab out

echo "== 3. Egress: nft runs first, then tc"
show A nft delete table netdev lab
show A tc qdisc add dev veth0 clsact
show A tc filter add dev veth0 egress pref 1 protocol ip handle 7 fw action gact ok index 1
show A tc filter add dev veth0 egress pref 2 protocol ip matchall action skbedit mark 9 index 2
show A nft add table netdev order
show A nft add chain netdev order out '{ type filter hook egress device "veth0" priority 0; }'
show A nft add rule netdev order out meta mark 9 counter comment '"saw9"'
show A nft add rule netdev order out ip daddr 10.9.0.2 meta mark set 7
pings a -c 3 10.9.0.2 || :
pings a -c 3 10.9.0.3 || :
echo "# tc's fw filter matched the mark nft had set (to 10.9.0.2):"
show A tc -s actions get action gact index 1
echo "# tc marked the packets to 10.9.0.3 with 9; nft had already seen them:"
show A tc -s actions get action skbedit index 2
show A nft list chain netdev order out

echo "== 4. Ingress: tc runs first, then nft"
show B tc qdisc add dev veth0 clsact
show B tc filter add dev veth0 ingress pref 1 protocol ip handle 6 fw action gact ok index 3
show B tc filter add dev veth0 ingress pref 2 protocol ip matchall action skbedit mark 5 index 4
show B nft add table netdev order
show B nft add chain netdev order in '{ type filter hook ingress device "veth0" priority 0; }'
show B nft add rule netdev order in meta mark 5 counter comment '"saw5"'
show B nft add rule netdev order in meta mark set 6
pings a -c 3 10.9.0.2 || :
echo "# nft saw the mark tc had set:"
show B nft list chain netdev order in
echo "# tc could not see the mark nft set later:"
show B tc -s actions get action gact index 3
show B cat /proc/net/netfilter/nf_netdev_hooks
# make check's drgn script (lab.drgn) reads the kernel here.
wb_drgn_point

echo "== 5. A tc redirect skips netfilter egress; nft fwd does not"
show A nft delete table netdev order
show A tc qdisc del dev veth0 clsact
show A nft add table netdev redir
show A nft add chain netdev redir out1 '{ type filter hook egress device "veth1" priority 0; }'
show A nft add rule netdev redir out1 ip daddr 10.9.0.1 counter comment '"to_a"'
show A tc qdisc add dev veth0 clsact
show A tc filter add dev veth0 ingress protocol ip matchall action mirred egress redirect dev veth1 index 5
tx0=$(txpkts a veth1)
pings b -c 3 10.9.0.1 || :
echo "# tc redirected b's three pings to veth1 (veth1 sent $(($(txpkts a veth1) - tx0)) packets),"
show A tc -s actions get action mirred index 5
echo "# and the egress chain of veth1 saw none of them:"
show A nft list chain netdev redir out1
show A tc qdisc del dev veth0 clsact
show A nft add chain netdev redir in0 '{ type filter hook ingress device "veth0" priority 0; }'
show A nft add rule netdev redir in0 ip daddr 10.9.0.1 fwd to veth1
pings b -c 3 10.9.0.1 || :
echo "# the same three pings forwarded by nft pass veth1's egress chain:"
show A nft list chain netdev redir out1

echo "== 6. Bad input: an egress chain without a device"
show A nft add chain netdev redir nodev '{ type filter hook egress priority 0; }'

echo "== 7. The static key counts hooks in every namespace"
show cat /proc/net/netfilter/nf_netdev_hooks
topo_down
show cat /proc/net/netfilter/nf_netdev_hooks

echo "== 8. Your module: refusals, then a hook on dummy0"
show insmod /build/nfegress.ko
show insmod /build/nfegress.ko dev=nosuch0
dmesg | grep 'nfegress:' | tail -n 2
ip link set dummy0 up
show insmod /build/nfegress.ko dev=dummy0
show cat /proc/net/netfilter/nf_netdev_hooks
pg_setup dummy0 1000
pg_run
echo "# pktgen sent $(pg_result dummy0 | cut -d' ' -f2) IPv4 packets on dummy0"
show cat /sys/kernel/debug/nfegress/counters
show rmmod nfegress

echo "== 9. Your module drops IPv6 on nfe0, and lets the device go"
nfe_up
show insmod /build/nfegress.ko dev=nfe0 drop=0x86dd
show ping -c 3 -i 0.2 10.9.9.2
show ping -c 3 -i 0.2 -W 1 fd09::2
show cat /sys/kernel/debug/nfegress/counters
show ip link del nfe0
dmesg | grep 'nfegress:' | tail -n 1
show cat /sys/kernel/debug/nfegress/counters
show cat /proc/net/netfilter/nf_netdev_hooks
show rmmod nfegress

echo "== 10. rmmod while pktgen sends through the hook"
show insmod /build/nfegress.ko dev=dummy0
pg_setup dummy0 0
pg_start
sleep 1
show cat /sys/kernel/debug/nfegress/counters
show rmmod nfegress
sleep 1
pg_stop
# shellcheck disable=SC2046
set -- $(pg_result dummy0)
echo "# pktgen went on: ${2:-?} packets in $((${1:-0} / 1000)) ms, ${3:-?} errors"
show cat /proc/net/netfilter/nf_netdev_hooks
topo_down
