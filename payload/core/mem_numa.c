/* mem_numa.c — where the memory group's memory lives (mem_numa.h "NUMA placement"): the nodes,
 * their CPUs and distances as the kernel lists them (/sys/devices/system/node, Linux
 * Documentation/ABI/stable/sysfs-devices-node: nodeN/cpulist, nodeN/distance — the ACPI SLIT's
 * figures, 10 = local —, nodeN/meminfo), and the binding of a mapping to one node with the
 * kernel's own calls, mbind(2) and get_mempolicy(2), made through syscall(2): musl has no
 * libnuma, and the calls are what numactl --membind uses underneath. */
#define _GNU_SOURCE
#include "mem_numa.h"
#include "../sysfs.h"
#include "io.h"
#include "num.h"
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NODE_DIR "/sys/devices/system/node/"
#define MPOL_BIND_ 2		/* include/uapi/linux/mempolicy.h MPOL_BIND */
#define MPOL_F_NODE_ (1 << 0)	/* get_mempolicy: return the node ... */
#define MPOL_F_ADDR_ (1 << 1)	/* ... of the page at addr */
#define MASK_WORDS (MEM_MAX_NODES / 64)

int mem_online_cpus(void)
{
	static unsigned char set[MEM_MAX_CPUS];
	char buf[4096];
	int n = mem_list_parse(sysfs_line(SYSFS_CPU "online", NULL, buf, sizeof buf), set,
			       MEM_MAX_CPUS);
	return n > 0 ? n : 1;
}

int mem_nodes(unsigned char *set)
{
	char buf[512];
	if (!strcmp(sysfs_line(NODE_DIR "online", NULL, buf, sizeof buf), "-"))
		return 0;
	return mem_list_parse(buf, set, MEM_MAX_NODES);
}

int mem_cpu_node(int cpu)
{
	unsigned char nodes[MEM_MAX_NODES];
	static unsigned char cpus[MEM_MAX_CPUS];
	char rel[64], buf[4096];
	if (mem_nodes(nodes) <= 0)
		return -1;
	for (int n = 0; n < MEM_MAX_NODES; n++) {
		if (!nodes[n])
			continue;
		snprintf(rel, sizeof rel, "node%d/cpulist", n);
		sysfs_line(NODE_DIR, rel, buf, sizeof buf);
		if (mem_list_parse(buf, cpus, MEM_MAX_CPUS) >= 0 && cpu >= 0 && cpu < MEM_MAX_CPUS &&
		    cpus[cpu])
			return n;
	}
	return -1;
}

int mem_node_distance(int from, int to)
{
	unsigned char nodes[MEM_MAX_NODES];
	char rel[64], buf[1024];
	if (mem_nodes(nodes) <= 0 || from < 0 || to < 0 || to >= MEM_MAX_NODES || !nodes[to])
		return -1;
	snprintf(rel, sizeof rel, "node%d/distance", from);
	if (!strcmp(sysfs_line(NODE_DIR, rel, buf, sizeof buf), "-"))
		return -1;
	/* one figure per online node, in the online list's order (drivers/base/node.c) */
	int k = 0;
	for (int n = 0; n < to; n++)
		k += nodes[n];
	for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), k--) {
		long long d;
		if (!k)	/* a figure that is no distance: unknown */
			return num_ll(tok, 0, 1, 255, &d) ? -1 : (int)d;
	}
	return -1;
}

/* The "Node N FIELD:   N kB" line of nodeN/meminfo, in KiB; -1 when absent or not "N kB". */
static int64_t node_meminfo(int node, const char *field)
{
	char path[96], key[64];
	long long kib;
	snprintf(path, sizeof path, NODE_DIR "node%d/meminfo", node);
	snprintf(key, sizeof key, "Node %d %s", node, field);
	return read_kv_ll(path, key, ':', "kB", &kib) || kib < 0 ? -1 : kib;
}

int64_t mem_node_kib(int node)
{
	return node_meminfo(node, "MemTotal");
}

/* The CPUs node lists, 0 when unreadable. */
static int node_cpus(int node)
{
	static unsigned char cpus[MEM_MAX_CPUS];
	char rel[64], buf[4096];
	snprintf(rel, sizeof rel, "node%d/cpulist", node);
	int n = mem_list_parse(sysfs_line(NODE_DIR, rel, buf, sizeof buf), cpus, MEM_MAX_CPUS);
	return n > 0 ? n : 0;
}

/* The nodes that have memory (online, MemTotal above 0). */
static int nodes_with_memory(void)
{
	unsigned char nodes[MEM_MAX_NODES];
	int k = 0;
	if (mem_nodes(nodes) <= 0)
		return 0;
	for (int n = 0; n < MEM_MAX_NODES; n++)
		k += nodes[n] && mem_node_kib(n) > 0;
	return k;
}

