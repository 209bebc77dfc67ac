/* registry.c — the one list of tests, in run order: UnixBench's index in UnixBench's order
 * (its `Run` script), then the tests outside the index; and the one list of their groups
 * and units.
 * Adding a test: write payload/bench/<name>.c exporting `const struct bench bench_<name>`,
 * declare it below and put it in the list. Nothing else names tests. */
#include "bench.h"
#include "net/netproto.h"
#include "bench/ring0.h"
#include "vocab.h"
#include "bench/disk.h"

#include <string.h>

extern const struct bench
	/* index */
	bench_dhry2reg, bench_whetstone_double, bench_execl, bench_fstime, bench_fsbuffer,
	bench_fsdisk, bench_pipe, bench_context1, bench_spawn, bench_shell1, bench_shell8,
	bench_syscall,
	/* extra */
	bench_getpid, bench_dupclose, bench_exec, bench_fsread_1024, bench_fsread_256,
	bench_fsread_4096, bench_fswrite_1024, bench_fswrite_256, bench_fswrite_4096;
extern const struct bench
	/* probes: where virtualization costs (payload/bench/clock.c) */
	bench_clock_monotonic, bench_clock_monotonic_raw, bench_clock_monotonic_coarse,
	bench_clock_realtime, bench_clock_realtime_coarse, bench_clock_boottime,
	bench_clock_gettimeofday, bench_clock_time, bench_clock_syscall,
	/* the architectures' instructions (payload/arch/<arch>/insn.c): x86-64's, then arm64's */
	bench_clock_rdtsc, bench_clock_rdtscp, bench_clock_cntvct, bench_clock_cntpct,
	bench_vmexit_cpuid, bench_vmexit_rdtsc, bench_vmexit_rdtscp, bench_vmexit_pause,
	bench_vmexit_wfe, bench_vmexit_wfe_wake, bench_trap_mrs_idreg, bench_trap_wfi,
	/* payload/bench/vmexit.c */
	bench_vmexit_pagefault, bench_vmexit_shootdown, bench_vmexit_wake_samecpu,
	bench_vmexit_wake_crosscpu, bench_vmexit_nanosleep_50us, bench_vmexit_nanosleep_1ms,
	/* payload/bench/sockwrite.c */
	bench_sockwrite_64, bench_sockwrite_512, bench_sockwrite_4096, bench_sockwrite_paced,
	bench_sockwrite_paced_samecpu, bench_sockwrite_paced_crosscpu,
	/* payload/bench/tbench.c */
	bench_tbench_1, bench_tbench_n;
/* ring0: one per probe of the driver's list (payload/bench/ring0.c, bench/ring0.h) */
#define RING0_EXTERN(id, nm, ttl) extern const struct bench bench_ring0_##nm;
ISOBENCH_PROBES(RING0_EXTERN)
extern const struct bench
	/* disk: payload/bench/disk.c */
	bench_disk_randread_4k_qd1, bench_disk_randread_4k_qd32, bench_disk_read_1m,
	bench_disk_write_1m, bench_disk_randwrite_4k_qd1, bench_disk_flush,
	/* net: against a peer (payload/bench/net.c) */
	bench_net_tcp_rr, bench_net_tcp_crr, bench_net_tcp_stream, bench_net_tcp_maerts,
	bench_net_udp_rr, bench_net_paced_write,
	/* memory: payload/bench/mem_latency.c, mem_stream.c, mem_fault.c */
	bench_mem_latency_16k_4k, bench_mem_latency_16k_2m, bench_mem_latency_512k_4k,
	bench_mem_latency_512k_2m, bench_mem_latency_16m_4k, bench_mem_latency_16m_2m,
	bench_mem_latency_256m_4k, bench_mem_latency_256m_2m, bench_mem_latency_1g_4k,
	bench_mem_latency_1g_2m, bench_mem_bandwidth_copy, bench_mem_bandwidth_scale,
	bench_mem_bandwidth_add, bench_mem_bandwidth_triad, bench_mem_fault_4k,
	bench_mem_fault_2m, bench_mem_fault_tmpfs;
extern const struct bench
	/* selftest: misbehave on purpose; only when named (runner.c keeps them out of "all") */
	bench_selftest_crash, bench_selftest_stall, bench_selftest_skip, bench_selftest_error;

