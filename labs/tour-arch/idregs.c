// SPDX-License-Identifier: GPL-2.0
/*
 * idregs: what an arm64 program learns about FEAT_ECV (Armv8.6's
 * enhanced counter virtualization, whose self-synchronising counter
 * reads 5.16 started to use).
 *
 * An "mrs" of an ID register traps at EL0; the kernel emulates it
 * (arch/arm64/kernel/cpufeature.c, emulate_id_reg()) with the system's
 * sanitised value, in which the fields marked visible keep their value:
 * ECV, bits 63:60 of ID_AA64MMFR0_EL1, is one. The kernel also tells
 * every program through AT_HWCAP2 (HWCAP2_ECV, and "ecv" in
 * /proc/cpuinfo's Features).
 */
#include <stdio.h>
#include <sys/auxv.h>

#ifndef HWCAP2_ECV
#define HWCAP2_ECV (1UL << 19)
#endif

int main(void)
{
	unsigned long mmfr0, midr, t0, t1;

	asm volatile("mrs %0, MIDR_EL1" : "=r"(midr));
	asm volatile("mrs %0, ID_AA64MMFR0_EL1" : "=r"(mmfr0));
	printf("MIDR_EL1         0x%016lx\n", midr);
	printf("ID_AA64MMFR0_EL1 0x%016lx\n", mmfr0);
	printf("ECV (63:60)      %lu\n", mmfr0 >> 60);
	printf("HWCAP2_ECV       %s\n", getauxval(AT_HWCAP2) & HWCAP2_ECV ? "set" : "clear");
	/* The counter, read the way the kernel reads it without ECV. */
	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(t0));
	asm volatile("isb; mrs %0, cntvct_el0" : "=r"(t1));
	printf("CNTVCT_EL0       two reads, %lu ticks apart\n", t1 - t0);
	return 0;
}
