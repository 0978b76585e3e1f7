// SPDX-License-Identifier: GPL-2.0
/*
 * xfeatures: the XSAVE state components of this CPU, as user space sees
 * them, next to what the kernel says about them.
 *
 *   xfeatures              the table
 *   xfeatures request N    first ask for component N (ARCH_REQ_XCOMP_PERM)
 *
 * The first lines are three masks: XCR0 (read with XGETBV), and the
 * kernel's answers to ARCH_GET_XCOMP_SUPP and ARCH_GET_XCOMP_PERM. Then
 * one row per component number 0 to 18: its name, whether the CPU has it
 * as a user state (XCR0) or a supervisor state (IA32_XSS, kernel only),
 * whether it is in each mask, its offset and size in the standard
 * (non-compacted) XSAVE area from CPUID leaf 0xD, and what it holds.
 * Last, the size of the XSAVE area and AT_MINSIGSTKSZ. Exit status 0
 * when every value could be read.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include <asm/prctl.h>

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

#define NR_COMPONENTS 19

static const struct {
	const char *name;
	const char *what;
} components[NR_COMPONENTS] = {
	{ "x87", "x87 FPU: ST0-7 and its control words" },
	{ "SSE", "XMM0-15 and MXCSR" },
	{ "YMM", "AVX: upper halves of YMM0-15" },
	{ "BNDREGS", "MPX bound registers BND0-3" },
	{ "BNDCSR", "MPX configuration and status" },
	{ "OPMASK", "AVX-512 mask registers k0-7" },
	{ "ZMM_Hi256", "AVX-512: upper halves of ZMM0-15" },
	{ "Hi16_ZMM", "AVX-512: ZMM16-31" },
	{ "PT", "Processor Trace (supervisor)" },
	{ "PKRU", "protection keys rights register" },
	{ "PASID", "ENQCMD's PASID (supervisor)" },
	{ "CET_U", "user shadow stacks (supervisor)" },
	{ "CET_S", "kernel shadow stacks (supervisor)" },
	{ "HDC", "hardware duty cycling (supervisor)" },
	{ "UINTR", "user interrupts (supervisor)" },
	{ "LBR", "last branch records (supervisor)" },
	{ "HWP", "hardware P-states (supervisor)" },
	{ "XTILE_CFG", "AMX tile configuration" },
	{ "XTILE_DATA", "AMX tiles TMM0-7: ask first" },
};

static const char *err_name(int err)
{
	switch (err) {
	case EINVAL:
		return "EINVAL";
	case EFAULT:
		return "EFAULT";
	case ENOSPC:
		return "ENOSPC";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "?";
	}
}

/* XCR0: the state components that the kernel enabled for user space. */
static unsigned long long read_xcr0(void)
{
	unsigned int lo = 0, hi = 0;

	/* TODO 1: XGETBV with ECX = 0 puts XCR0 in EDX:EAX */
	asm volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));

	return (unsigned long long)hi << 32 | lo;
}

/*
 * CPUID leaf 0xD, sub-leaf i: r[0..3] get EAX, EBX, ECX and EDX. For a
 * component (i >= 2), EAX is its size, EBX its offset in the standard
 * format and ECX bit 0 says whether it is a supervisor component.
 */
static unsigned int cpuid_xstate(unsigned int i, unsigned int r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	/* TODO 2: CPUID with EAX = 0xd and ECX = i (<cpuid.h> has __cpuid_count) */
	__cpuid_count(0xd, i, r[0], r[1], r[2], r[3]);

	return r[0];
}

/* arch_prctl(option, arg): 0 or the errno. */
static int xcomp(int option, unsigned long arg)
{
	long ret = -1;

	errno = ENOSYS;
	/* TODO 3: glibc has no arch_prctl(): call it with syscall(SYS_arch_prctl, ...) */
	ret = syscall(SYS_arch_prctl, option, arg);

	return ret ? errno : 0;
}

static int get_mask(int option, const char *name, unsigned long long *mask,
		    const char *what)
{
	int err = xcomp(option, (unsigned long)mask);

	if (err)
		printf("%-20s failed: %s (%s)\n", name, strerror(err), err_name(err));
	else
		printf("%-20s %#8llx  %s\n", name, *mask, what);
	return err;
}

