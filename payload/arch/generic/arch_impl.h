/* arch_impl.h (generic) — the bodies of payload/arch/arch.h's interface for an architecture
 * whose folder has no arch_impl.h of its own: no instruction, so no cycle counter (0) and no
 * spin-wait hint (a compiler barrier), glibc in lib64, and Linux's input_event of a 64-bit
 * architecture. Found after payload/arch/<arch>/ on the include path (payload/arch/arch.mk). */
#ifndef ISOBENCH_ARCH_IMPL_H
#define ISOBENCH_ARCH_IMPL_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/time.h>

#define ARCH_GLIBC_PATHS "/lib64/libc.so.6", "/usr/lib64/libc.so.6"

static inline uint64_t arch_cycles(void)
{
	return 0;
}

static inline void arch_cpu_relax(void)
{
	atomic_signal_fence(memory_order_seq_cst);
}

/* No instruction here: no chain of known latency (the clock estimate says "none"). */
#define ARCH_CHAIN_ADDS 0
static inline uint64_t arch_add_chain(uint64_t reps, uint64_t v, uint64_t step)
{
	(void)reps, (void)step;
	return v;
}

struct arch_input_event {
	struct timeval time;
	uint16_t type, code;
	int32_t value;
};

#endif
