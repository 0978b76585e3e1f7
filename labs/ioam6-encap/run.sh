#!/bin/sh
# IOAM inline, encap and auto insertion: the guided steps, run inside the
# workbook VM.
# $TRACE is a list of words for ip, split on purpose.
# shellcheck disable=SC2086
set -eu
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=ioam6-encap" >&2; exit 1; }
. /wb/lib.sh
. /lab/topo.sh

D=/tmp/ioam6
mkdir -p $D

# show FILE: the capture as tcpdump prints it, then decoded by ioam6dump.
show() {
	tcpdump -n -r "$1" 2>/dev/null | sed 's/^[0-9:.]* //'
	/build/ioam6dump "$1" || :
}

echo "== 1. Three namespaces, one IOAM namespace (123), node ids 1, 2, 3"
topo_up
wb_run ip -n alpha -6 route show
wb_run ip -n beta ioam namespace show
wb_run ip -n alpha ioam schema show
wb_run ip netns exec beta sysctl net.ipv6.ioam6_id net.ipv6.conf.veth0.ioam6_enabled net.ipv6.conf.veth0.ioam6_id

echo "== 2. Inline mode: alpha inserts a hop-by-hop header into its own packets"
wb_run ip -n alpha -6 route replace db02::/64 encap ioam6 mode inline $TRACE via db01::1 dev veth0
wb_run ip -n alpha -6 route show db02::/64
echo "# gamma captures on veth0 while alpha pings db02::2"
probe gamma veth0 $D/inline.pcap db02::2
show $D/inline.pcap

echo "== 3. Hop limits: alpha writes on output, beta on input (ping -t 10)"
probe gamma veth0 $D/hlim.pcap -t 10 db02::2
/build/ioam6dump $D/hlim.pcap | grep -E "ipv6|node" || :

echo "== 4. Encap mode: an outer header to tundst db01::1, where beta decapsulates"
wb_run ip -n alpha -6 route replace db02::/64 encap ioam6 mode encap tundst db01::1 $TRACE via db01::1 dev veth0
wb_run ip -n alpha -6 route show db02::/64
echo "# beta captures on veth0 while alpha pings db02::2 from db03::1"
probe beta veth0 $D/encap.pcap -I db03::1 db02::2
show $D/encap.pcap
echo "# gamma, behind the tunnel's end, receives the original packet"
probe gamma veth0 $D/encap-gamma.pcap -I db03::1 db02::2
show $D/encap-gamma.pcap

echo "== 5. Auto mode on beta: inline for its own packets, encap for forwarded ones"
wb_run ip -n alpha -6 route replace db02::/64 via db01::1 dev veth0
wb_run ip -n beta -6 route add db02::2/128 encap ioam6 mode auto tundst db02::2 $TRACE dev veth1
echo "# beta pings gamma: generated locally"
PING_FROM=beta probe gamma veth0 $D/auto-local.pcap db02::2
show $D/auto-local.pcap
echo "# alpha pings gamma: forwarded by beta"
probe gamma veth0 $D/auto-fwd.pcap db02::2
show $D/auto-fwd.pcap
wb_run ip -n beta -6 route del db02::2/128

echo "== 6. Bad input"
echo "# an unknown mode: ip refuses it, and so does the kernel when a client sends it"
wb_run ip -n alpha -6 route replace db02::/64 encap ioam6 mode sideways $TRACE via db01::1 dev veth0 || :
wb_run ip netns exec alpha /build/ioam6route replace db02::/64 dev veth0 via db01::1 mode 7 trace 0xc00000 123 24 || :
echo "# encap (or auto) without a tunnel destination"
wb_run ip -n alpha -6 route replace db02::/64 encap ioam6 mode encap $TRACE via db01::1 dev veth0 || :
wb_run ip netns exec alpha /build/ioam6route replace db02::/64 dev veth0 via db01::1 mode auto trace 0xc00000 123 24 || :
echo "# a trace larger than 244 bytes"
wb_run ip -n alpha -6 route replace db02::/64 encap ioam6 trace prealloc type 0xc00000 ns 123 size 248 via db01::1 dev veth0 || :
wb_run ip netns exec alpha /build/ioam6route replace db02::/64 dev veth0 via db01::1 trace 0xc00000 123 248 || :

echo "== 7. Extension: the same encap route, sent by ioam6route"
wb_run ip netns exec alpha /build/ioam6route replace db02::/64 dev veth0 via db01::1 mode encap tundst db01::1 trace 0xc00000 123 24 || :
wb_run ip -n alpha -6 route show db02::/64
probe beta veth0 $D/route.pcap -I db03::1 db02::2
/build/ioam6dump $D/route.pcap || :

topo_down
echo "== The checker runs the tree's own selftest next: cd /build && ./ioam6.sh"
