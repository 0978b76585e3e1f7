#!/bin/sh
# The networking tour's checks (KTAP). Self-contained: it runs the
# selftest, makes its own memory cgroup and its own AMT namespaces.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=tour-net" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

ktap_plan 15

# ---- neighbour eviction on carrier loss ----
sysctls=$(sysctl -n net.ipv4.conf.all.arp_evict_nocarrier net.ipv4.conf.default.arp_evict_nocarrier \
	net.ipv6.conf.all.ndisc_evict_nocarrier net.ipv6.conf.default.ndisc_evict_nocarrier | tr '\n' ' ')
ktap_expect "arp_evict_nocarrier and ndisc_evict_nocarrier exist, all and default at 1 (evict, as before 5.16)" \
	"$sysctls" '^1 1 1 1 $' '^0 0 0 0 $'
# The test takes 8 s under TCG: its result from run.sh, in this boot, if
# there is one.
[ -s "$W/evict.status" ] || evict_selftest
st=$(cat "$W/evict.status")
# One word per case: "arp=1:ok arp=0:ok all.arp=0:ok nd=1:ok ...".
cases=$(awk '/^run / { c = $2; next } { printf "%s:%s ", c, $0 }' "$W/evict.out")
ktap_expect "selftests/net/arp_ndisc_evict_nocarrier.sh: its six cases pass, status 0" \
	"$cases status=$st" \
	'^arp_evict_nocarrier=1:ok arp_evict_nocarrier=0:ok all.arp_evict_nocarrier=0:ok ndisc_evict_nocarrier=1:ok ndisc_evict_nocarrier=0:ok all.ndisc_evict_nocarrier=0:ok  status=0$' \
	'failed'

# ---- SO_RESERVE_MEM ----
# resmem's "NAME: VALUE" line for NAME.
field() {
	printf '%s\n' "$1" | sed -n "s/^$2: //p"
}
out=$(/build/resmem 1048576)
ktap_expect "SO_RESERVE_MEM from the root cgroup: refused with EOPNOTSUPP (the socket has no memory cgroup)" \
	"$(field "$out" 'setsockopt(SO_RESERVE_MEM, 1048576)')" '^EOPNOTSUPP ' '^0$'
memcg_setup
out=$(in_memcg /build/resmem 1048576)
ktap_expect "SO_RESERVE_MEM inside the memory cgroup tour-net: 1 MiB accepted, getsockopt reports it" \
	"$(field "$out" cgroup) $(field "$out" 'setsockopt(SO_RESERVE_MEM, 1048576)') $(field "$out" 'getsockopt(SO_RESERVE_MEM)')" \
	'^/tour-net 0 1048576$' 'EOPNOTSUPP'
ktap_expect "the reserved bytes are the socket's forward allocation (SO_MEMINFO)" \
	"$(field "$out" 'SO_MEMINFO forward_alloc')" '^1048576$' '^0$'
before=$(field "$out" 'memory.stat sock before')
ktap_expect "memory.stat of tour-net: \"sock\" grows by the 1048576 reserved bytes while the socket is open" \
	"$(($(field "$out" 'memory.stat sock while open') - before))" '^1048576$' '^0$'
ktap_expect "memory.stat of tour-net: \"sock\" is back where it was once the socket is closed" \
	"$(($(field "$out" 'memory.stat sock after close') - before))" '^0$' '^1048576$'
out=$(in_memcg /build/resmem 5000)
ktap_expect "5000 bytes are reserved as two whole pages" \
	"$(field "$out" 'getsockopt(SO_RESERVE_MEM)')" '^8192$' '^5000$'
big=$(($(tcp_pressure_bytes) + 4096))
out=$(in_memcg /build/resmem "$big")
ktap_expect "a reservation past TCP's pressure threshold (tcp_mem[1]) is refused with ENOMEM" \
	"$(field "$out" "setsockopt(SO_RESERVE_MEM, $big)") $(field "$out" 'getsockopt(SO_RESERVE_MEM)')" \
	'^ENOMEM .* 0$' '^0 '
echo 4M >"$CGT/memory.max"
m0=$(sed -n 's/^max //p' "$CGT/memory.events")
out=$(in_memcg /build/resmem 8388608)
m1=$(sed -n 's/^max //p' "$CGT/memory.events")
echo max >"$CGT/memory.max"
ktap_expect "8 MiB in a cgroup with memory.max 4M: refused with ENOMEM, memory.events counts the hit" \
	"$(field "$out" 'setsockopt(SO_RESERVE_MEM, 8388608)') max+$((m1 - m0))" \
	'^ENOMEM .* max\+[1-9][0-9]*$' '^0 |max\+0$'

# ---- AMT ----
amt_setup >/dev/null 2>&1
ktap_expect "ip link add type amt: a relay, amtr, on relay_gw (10.0.0.2)" \
	"$(amt_info amt-relay amtr)" '^amt relay .*local 10\.0\.0\.2 .*dev relay_gw max_tunnels 4' 'unknown|^$'
ktap_expect "ip link add type amt: a gateway, amtg, that will look for a relay at 10.0.0.2" \
	"$(amt_info amt-gw amtg)" '^amt gateway .*local 10\.0\.0\.1 discovery 10\.0\.0\.2 dev gw_relay' 'remote|^$'
amt_capture
ip -n amt-gw link set amtg up
wait_for 50 amt_has_query
ktap_expect "once amtg is up, the gateway has learnt its relay from the advertisement" \
	"$(amt_info amt-gw amtg)" 'local 10\.0\.0\.1 remote 10\.0\.0\.2 discovery' 'local 10\.0\.0\.1 discovery'
updates=$(amt_count 'update \[IPv4\]')
$GW /build/mcast recv 239.1.2.3 5000 amtg 5000 >"$W/check-recv.out" 2>&1 &
recv=$!
wait_for 50 grep -q joined "$W/check-recv.out"
wait_for 50 amt_more 'update \[IPv4\]' "$updates"
ip netns exec amt-relay /build/mcast send 239.1.2.3 5000 amtr "checked through AMT" >/dev/null
wait "$recv"
amt_capture_stop
ktap_expect "a datagram sent to 239.1.2.3 on the relay's side reaches the receiver on the gateway's amtg" \
	"$(tail -n 1 "$W/check-recv.out")" '^from 172\.17\.0\.1 on amtg: checked through AMT$' '^timeout'
ktap_expect "the messages of RFC 7450, each first seen in protocol order, the data last" \
	"$(amt_first_seen)" \
	'^gateway>relay:discovery relay>gateway:advertisement gateway>relay:request relay>gateway:query gateway>relay:update relay>gateway:data$' \
	'^gateway>relay:discovery$'
amt_cleanup
ktap_done
