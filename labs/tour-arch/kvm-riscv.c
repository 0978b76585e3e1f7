// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-riscv: a virtual machine inside the RISC-V guest, through /dev/kvm
 * (KVM for RISC-V is new in 5.16). It makes a VM with 64 KiB of memory
 * at 0x80000000 and one vCPU, puts six instructions there and runs
 * them. Each access to 0x10000000..0x1000000b, where the VM has no
 * memory, leaves KVM_RUN with KVM_EXIT_MMIO for this program to carry
 * out: the guest stores 42, loads a word (this program answers 100),
 * and stores the sum, 142.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <linux/kvm.h>

#define GUEST_BASE 0x80000000UL
#define GUEST_SIZE 0x10000UL

/* Assembled with riscv64-linux-gnu-as -march=rv64i. */
static const uint32_t code[] = {
	0x02a00513,	/* li   a0, 42 */
	0x100002b7,	/* lui  t0, 0x10000: t0 = 0x10000000 */
	0x00a2a023,	/* sw   a0, 0(t0) */
	0x0042a583,	/* lw   a1, 4(t0) */
	0x00b50633,	/* add  a2, a0, a1 */
	0x00c2a423,	/* sw   a2, 8(t0) */
	0x0000006f,	/* j    . */
};

static int fail(const char *what)
{
	printf("kvm-riscv: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(void)
{
	struct kvm_userspace_memory_region region = {
		.guest_phys_addr = GUEST_BASE, .memory_size = GUEST_SIZE,
	};
	uint64_t pc = GUEST_BASE;
	struct kvm_one_reg reg = {
		.id = KVM_REG_RISCV | KVM_REG_SIZE_U64 | KVM_REG_RISCV_CORE |
		      KVM_REG_RISCV_CORE_REG(regs.pc),
		.addr = (uintptr_t)&pc,
	};
	struct kvm_run *run;
	int kvm, vm, vcpu, size, exits;
	struct timespec t0, t1;
	uint32_t word;
	void *mem;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return fail("open /dev/kvm");
	printf("KVM_GET_API_VERSION %d\n", ioctl(kvm, KVM_GET_API_VERSION, 0));
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return fail("KVM_CREATE_VM");
	mem = mmap(NULL, GUEST_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return fail("mmap");
	memcpy(mem, code, sizeof(code));
	region.userspace_addr = (uintptr_t)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region))
		return fail("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return fail("KVM_CREATE_VCPU");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return fail("mmap of the vCPU");
	if (ioctl(vcpu, KVM_SET_ONE_REG, &reg))
		return fail("KVM_SET_ONE_REG pc");
	printf("VM: %lu KiB at 0x%lx, one vCPU, pc 0x%lx\n", GUEST_SIZE >> 10, GUEST_BASE, pc);

	for (exits = 1; exits <= 3; exits++) {
		if (ioctl(vcpu, KVM_RUN, 0))
			return fail("KVM_RUN");
		if (run->exit_reason != KVM_EXIT_MMIO) {
			printf("exit %d: reason %u, not KVM_EXIT_MMIO\n", exits, run->exit_reason);
			return 1;
		}
		if (run->mmio.is_write) {
			memcpy(&word, run->mmio.data, sizeof(word));
			printf("exit %d: KVM_EXIT_MMIO, the guest writes %u bytes at 0x%llx: %u\n",
			       exits, run->mmio.len, (unsigned long long)run->mmio.phys_addr, word);
		} else {
			word = 100;
			memcpy(run->mmio.data, &word, sizeof(word));
			printf("exit %d: KVM_EXIT_MMIO, the guest reads %u bytes at 0x%llx: given %u\n",
			       exits, run->mmio.len, (unsigned long long)run->mmio.phys_addr,
			       word);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("VM made, run and exited three times in %ld ms\n",
	       (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	return 0;
}
