/* ring0.c — the `ring0` tests' calls into the probe driver (what they measure: ring0.h and
 * kernel-config/driver/isobench_probe.c). No instruction here: the driver executes the
 * probes; this file only opens the device and issues ISOBENCH_PROBE_IOC_RUN. */
#include "ring0.h"
#include "../core/probe_util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct ring0_state {
	int fd;
	struct isobench_probe_req req;	/* probe, cpu, target as set up */
	uint64_t cyc, ns, loops;	/* this sample's sums (the driver's `cycles`, `ns`, `done`) */
	/* this sample's calls' medians (x 1000), each weighted by the call's `done` */
	double net_ns, net_cyc, null_ns;
};

/* One call: req's probe for n iterations; 0 or -errno (req.reason says why EOPNOTSUPP). */
/* A refusal (EOPNOTSUPP) is asked again, RING0_TRIES times in all: the driver's check that the
 * kernel's clock can time a batch reads it for up to 20 ms, and a vCPU the host preempts
 * through all of them (a loaded host, an overcommitted cloud) looks like a clock that does not
 * move; a refusal that is a fact of the machine (a missing feature) comes back at once. */
#define RING0_TRIES 3
static int ring0_call(struct ring0_state *s, uint64_t n)
{
	int r = 0;

	for (int t = 0; t < RING0_TRIES; t++) {
		s->req.version = ISOBENCH_PROBE_VERSION;
		s->req.iters = n;
		memset(s->req.reason, 0, sizeof s->req.reason);
		r = ioctl(s->fd, ISOBENCH_PROBE_IOC_RUN, &s->req) < 0 ? -errno : 0;
		if (r != -EOPNOTSUPP)
			break;
	}
	if (r)
		return r;
	return s->req.done ? 0 : -EIO;	/* a successful call always does at least one */
}

static int ring0_open(struct bench_ctx *ctx, struct ring0_state *s)
{
	s->fd = open(ISOBENCH_PROBE_DEVICE, O_RDWR | O_CLOEXEC);
	if (s->fd >= 0)
		return 0;
	if (errno == ENOENT || errno == ENODEV || errno == ENXIO) {
		bench_note(ctx, "needs the image's kernel (no %s: isobench's probe driver)",
			   ISOBENCH_PROBE_DEVICE);
		return BENCH_SKIP;
	}
	if (errno == EACCES || errno == EPERM) {
		bench_note(ctx, "%s needs root", ISOBENCH_PROBE_DEVICE);
		return BENCH_SKIP;
	}
	return -errno;
}

int ring0_setup(struct bench_ctx *ctx, unsigned int probe)
{
	struct ring0_state *s = calloc(1, sizeof *s);
	int cpu[2], r;

	if (!s)
		return -ENOMEM;
	s->fd = -1;
	ctx->state = s;
	if ((r = ring0_open(ctx, s)))
		return r;
	if (probe_two_cpus(cpu) < 1)
		return -EINVAL;
	s->req.probe = probe;
	s->req.cpu = cpu[0];
	s->req.target = ISOBENCH_PROBE_ANY_CPU;
	r = ring0_call(s, 1);
	if (r == -EOPNOTSUPP) {
		bench_note(ctx, "%.140s", s->req.reason);
		return BENCH_SKIP;
	}
	/* The driver runs probes only for CAP_SYS_RAWIO (kernel-config/driver/isobench_probe.c):
	 * a caller without it could open the device but not use it, which is no failure of the
	 * machine's. */
	if (r == -EPERM) {
		bench_note(ctx, "%s needs CAP_SYS_RAWIO (run as root)", ISOBENCH_PROBE_DEVICE);
		return BENCH_SKIP;
	}
	/* A request of another size is another ioctl number (ENOTTY); one of another version
	 * EPROTO: a kernel and a runner of different builds, said so. */
	if (r == -ENOTTY || r == -EPROTO)
		bench_note(ctx, "%s speaks another interface than this runner's (version %u): "
			   "the kernel and the runner come from different builds",
			   ISOBENCH_PROBE_DEVICE, ISOBENCH_PROBE_VERSION);
	else if (r)
		bench_note(ctx, "%s probe %u on CPU %d: %s", ISOBENCH_PROBE_DEVICE, probe, cpu[0],
			   strerror(-r));
	return r;
}