static const char *yes(unsigned long long mask, unsigned int bit, int valid)
{
	if (!valid)
		return "?";
	return mask >> bit & 1 ? "yes" : "-";
}

int main(int argc, char **argv)
{
	unsigned long long xcr0, supp = 0, perm = 0, cpu_user, cpu_super;
	unsigned int eax, ebx, ecx, edx, r[4], bit;
	unsigned long minsig = 0;
	int bad = 0, err;

	if (argc == 3 && !strcmp(argv[1], "request")) {
		unsigned long idx = strtoul(argv[2], NULL, 0);

		err = xcomp(ARCH_REQ_XCOMP_PERM, idx);
		if (err)
			printf("ARCH_REQ_XCOMP_PERM %lu: refused, %s (%s)\n", idx,
			       strerror(err), err_name(err));
		else
			printf("ARCH_REQ_XCOMP_PERM %lu: granted\n", idx);
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [request N]\n", argv[0]);
		return 2;
	}

	/* CPUID.1:ECX bit 27, OSXSAVE: the kernel turned XSAVE on. */
	__cpuid(1, eax, ebx, ecx, edx);
	if (!(ecx & 1U << 27)) {
		fprintf(stderr, "the kernel does not use XSAVE: XGETBV would fault\n");
		return 1;
	}
	xcr0 = read_xcr0();
	printf("%-20s %#8llx  %s\n", "XCR0", xcr0,
	       "xgetbv(0): what the kernel enabled for user space");
	bad |= get_mask(ARCH_GET_XCOMP_SUPP, "ARCH_GET_XCOMP_SUPP", &supp,
			"what the kernel supports");
	bad |= get_mask(ARCH_GET_XCOMP_PERM, "ARCH_GET_XCOMP_PERM", &perm,
			"what this process may use");

	/* Sub-leaf 0: user components in EDX:EAX; sub-leaf 1: supervisor ones in EDX:ECX. */
	cpuid_xstate(0, r);
	cpu_user = (unsigned long long)r[3] << 32 | r[0];
	printf("\n%3s  %-10s %-4s %-4s %-4s %-4s %6s %5s  %s\n", "bit", "component",
	       "cpu", "xcr0", "supp", "perm", "offset", "size", "what it holds");
	for (bit = 0; bit < NR_COMPONENTS; bit++) {
		const char *cpu = "-";
		char off[16] = "-", size[16] = "-";

		if (bit < 2) {
			cpu = "user";
			/* The legacy area has a fixed layout: CPUID does not describe it. */
			snprintf(off, sizeof(off), "%u", bit ? 160 : 0);
			snprintf(size, sizeof(size), "%u", bit ? 256 : 160);
		} else {
			/* A supervisor component has no offset in the standard format. */
			if (cpuid_xstate(bit, r))
				snprintf(size, sizeof(size), "%u", r[0]);
			if (cpu_user >> bit & 1) {
				cpu = "user";
				snprintf(off, sizeof(off), "%u", r[1]);
			} else if (r[2] & 1) {
				cpu = "kern";
			}
		}
		printf("%3u  %-10s %-4s %-4s %-4s %-4s %6s %5s  %s\n", bit,
		       components[bit].name, cpu, yes(xcr0, bit, 1),
		       yes(supp, bit, !bad), yes(perm, bit, !bad), off, size,
		       components[bit].what);
	}

	cpuid_xstate(0, r);
	printf("\nXSAVE area %u bytes for XCR0 (CPUID 0xd.0 EBX), %u for all the CPU has (ECX)\n",
	       r[1], r[2]);
	cpuid_xstate(1, r);
	cpu_super = (unsigned long long)r[3] << 32 | r[2];
	printf("IA32_XSS %#llx: the CPU's supervisor components (CPUID 0xd.1 EDX:ECX)\n",
	       cpu_super);

	/* TODO 4: AT_MINSIGSTKSZ, the size of the largest signal frame, from the auxiliary vector */
	minsig = getauxval(AT_MINSIGSTKSZ);

	printf("AT_MINSIGSTKSZ %u bytes: the largest signal frame, XSAVE area included\n",
	       (unsigned int)minsig);
	return bad || !minsig;
}
