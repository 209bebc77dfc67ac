/* ring0.h — the `ring0` group: the runner's side of isobench's ring-0 probe driver
 * (/dev/isobench-probe, kernel-config/driver/; its interface, limits and probe list are
 * kernel-config/driver/isobench_probe.h, the one header both sides include).
 *
 * One test per probe of the driver's list, named RING0_PREFIX + the probe's name (the
 * registry's name table builds it, keeping the driver's underscores: payload/registry.c)
 * (x86-64: ring0-cpuid, ring0-vmcall, ...; arm64: ring0-hvc, ring0-ipi, ...). The list is the
 * architecture's (kernel-config/driver/arch/<arch>/isobench_probe_arch.h, on the include path
 * by payload/arch/arch.mk's RING0_DIR; empty for an architecture without the driver) and
 * ring0.c defines one descriptor per entry with RING0_BENCH. One loop = one probe iteration
 * in the kernel.
 * The value is the driver's own measurement, ns per iteration inside the kernel (extra
 * op_ns_x100 = ns x 100, through value_extra), not the harness's wall time, which also holds
 * the ioctl and the hand-over to the probe CPU's worker. The driver times each batch of
 * iterations beside a null batch (the same loop, no operation) and returns per call the
 * medians over its batches of (batch - null) and of null, per iteration
 * (kernel-config/driver/isobench_probe.h); a sample's figure is its calls' medians averaged,
 * each weighted by its iterations. So op_ns_x100 is the operation's cost above the empty
 * loop and its timing (at least 1: an operation no dearer than the empty loop shows as
 * 0.01 ns, the resolution); null_ns_x100 = the null batch's ns per iteration x 100 (the
 * RESULT carries its median over the samples too: result_extra); cycles_x100 = the
 * operation's cycle-counter ticks (x86-64: TSC, arm64: CNTVCT_EL0) above the null batch's,
 * per iteration x 100 (at least 1); extra cpu = the CPU the probe ran on, target_cpu = the
 * IPI probes' target.
 * Natively (no driver) every test of this architecture's list SKIPs with "needs the image's
 * kernel"; a probe the machine lacks SKIPs with the driver's reason (e.g. the IPI probes on
 * one CPU).
 * Every architecture's probes are listed on every build (docs/architecture.md, "One rule for
 * per-architecture tests"): after this architecture's own, in its list's order, come the
 * other architectures' that it lacks, RING0_OTHERS(X) with X(ID, name, title, owners)
 * (ring0_others.h, generated from their lists at build time: payload/arch/ring0-others.sh;
 * folders in name order, aarch64 before x86_64, each in its list's order). Each of those is a
 * test RING0_ELSEWHERE defines, which SKIPs with "<name> is an <owners> ring-0 probe"
 * ("hvc is an arm64 ring-0 probe") wherever it runs, the image's kernel or not. A name on two
 * lists (self_ipi, ipi, ipi_halt) is one test, this architecture's probe. */
#ifndef ISOBENCH_RING0_H
#define ISOBENCH_RING0_H

#include "../benchapi.h"
#include "../../kernel-config/driver/isobench_probe.h"
#include "ring0_others.h"

#define RING0_PREFIX "ring0-"

/* setup for the probe numbered `probe` (enum isobench_probe): opens the device, checks with
 * one iteration that the probe runs here; BENCH_SKIP with the reason, or -errno. */
int ring0_setup(struct bench_ctx *ctx, unsigned int probe);
/* Exactly iters iterations (as many ioctl calls as the driver's time cap needs). */
int ring0_run(struct bench_ctx *ctx, uint64_t iters);
void ring0_teardown(struct bench_ctx *ctx);

/* const struct bench bench_ring0_<name> for one X(ID, name, title) of ISOBENCH_PROBES (its
 * name is the registry's, BENCH_NAME(ring0_<name>)). */
#define RING0_BENCH(id, nm, ttl) \
	static int ring0_##nm##_setup(struct bench_ctx *ctx) \
	{ \
		return ring0_setup(ctx, ISOBENCH_PROBE_##id); \
	} \
	BENCH(ring0_##nm, .title = ttl, \
		.group = REC_GROUP_RING0, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, \
		.max_copies = 1, .value_extra = REC_EXTRA_OP_NS_X100, .value_scale = 0.01, \
		.result_extra = REC_EXTRA_NULL_NS_X100, \
		.setup = ring0_##nm##_setup, .run = ring0_run, .teardown = ring0_teardown);

/* const struct bench bench_ring0_<name> for one X(ID, name, title, owners) of RING0_OTHERS:
 * listed like RING0_BENCH's, and SKIPs naming the architectures whose driver has the probe. */
int ring0_elsewhere(struct bench_ctx *ctx, const char *name, const char *owners);
int ring0_elsewhere_run(struct bench_ctx *ctx, uint64_t iters);
#define RING0_ELSEWHERE(id, nm, ttl, owners) \
	static int ring0_##nm##_elsewhere(struct bench_ctx *ctx) \
	{ \
		return ring0_elsewhere(ctx, #nm, owners); \
	} \
	BENCH(ring0_##nm, .title = ttl, \
		.group = REC_GROUP_RING0, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, \
		.max_copies = 1, .value_extra = REC_EXTRA_OP_NS_X100, .value_scale = 0.01, \
		.result_extra = REC_EXTRA_NULL_NS_X100, \
		.setup = ring0_##nm##_elsewhere, .run = ring0_elsewhere_run);

#endif
