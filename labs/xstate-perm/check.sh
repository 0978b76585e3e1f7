#!/bin/sh
# xstate permissions: the checker (KTAP). First xfeatures, the student's
# view of the XSAVE layout, against the kernel's boot log; then the
# workbook's selftest tools/testing/selftests/x86/xstate_perm.c, run as
# the tree has it: each of its results is one result of this report, so
# that its expected and seen lines reach the student as they are.
#
# Under TCG every program the checker starts costs a tenth of a second
# or more, so each output is read by one awk, and the rest is the
# shell's own.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make check LAB=xstate-perm" >&2; exit 1; }
. /wb/lib.sh

# The selftest's plan; the checker's own is four more.
NSELF=12
# XFEATURE_MASK_USER_SUPPORTED in 6.1: x87, SSE, YMM, the two MPX
# components, the three AVX-512 ones, PKRU, XTILE_CFG and XTILE_DATA.
USER_MASK=0x602ff
D=/tmp/xstate-check
mkdir -p $D

ktap_plan $((4 + NSELF))

# From the boot log: the kernel's feature mask, the buffer's format and
# size, the largest signal frame, and "bit offset size" of each extended
# component. From xfeatures: XCR0, the XSAVE area, AT_MINSIGSTKSZ, and
# "bit offset size" of each component in XCR0, bits 2 and up.
dmesg >$D/boot
/build/xfeatures >$D/xf 2>&1
bootmask='' context='' format='' sigframe='' xcr0='' xsave='' minsig='' want='' seen=''
eval "$(awk -v q="'" '
	FNR == 1 { file++ }
	file == 1 && /Enabled xstate features/ {
		m = $0; sub(/.*features /, "", m); sub(/,.*/, "", m); bootmask = m
		c = $0; sub(/.*context size is /, "", c); sub(/ .*/, "", c); context = c
		format = /compacted/ ? "compacted" : /standard/ ? "standard" : "unknown"
	}
	file == 1 && /max sigframe size:/ { sigframe = $NF }
	file == 1 && /x86\/fpu: xstate_offset\[/ {
		s = $0; sub(/.*xstate_offset\[/, "", s); gsub(/[],:[]|xstate_sizes/, " ", s)
		split(s, v, " "); want = want v[1] " " v[2] " " v[4] "\n"
	}
	file == 2 && $1 == "XCR0" { xcr0 = $2 }
	file == 2 && $1 == "XSAVE" && $2 == "area" { xsave = $3 }
	file == 2 && $1 == "AT_MINSIGSTKSZ" { minsig = $2 }
	file == 2 && $1 ~ /^[0-9]+$/ && $1 >= 2 && $4 == "yes" { seen = seen $1 " " $7 " " $8 "\n" }
	END {
		sub(/\n$/, "", want); sub(/\n$/, "", seen)
		printf "bootmask=%s%s%s context=%s%s%s format=%s%s%s sigframe=%s%s%s\n", q, bootmask, q, q, context, q, q, format, q, q, sigframe, q
		printf "xcr0=%s%s%s xsave=%s%s%s minsig=%s%s%s\n", q, xcr0, q, q, xsave, q, q, minsig, q
		printf "want=%s%s%s\nseen=%s%s%s\n", q, want, q, q, seen, q
	}' $D/boot $D/xf)"

# XCR0 is what the kernel wrote with XSETBV at boot: its user components.
ktap_eq "xfeatures: XCR0 holds the user components of the boot log's feature mask" \
	"$(printf '%#x' $((${bootmask:-0} & USER_MASK)))" "$xcr0"

if [ "$format" = standard ]; then
	ktap_eq "xfeatures: each component's offset and size are the boot log's" "$want" "$seen"
	ktap_eq "xfeatures: the XSAVE area for XCR0 has the boot log's context size" \
		"$context" "$xsave"
else
	# A compacted buffer (XSAVES) packs the kernel's components, the
	# supervisor ones too, while user space sees the standard format:
	# only the sizes of the user components can agree.
	sizes() {
		while read -r bit _off size; do
			[ $((${bootmask:-0} >> bit & USER_MASK >> bit & 1)) = 0 ] || echo "$bit $size"
		done
	}
	ktap_eq "xfeatures: each user component's size is the boot log's (its offsets are compacted)" \
		"$(printf '%s\n' "$want" | sizes)" "$(printf '%s\n' "$seen" | sizes)"
	ktap_skip "xfeatures: the XSAVE area for XCR0 has the boot log's context size" \
		"the kernel's buffer is compacted and holds supervisor state too"
fi
ktap_eq "xfeatures: AT_MINSIGSTKSZ is the boot log's max sigframe size" "$sigframe" "$minsig"

# ---- the tree's selftest ------------------------------------------------

out=/build/out/xstate_perm.out
touch $out 2>/dev/null || out=$D/xstate_perm.out
/build/xstate_perm >$out 2>&1
rc=$?
# One line per result, in order, "R<TAB>N<TAB>ok|not ok|skip|missing<TAB>
# description", each followed by its diagnostics, "D<TAB>line": those
# the selftest printed since its previous result.
awk -v n=$NSELF '
	/^(not )?ok [0-9]+( |$)/ {
		k = ($1 == "not") ? $3 : $2
		st = ($1 == "not") ? "not ok" : "ok"
		d = $0; sub(/^(not )?ok [0-9]+ ?/, "", d)
		if (d ~ /^# SKIP /) { st = "skip"; sub(/^# SKIP /, "", d) }
		res[k] = st; desc[k] = d; diag[k] = buf; buf = ""
		next
	}
	/^# / { buf = buf "D\t" substr($0, 3) "\n" }
	END {
		for (i = 1; i <= n; i++) {
			if (!(i in res)) { res[i] = "missing"; desc[i] = "result " i }
			printf "R\t%d\t%s\t%s\n%s", i, res[i], desc[i], diag[i]
		}
	}' $out >$D/results
# Points of the selftest's results, by its own number: two for each
# that grades the exercise's interface (the options and their argument
# checks, the request from a second thread and what it leaves), one for
# the rest.
points() {
	case $1 in
	1 | 3 | 4 | 5 | 6 | 9 | 10) ktap_points 2 ;;
	esac
}
show=
while IFS='	' read -r kind a b c; do
	[ "$kind" != R ] || points "$a"
	case $kind$b in
	Rok) ktap_ok "xstate_perm: $c"; show= ;;
	Rskip) ktap_skip "xstate_perm: $c" ""; show= ;;
	"Rnot ok") ktap_not_ok "xstate_perm: $c"; show=1 ;;
	Rmissing)
		ktap_fail "xstate_perm: $c" "the selftest reports result $a" \
			"none; exit status $rc, its last line: $(tail -n 1 $out)"
		show=
		;;
	D*) [ -z "$show" ] || printf '# %s\n' "$a" ;;
	esac
done <$D/results
echo "# xstate_perm exit status $rc"
ktap_done