/* mem_spare() for one node: memory bound there is not taken from another node when it runs
 * out (the kernel OOM-kills instead), so len x the copies bound there (the copies spread
 * evenly over the online CPUs, ceil(copies x CPUs of the copy's node / online CPUs)) must
 * fit in the node's room, plus what those copies already hold, with a margin of 16 MiB +
 * 1/32 of the node. The room is counted as the kernel counts MemAvailable (mm/page_alloc.c
 * si_mem_available(): MemFree, and half of the page cache and of the reclaimable slab at
 * least): MemFree alone refused sets that the kernel makes room for by dropping cache. With
 * one node that has memory, the node is the machine: mem_spare()'s check is the node's (a
 * Firecracker host here lists 10 GiB in node0/meminfo against 24 GiB in /proc/meminfo, and
 * its 5 GiB MemFree SKIPped the default 2 GiB set with 22 GiB available). 0, or BENCH_SKIP
 * with the figures. */
static int node_spare(struct bench_ctx *ctx, size_t len, const struct mem_place *pl)
{
	int64_t free_kib = node_meminfo(pl->mem_node, "MemFree"), total = mem_node_kib(pl->mem_node);
	int64_t active = node_meminfo(pl->mem_node, "Active(file)"),
		inactive = node_meminfo(pl->mem_node, "Inactive(file)"),
		slab = node_meminfo(pl->mem_node, "SReclaimable");
	long online = mem_online_cpus();
	int here = node_cpus(pl->cpu_node);
	if (free_kib < 0 || total < 0 || online <= 0 || !here || nodes_with_memory() <= 1)
		return 0;	/* the node says nothing, or is the machine: mem_spare() stands */
	uint64_t cache = (uint64_t)(active > 0 ? active : 0) + (uint64_t)(inactive > 0 ? inactive : 0);
	uint64_t avail = (uint64_t)free_kib + cache / 2 + (uint64_t)(slab > 0 ? slab : 0) / 2;
	uint64_t on = ((uint64_t)ctx->copies * (uint64_t)here + (uint64_t)online - 1) / (uint64_t)online;
	uint64_t others = ctx->copies > 1 ? mem_others_kib("/proc", getpid(), getppid()) : 0;
	uint64_t room = avail + others * on / (uint64_t)ctx->copies;
	uint64_t need = (uint64_t)len * on >> 10, margin = (16u << 10) + (uint64_t)total / 32;
	if (need + margin <= room)
		return 0;
	bench_note(ctx, "node %d has %" PRIu64 " MiB free or reclaimable, needs %" PRIu64
		   " MiB (%" PRIu64 " cop%s) + %" PRIu64 " MiB margin", pl->mem_node, avail >> 10,
		   need >> 10, on, on == 1 ? "y" : "ies", margin >> 10);
	return BENCH_SKIP;
}

/* The nearest other node with memory (lowest number on a tie), -1 when there is none. */
static int remote_node(int local)
{
	unsigned char nodes[MEM_MAX_NODES];
	int best = -1, bd = 0;
	if (mem_nodes(nodes) <= 0)
		return -1;
	for (int n = 0; n < MEM_MAX_NODES; n++) {
		int d = nodes[n] && n != local && mem_node_kib(n) > 0 ? mem_node_distance(local, n) : -1;
		if (d > 0 && (best < 0 || d < bd))
			best = n, bd = d;
	}
	return best;
}

/* Unpinned (isobench.pin=0): keep the copy on the CPUs of the node it is on now, as numactl
 * --cpunodebind does, so "local" stays local when the scheduler moves it. */
