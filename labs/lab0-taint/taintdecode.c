// SPDX-License-Identifier: GPL-2.0
/*
 * taintdecode: decode /proc/sys/kernel/tainted without the kernel's help.
 *
 * Prints one line per flag set in the mask, "<bit> <letter>", in the
 * order of the bits, so that its output can be compared with the first
 * two columns of /proc/tainted. Exit status 0 when the mask was read.
 */
#include <stdio.h>
#include <stdlib.h>

/* The letters of Documentation/admin-guide/tainted-kernels.rst, by bit. */
static const char letters[] = "PFSRMBUDAWCIOELKXTN";

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/proc/sys/kernel/tainted";
	unsigned long mask = 0;
	unsigned int bit;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	/* TODO 1: read the mask, a decimal number, and refuse anything else */

	/* TODO 2: print "<bit> <letter>" for each bit set, lowest first */

	return 0;
}