const struct bench *const bench_registry[] = {
	&bench_dhry2reg,
	&bench_whetstone_double,
	&bench_execl,
	&bench_fstime,
	&bench_fsbuffer,
	&bench_fsdisk,
	&bench_pipe,
	&bench_context1,
	&bench_spawn,
	&bench_shell1,
	&bench_shell8,
	&bench_syscall,

	&bench_getpid,
	&bench_dupclose,
	&bench_exec,
	&bench_fsread_1024,
	&bench_fsread_256,
	&bench_fsread_4096,
	&bench_fswrite_1024,
	&bench_fswrite_256,
	&bench_fswrite_4096,

	&bench_clock_monotonic,
	&bench_clock_monotonic_raw,
	&bench_clock_monotonic_coarse,
	&bench_clock_realtime,
	&bench_clock_realtime_coarse,
	&bench_clock_boottime,
	&bench_clock_gettimeofday,
	&bench_clock_time,
	&bench_clock_syscall,
	&bench_clock_rdtsc,
	&bench_clock_rdtscp,
	&bench_clock_cntvct,
	&bench_clock_cntpct,
	&bench_vmexit_cpuid,
	&bench_vmexit_rdtsc,
	&bench_vmexit_rdtscp,
	&bench_vmexit_pause,
	&bench_vmexit_wfe,
	&bench_vmexit_wfe_wake,
	&bench_trap_mrs_idreg,
	&bench_trap_wfi,
	&bench_vmexit_pagefault,
	&bench_vmexit_shootdown,
	&bench_vmexit_wake_samecpu,
	&bench_vmexit_wake_crosscpu,
	&bench_vmexit_nanosleep_50us,
	&bench_vmexit_nanosleep_1ms,
	&bench_sockwrite_64,
	&bench_sockwrite_512,
	&bench_sockwrite_4096,
	&bench_sockwrite_paced,
	&bench_sockwrite_paced_samecpu,
	&bench_sockwrite_paced_crosscpu,
	&bench_tbench_1,
	&bench_tbench_n,

	&bench_disk_randread_4k_qd1,
	&bench_disk_randread_4k_qd32,
	&bench_disk_read_1m,
	&bench_disk_write_1m,
	&bench_disk_randwrite_4k_qd1,
	&bench_disk_flush,

	&bench_net_tcp_rr,
	&bench_net_tcp_crr,
	&bench_net_tcp_stream,
	&bench_net_tcp_maerts,
	&bench_net_udp_rr,
	&bench_net_paced_write,

	&bench_mem_latency_16k_4k,
	&bench_mem_latency_16k_2m,
	&bench_mem_latency_512k_4k,
	&bench_mem_latency_512k_2m,
	&bench_mem_latency_16m_4k,
	&bench_mem_latency_16m_2m,
	&bench_mem_latency_256m_4k,
	&bench_mem_latency_256m_2m,
	&bench_mem_latency_1g_4k,
	&bench_mem_latency_1g_2m,
	&bench_mem_bandwidth_copy,
	&bench_mem_bandwidth_scale,
	&bench_mem_bandwidth_add,
	&bench_mem_bandwidth_triad,
	&bench_mem_fault_4k,
	&bench_mem_fault_2m,
	&bench_mem_fault_tmpfs,

#define RING0_ENTRY(id, nm, ttl) &bench_ring0_##nm,
	ISOBENCH_PROBES(RING0_ENTRY)

	&bench_selftest_crash,
	&bench_selftest_stall,
	&bench_selftest_skip,
	&bench_selftest_error,
	NULL,
};

const char *const bench_groups[] = {
	BENCH_GROUP_INDEX, "extra", "probes", "disk", "net", "memory", RING0_GROUP,
	BENCH_GROUP_SELFTEST, NULL,
};

const char *const bench_units[] = {
	"lps", "lpm", "KBps", "MWIPS", "MB/s", "ns", "%cpu", "IOPS", "MiB/s", "tps", NULL,
};

const struct bench *bench_find(const char *name)
{
	for (int i = 0; bench_registry[i]; i++)
		if (!strcmp(bench_registry[i]->name, name))
			return bench_registry[i];
	return NULL;
}

/* payload/bench/tbench_load.c: the dbench load file the tbench tests replay, NULL for the
 * built-in synthetic mix. */
const char *tbench_load_path(void);

static const char *tbench_load_fact(void)
{
	return tbench_load_path() ? tbench_load_path() : "synthetic";
}

/* The net group's: the peer given, its identity (a hello session), this machine's NIC. */
static const char *peer_fact(void) { return bench_peer[0] ? bench_peer : "-"; }
static const char *peer_host(void) { return net_peer_field(bench_peer, "host"); }
static const char *peer_kernel(void) { return net_peer_field(bench_peer, "kernel"); }
static const char *peer_machine(void) { return net_peer_field(bench_peer, "machine"); }
static const char *peer_nic(void) { return net_peer_field(bench_peer, "nic"); }

/* payload/bench/mem.h: the memory group's machine facts. */
const char *mem_fact_page_sizes(void), *mem_fact_numa_nodes(void), *mem_fact_llc(void),
	*mem_fact_llc_total_kib(void);

const struct bench_fact bench_facts[] = {
	{RK_RUN_TBENCH_LOAD, tbench_load_fact},
	{RK_RUN_PEER, peer_fact},
	{RK_PEER_HOST, peer_host},
	{RK_PEER_KERNEL, peer_kernel},
	{RK_PEER_MACHINE, peer_machine},
	{RK_PEER_NIC, peer_nic},
	{RK_NIC_NAME, net_nic_name},
	{RK_NIC_DRIVER, net_nic_driver},
	{RK_NIC_PCI_ID, net_nic_pci_id},
	{RK_NIC_SPEED, net_nic_speed},
	{RK_NIC_MTU, net_nic_mtu},
	{RK_NIC_QUEUES, net_nic_queues},
	{RK_NIC_OFFLOADS, net_nic_offloads},
	{RK_NIC_IRQ, net_nic_irq},
	{RK_NIC_ADDR, net_nic_addr},
	{RK_MEM_PAGE_SIZES, mem_fact_page_sizes},
	{RK_MEM_NUMA_NODES, mem_fact_numa_nodes},
	{RK_MEM_LLC, mem_fact_llc},
	{RK_MEM_LLC_TOTAL_KIB, mem_fact_llc_total_kib},
	{NULL, NULL},
};

/* Blocks of the machine header from the run's parameters (bench.h). */
bench_header_fn *const bench_headers[] = {
	disk_header,	/* payload/bench/disk_dev.c: the disk the disk group uses */
	NULL,
};
