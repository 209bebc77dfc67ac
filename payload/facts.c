/* facts.c — the machine header's facts and blocks the test families contribute (facts.h):
 * the net group's peer and NIC, the tbench load, the memory and the disk. The one list of
 * them, as registry.c is the one list of tests. */
#include "facts.h"
#include "benchapi.h"
#include "bench/mem.h"
#include "core/disk_dev.h"
#include "core/mem_util.h"
#include "core/tbench_load.h"
#include "net/nethello.h"
#include "net/netnic.h"
#include "vocab.h"

#include <stddef.h>

/* The dbench load file the tbench tests replay (core/tbench_load.h), "synthetic" for the
 * built-in mix. */
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

/* Blocks of the machine header from the run's parameters (benchapi.h). */
bench_header_fn *const bench_headers[] = {
	disk_header,	/* core/disk_dev.h: the disk the disk group uses */
	mem_header,	/* bench/mem.h (mem_stream.c): STREAM's working set, the NUMA nodes */
	NULL,
};