/* x 1000 per iteration, summed with weights `done`, to x 100 per iteration: at least
 * `least` (an operation no dearer than the empty loop gets the figures' resolution, 1). */
static int64_t ring0_x100(double sum, uint64_t loops, int64_t least)
{
	int64_t v = llround(sum / (double)loops / 10);
	return v < least ? least : v;
}

/* The sample's extras: the value op_ns_x100 and cycles_x100 are the operation's cost
 * above the null batch (the calls' medians of batch - null, ring0.h); null_ns_x100 the
 * null batch's own. */
static void ring0_extras(struct bench_ctx *ctx, const struct ring0_state *s)
{
	bench_extra(ctx, REC_EXTRA_OP_NS_X100, ring0_x100(s->net_ns, s->loops, 1));
	bench_extra(ctx, REC_EXTRA_CYCLES_X100, ring0_x100(s->net_cyc, s->loops, 1));
	bench_extra(ctx, REC_EXTRA_NULL_NS_X100, ring0_x100(s->null_ns, s->loops, 0));
	bench_extra(ctx, REC_EXTRA_CPU, s->req.cpu);
	if (s->req.target != ISOBENCH_PROBE_ANY_CPU)
		bench_extra(ctx, REC_EXTRA_TARGET_CPU, s->req.target);
}

int ring0_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct ring0_state *s = ctx->state;

	if (probe_new_sample(ctx)) {
		s->cyc = s->ns = s->loops = 0;
		s->net_ns = s->net_cyc = s->null_ns = 0;
	}
	while (iters) {
		uint64_t n = iters < ISOBENCH_PROBE_MAX_ITERS ? iters : ISOBENCH_PROBE_MAX_ITERS;
		int r = ring0_call(s, n);
		if (r) {
			bench_note(ctx, "probe %u on CPU %d: %s%s%.100s", s->req.probe, s->req.cpu,
				   strerror(-r), s->req.reason[0] ? ": " : "", s->req.reason);
			return r;
		}
		s->cyc += s->req.cycles;
		s->ns += s->req.ns;
		s->loops += s->req.done;
		s->net_ns += (double)s->req.net_ns_x1000 * (double)s->req.done;
		s->net_cyc += (double)s->req.net_cycles_x1000 * (double)s->req.done;
		s->null_ns += (double)s->req.null_ns_x1000 * (double)s->req.done;
		iters -= s->req.done;
	}
	ctx->sink += s->cyc;
	if (!s->loops)
		return 0;
	ring0_extras(ctx, s);
	return 0;
}

void ring0_teardown(struct bench_ctx *ctx)
{
	struct ring0_state *s = ctx->state;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

int ring0_elsewhere(struct bench_ctx *ctx, const char *name, const char *owners)
{
	bench_note(ctx, "%s is an %s ring-0 probe", name, owners);
	return BENCH_SKIP;
}

/* Never called: setup always SKIPs. */
int ring0_elsewhere_run(struct bench_ctx *ctx, uint64_t iters)
{
	(void)ctx;
	(void)iters;
	return -ENOSYS;
}

/* The tests: one per probe of this architecture's list (ISOBENCH_PROBES, its
 * isobench_probe_arch.h on the include path: payload/arch/arch.mk's RING0_DIR; none for an
 * architecture whose kernel has no driver), then one per probe only other architectures'
 * lists have (RING0_OTHERS, each a SKIP). */
ISOBENCH_PROBES(RING0_BENCH)
RING0_OTHERS(RING0_ELSEWHERE)
