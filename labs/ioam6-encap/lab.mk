# Networking: IOAM pre-allocated traces inserted by a lightweight tunnel,
# inline or inside an ip6ip6 outer header; the exercise writes the
# encapsulation, the tree's own ioam6.sh grades it.
CHAPTER := 05
TITLE := IOAM inline, encap and auto insertion across three namespaces
TIMEOUT := 600
FILES := net/ipv6/ioam6_iptunnel.c:tree ioam6dump.c:prog ioam6route.c:prog tools/testing/selftests/net/ioam6_parser.c:ktool tools/testing/selftests/net/ioam6.sh:kfile
LDLIBS := -lmnl
