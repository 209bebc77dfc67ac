/* fleet.h — many logs (one per machine) grouped: per group and test, the median of the runs'
 * results, their spread and the ratio to a reference group ("these 20 hosts bare metal vs the
 * same 20 under VMware" in one table).
 *
 * In: a directory of logs (every regular file in it, in name order; subdirectories are not
 * read). Each log contributes its last complete run; a log without one is named on stderr
 * and left out. Groups come from the runs' INFO records: by "hypervisor" (the hypervisor part
 * of model_label(): bare-metal, KVM, VMware, Hyper-V, Xen, QEMU/TCG, ...), by "machine"
 * (cpu.model, cpu.online, dmi.sys_vendor, dmi.product_name) or both ("hypervisor,machine").
 * Rows are test x pass; the pass is "1" for 1 copy and "N" when a run's copies equal its
 * online CPUs (UnixBench's N-copy pass), so machines with different CPU counts share a row.
 * Per group and row, over the runs that have it: n, median, min, max and the 95% CI of the
 * median (lib/stats.c's order-statistics CI; min..max when n < 6), in the test's unit;
 * the ratio is a performance ratio (util.h's perf_ratio) of the group median to the
 * reference group's, with '~' when the two CIs overlap, '*' when they do not, '?' when either
 * group holds one run (no spread to judge noise by). The
 * reference group is bare-metal when present, else the first group in name order. Index
 * scores per pass ("index" rows, unit "score") are grouped the same way.
 * Out: text (a table per row group) or JSON (jansson) on out.
 * Errors: returns an exit status (lib/status.h): EXIT_USAGE (bad --group-by, not a
 * directory, no log in it), EXIT_INCOMPLETE when some log had no complete run (the others
 * are still reported), EXIT_FAILS when a run holds FAIL/ERROR records, else EXIT_OK. */
#ifndef ISOBENCH_FLEET_H
#define ISOBENCH_FLEET_H

#include <stdio.h>

/* 1 when path names a directory (the hook main.c uses to choose fleet mode). */
int fleet_is_dir(const char *path);
/* by: "hypervisor", "machine" or "hypervisor,machine"; format: "text" or "json". */
int fleet_report(const char *dir, const char *by, const char *format, FILE *out);

#endif
