# Networking: the power mode policy of a transceiver module, set through
# ethtool's netlink API. netdevsim, patched by the workbook, simulates a
# CMIS or SFF-8636 module; the exercise writes its power mode operations.
CHAPTER := 05
TITLE := Transceiver module power mode on a simulated netdevsim module
TIMEOUT := 600
FILES := drivers/net/netdevsim/module.c:tree modset.c:prog tools/testing/selftests/drivers/net/netdevsim/ethtool-module.sh:kfile tools/testing/selftests/drivers/net/netdevsim/ethtool-common.sh:kfile
LDLIBS := -lmnl
