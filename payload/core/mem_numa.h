/* mem_numa.h — where the memory group's memory lives (mem_numa.c); mem_util.h's sets and list
 * parser underneath. */
#ifndef ISOBENCH_MEM_NUMA_H
#define ISOBENCH_MEM_NUMA_H

#include "mem_util.h"

/* NUMA placement (mem_numa.c): the kernel's nodes (/sys/devices/system/node) and the binding
 * of a mapping to one of them with mbind(2) (MPOL_BIND) before its first touch, checked
 * after it with get_mempolicy(2) (MPOL_F_NODE | MPOL_F_ADDR), as numactl --membind does;
 * musl has no libnuma, so through syscall(2). Sets are byte maps indexed by number. */
/* The machine's online CPUs (SYSFS_CPU "online"; musl's sysconf(_SC_NPROCESSORS_ONLN)
 * counts the calling process's affinity, one CPU once pinned), at least 1. */
int mem_online_cpus(void);
/* The online nodes into set[MEM_MAX_NODES]; their count, 0 when the kernel lists none. */
int mem_nodes(unsigned char *set);
/* The node of cpu, -1 when none lists it. */
int mem_cpu_node(int cpu);
/* The SLIT distance from node from to node to (nodeN/distance; 10 is local), -1 unknown. */
int mem_node_distance(int from, int to);
/* A node's MemTotal in KiB (nodeN/meminfo), -1 when unreadable. */
int64_t mem_node_kib(int node);
/* Where one copy's memory goes: cpu_node is the node of the CPU the copy runs on (pinned by
 * the harness: its CPU; unpinned: the CPU now, and the copy is kept on that node's CPUs, as
 * numactl --cpunodebind), mem_node that node (local) or the nearest other node that has
 * memory (remote), distance the SLIT figure between them; -1 each where the kernel lists
 * no node (no NUMA: nothing is bound). */
struct mem_place {
	int cpu_node, mem_node, distance;
};
/* Fills pl for local (remote 0) or remote memory. 0; BENCH_SKIP (noted) for remote memory
 * on a machine with one node that has memory; -errno when the copy cannot be kept on its
 * node's CPUs. */
int mem_place(struct bench_ctx *ctx, int remote, struct mem_place *pl);
/* Binds [p, p + len), not yet touched, to pl->mem_node (nothing when it is -1). 0, -errno
 * (noted), or BENCH_SKIP (noted) when the node cannot hold len for each copy bound there
 * (its MemFree: memory bound to a node that runs out is OOM-killed, not moved). mbind(2)
 * refused (EPERM: a container's seccomp without CAP_SYS_NICE; ENOSYS): local memory goes
 * unbound (pl->mem_node becomes -1: no node claimed), remote memory SKIPs. */
int mem_bind(struct bench_ctx *ctx, void *p, size_t len, struct mem_place *pl);
/* After the first touch: 0 when the first, middle and last page are on pl->mem_node, else
 * BENCH_SKIP (noted): a figure is never labelled with a node its memory is not on. */
int mem_bind_verify(struct bench_ctx *ctx, const void *p, size_t len,
		    const struct mem_place *pl);
/* The sample's extras mem_node and numa_distance (none when nothing was bound). */
void mem_place_extras(struct bench_ctx *ctx, const struct mem_place *pl);
struct rec_body;
/* The header's numa.nodeN.cpus, .distances and .mem_kib for every online node into b. */
void mem_numa_header(struct rec_body *b);

#endif