static int stay_on_node(struct bench_ctx *ctx, int node)
{
	unsigned char cpus[MEM_MAX_CPUS];
	char rel[64], buf[4096];
	cpu_set_t now, want;
	if (sched_getaffinity(0, sizeof now, &now))
		return -errno;
	if (CPU_COUNT(&now) == 1)	/* pinned by the harness already */
		return 0;
	snprintf(rel, sizeof rel, "node%d/cpulist", node);
	if (mem_list_parse(sysfs_line(NODE_DIR, rel, buf, sizeof buf), cpus, MEM_MAX_CPUS) <= 0)
		return 0;
	CPU_ZERO(&want);
	for (int c = 0; c < MEM_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (cpus[c] && CPU_ISSET(c, &now))
			CPU_SET(c, &want);
	if (CPU_COUNT(&want) && sched_setaffinity(0, sizeof want, &want)) {
		bench_note(ctx, "cannot keep copy %d on node %d's CPUs", ctx->copy, node);
		return -errno;
	}
	return 0;
}

int mem_place(struct bench_ctx *ctx, int remote, struct mem_place *pl)
{
	int cpu = sched_getcpu(), r;
	pl->cpu_node = cpu >= 0 ? mem_cpu_node(cpu) : -1;
	pl->mem_node = pl->cpu_node;
	pl->distance = -1;
	if (pl->cpu_node < 0) {	/* no NUMA in this kernel: nothing to bind, nothing remote */
		if (!remote)
			return 0;
		bench_note(ctx, "no NUMA nodes listed in " NODE_DIR "online: no remote memory");
		return BENCH_SKIP;
	}
	if ((r = stay_on_node(ctx, pl->cpu_node)))
		return r;
	if (remote && (pl->mem_node = remote_node(pl->cpu_node)) < 0) {
		bench_note(ctx, "one NUMA node with memory (CPU %d on node %d): no remote memory",
			   cpu, pl->cpu_node);
		return BENCH_SKIP;
	}
	pl->distance = mem_node_distance(pl->cpu_node, pl->mem_node);
	return 0;
}

int mem_bind(struct bench_ctx *ctx, void *p, size_t len, struct mem_place *pl)
{
	unsigned long mask[MASK_WORDS] = {0};
	int r;
	if (pl->mem_node < 0)
		return 0;
	if ((r = node_spare(ctx, len, pl)))
		return r;
	mask[pl->mem_node / 64] = 1ul << (pl->mem_node % 64);
	/* maxnode: the kernel reads maxnode - 1 bits (mm/mempolicy.c get_nodes()) */
	if (syscall(SYS_mbind, p, len, MPOL_BIND_, mask, (unsigned long)MEM_MAX_NODES + 1, 0ul)) {
		int e = errno;
		if ((e == EPERM || e == ENOSYS) && pl->mem_node == pl->cpu_node) {
			/* refused (a container's seccomp profile without CAP_SYS_NICE; qemu-user):
			 * local memory is where the kernel's default policy puts the first touch
			 * anyway; the samples then claim no node (no mem_node extra) */
			pl->mem_node = pl->distance = -1;
			return 0;
		}
		bench_note(ctx, "mbind to node %d: %s", pl->mem_node, strerror(e));
		return e == EPERM || e == ENOSYS ? BENCH_SKIP : -e;
	}
	return 0;
}

int mem_bind_verify(struct bench_ctx *ctx, const void *p, size_t len,
		    const struct mem_place *pl)
{
	if (pl->mem_node < 0 || !len)
		return 0;
	for (int k = 0; k < 3; k++) {	/* first, middle and last page */
		const char *a = (const char *)p + (k == 0 ? 0 : k == 1 ? len / 2 : len - 1);
		int node = -1;
		if (syscall(SYS_get_mempolicy, &node, NULL, 0ul, a, (unsigned long)(MPOL_F_NODE_ |
			    MPOL_F_ADDR_))) {
			bench_note(ctx, "get_mempolicy: %s", strerror(errno));
			return BENCH_SKIP;
		}
		if (node != pl->mem_node) {
			bench_note(ctx, "memory bound to node %d was placed on node %d", pl->mem_node,
				   node);
			return BENCH_SKIP;
		}
	}
	return 0;
}

void mem_place_extras(struct bench_ctx *ctx, const struct mem_place *pl)
{
	if (pl->mem_node < 0)
		return;
	bench_extra(ctx, REC_EXTRA_MEM_NODE, pl->mem_node);
	if (pl->distance > 0)
		bench_extra(ctx, REC_EXTRA_NUMA_DISTANCE, pl->distance);
}

void mem_numa_header(struct rec_body *b)
{
	unsigned char nodes[MEM_MAX_NODES];
	char key[64], rel[64], buf[4096];
	if (mem_nodes(nodes) <= 0)
		return;
	for (int n = 0; n < MEM_MAX_NODES; n++) {
		if (!nodes[n])
			continue;
		char name[16];
		snprintf(name, sizeof name, "node%d", n);
		snprintf(rel, sizeof rel, "node%d/cpulist", n);
		rec_str(b, vocab_fill(key, sizeof key, RK_NUMA_CPUS, name),
			sysfs_line(NODE_DIR, rel, buf, sizeof buf));
		snprintf(rel, sizeof rel, "node%d/distance", n);
		sysfs_line(NODE_DIR, rel, buf, sizeof buf);
		for (char *c = buf; *c; c++)	/* "10 21" -> "10,21": a list, no blank */
			if (*c == ' ')
				*c = ',';
		rec_str(b, vocab_fill(key, sizeof key, RK_NUMA_DISTANCES, name), buf);
		snprintf(buf, sizeof buf, "%" PRId64, mem_node_kib(n));
		rec_str(b, vocab_fill(key, sizeof key, RK_NUMA_MEM_KIB, name), buf);
	}
}
