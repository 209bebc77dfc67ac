/* vocab.h — the record vocabulary of grammar version 1, defined once: every kind, every key,
 * and for each kind the keys it holds with their type and allowed range. Everything else is
 * derived from the three tables below:
 *   - the writer's names: RK_<ID> for a kind or a key (RK_BEGIN is "BEGIN", RK_RUN "run");
 *   - the reader's kind list: rec_kind_known() (record.c) and vocab_kind();
 *   - the lookup a validator uses: vocab_key(kind, key) -> type and range;
 *   - docs/records.md's key tables are checked against it (tests/test-vocab.sh, which prints
 *     the table with tests/unit/vocab_dump.c).
 * A C call never spells a kind or key in quotes (tests/test-vocab.sh fails when one does).
 * Values that are part of the grammar (an enum's words) are the REC_* macros at the end; the
 * table's enum lists are built from them. */
#ifndef ISOBENCH_VOCAB_H
#define ISOBENCH_VOCAB_H

#include <stddef.h>

/* Values of enum keys (the only value words the grammar fixes). */
#define REC_BETTER_HIGHER "higher"	/* TEST, RESULT better= */
#define REC_BETTER_LOWER "lower"
#define REC_MODE_INIT "init"		/* BEGIN mode=, INFO run.mode: PID 1 in the image */
#define REC_MODE_HOST "host"		/* the CLI on a host */
#define REC_STATUS_OK "ok"		/* END status= */
#define REC_STATUS_FATAL "fatal"
#define REC_WHAT_PARAM "param"		/* ERROR what= */
#define REC_WHAT_TEST "test"
#define REC_WHAT_CLOCKSOURCE "clocksource"	/* WARN what= */
#define REC_WHAT_RESULT "result"	/* WARN what=: a result the device cannot give (bench.h judge) */
#define REC_STOP_TARGET "target"	/* RESULT stop=: why sampling ended (harness.c) */
#define REC_STOP_CAP "cap"
#define REC_STOP_FUTILE "futile"
#define REC_STOP_BUDGET "budget"
#define REC_DISK_BLOCK "block"		/* INFO disk.kind= */
#define REC_DISK_FILE "file"
/* FAIL test= of the run's watchdog and of PID 1's failed setup (init.c). */
#define REC_WATCHDOG "watchdog"
#define REC_SETUP "setup"

/* Kinds, in docs/records.md's order: X(ID), the wire name is ID's spelling. */
#define VOCAB_KINDS(X) \
	X(BEGIN) X(INFO) X(ERROR) X(TEST) X(SAMPLE) X(WARN) X(RESULT) X(SKIP) X(FAIL) X(END)

/* Keys: X(ID, wire name). A '*' in a name stands for one word ([a-z0-9_]+) the writer fills
 * in with vocab_fill() (vuln.<file>, exec.<test>.path); the bare "*" is a SAMPLE's per-test
 * extras (bench_extra(), named in each test's source). */
#define VOCAB_KEYS(X) \
	X(RUN, "run") X(VERSION, "version") X(MODE, "mode") \
	X(WHAT, "what") X(PARAM, "param") X(REASON, "reason") \
	X(TESTNAME, "test") X(K, "k") X(N, "n") X(COPIES, "copies") X(UNIT, "unit") \
	X(GROUP, "group") X(TITLE, "title") X(BASELINE, "baseline") X(BETTER, "better") \
	X(CLOCKSOURCE, "clocksource") X(PIN, "pin") \
	X(I, "i") X(WARMUP, "warmup") X(LOOPS, "loops") X(NS, "ns") X(STEAL, "steal_ticks") \
	X(BATCH, "batch") X(RAN_LOOPS, "ran_loops") X(RAN_NS, "ran_ns") X(CPUS, "cpus") \
	X(MIGRATIONS, "migrations") X(NIVCSW, "nivcsw") X(CPU_NS, "cpu_ns") X(EXTRA, "*") \
	X(BEFORE, "before") X(AFTER, "after") X(REQUESTED, "requested") X(CURRENT, "current") \
	X(VALUE, "value") X(SAMPLES, "samples") X(MEDIAN, "median") X(MIN, "min") \
	X(MAX, "max") X(CI95, "ci95_pct") X(CONVERGED, "converged") X(INDEX, "index") \
	X(STOP, "stop") X(SAMPLES_NEEDED, "samples_needed") \
	X(NOTE, "note") X(SIGNAL, "signal") X(STATUS, "status") X(OOM, "oom_kills") \
	X(RECORDS, "records") X(RESULTS, "results") X(FAILS, "fails") X(SKIPS, "skips") \
	X(ERRORS, "errors") X(DROPPED, "dropped_fields") \
	/* INFO: the machine header (sysinfo.c, registry.c), the tests' info hooks, consoles */ \
	X(BUILD_VERSION, "build.version") X(BUILD_CC, "build.cc") \
	X(BUILD_CFLAGS, "build.cflags") X(IMAGE_IDENTITY, "image.identity") \
	X(RUN_MODE, "run.mode") X(RUN_SUITE, "run.suite") X(RUN_TESTS, "run.tests") \
	X(RUN_COPIES, "run.copies") X(RUN_SAMPLE_MS, "run.sample_ms") \
	X(RUN_SAMPLES, "run.samples") X(RUN_CI_TARGET, "run.ci_target_pct") \
	X(RUN_UTC, "run.utc") X(RUN_LOADAVG, "run.loadavg") X(RUN_WORKDIR, "run.workdir") \
	X(RUN_TBENCH_LOAD, "run.tbench_load") \
	X(KERNEL_RELEASE, "kernel.release") X(KERNEL_VERSION, "kernel.version") \
	X(KERNEL_MACHINE, "kernel.machine") X(KERNEL_CMDLINE, "kernel.cmdline") \
	X(KERNEL_CONFIG_CRC, "kernel.config_crc32") X(KERNEL_HYPERVISOR, "kernel.hypervisor") \
	X(CPU_MODEL, "cpu.model") X(CPU_VENDOR, "cpu.vendor") X(CPU_FAMILY, "cpu.family") \
	X(CPU_MODEL_ID, "cpu.model_id") X(CPU_STEPPING, "cpu.stepping") X(CPU_MHZ, "cpu.mhz") \
	X(CPU_MICROCODE, "cpu.microcode") X(CPU_ONLINE, "cpu.online") \
	X(CPU_POSSIBLE, "cpu.possible") X(CPU_SMT, "cpu.smt") X(CPU_GOVERNOR, "cpu.governor") \
	X(CPU_NO_TURBO, "cpu.no_turbo") X(CPU_FLAGS, "cpu.flags") \
	X(MEM_TOTAL_KIB, "mem.total_kib") X(MM_THP, "mm.thp") \
	X(MEM_PAGE_SIZES, "mem.page_sizes") X(MEM_NUMA_NODES, "mem.numa_nodes") \
	X(MEM_LLC, "mem.llc") X(MEM_LLC_TOTAL_KIB, "mem.llc_total_kib") \
	X(FS_ROOT, "fs.root") X(FS_WORKDIR, "fs.workdir") \
	X(HV_CPUID, "hv.cpuid") X(HV_SYS_TYPE, "hv.sys_type") \
	X(DMI_SYS_VENDOR, "dmi.sys_vendor") X(DMI_PRODUCT_NAME, "dmi.product_name") \
	X(CLOCKSOURCE_CURRENT, "clocksource.current") \
	X(CLOCKSOURCE_AVAILABLE, "clocksource.available") X(TSC_FLAGS, "tsc.flags") \
	X(VULN, "vuln") X(VULN_NAME, "vuln.*") \
	X(EXEC_PATH, "exec.*.path") X(EXEC_LINKAGE, "exec.*.linkage") \
	X(EXEC_INTERP, "exec.*.interp") X(EXEC_LIBC, "exec.*.libc") \
	X(EXEC_BYTES, "exec.*.bytes") X(EXEC_LIBC_PATH, "exec.*.libc_path") \
	X(EXEC_LIBC_BYTES, "exec.*.libc_bytes") \
	X(EXEC_SHELL_TOOLS, "exec.shell.tools") X(EXEC_SHELL_PROGRAMS, "exec.shell.programs") \
	X(CONSOLE_USED, "console.used") X(CONSOLE_ABSENT, "console.absent") \
	X(CONSOLE_BYTES, "console.bytes") X(CONSOLE_WRITE_MS, "console.write_ms") \
	X(CONSOLE_STATE, "console.state") \
	/* INFO: the disk the disk tests use (payload/bench/disk_dev.c) */ \
	X(DISK_SELECT, "disk.select") X(DISK_DEVICE, "disk.device") X(DISK_KIND, "disk.kind") \
	X(DISK_REASON, "disk.reason") X(DISK_SIGNED, "disk.signed") \
	X(DISK_SCRATCH_ID, "disk.scratch_id") X(DISK_WRITES, "disk.writes") \
	X(DISK_SPAN_OFFSET, "disk.span_offset") X(DISK_SPAN_BYTES, "disk.span_bytes") \
	X(DISK_FS_MAGIC, "disk.fs_magic") X(DISK_NAME, "disk.name") X(DISK_DRIVER, "disk.driver") \
	X(DISK_CTRL_DRIVER, "disk.controller_driver") X(DISK_PCI, "disk.pci") \
	X(DISK_PCI_SLOT, "disk.pci_slot") X(DISK_MODEL, "disk.model") \
	X(DISK_FIRMWARE, "disk.firmware") X(DISK_SERIAL, "disk.serial") \
	X(DISK_SIZE, "disk.size_bytes") X(DISK_LBS, "disk.logical_block") \
	X(DISK_PBS, "disk.physical_block") X(DISK_ROTATIONAL, "disk.rotational") \
	X(DISK_QUEUES, "disk.queues") X(DISK_QDEPTH, "disk.queue_depth") \
	X(DISK_SCHEDULER, "disk.scheduler") X(DISK_WRITE_CACHE, "disk.write_cache") \
	/* INFO before a disk test's TEST: what it touches and how */ \
	X(DISK_TEST, "disk.test") X(DISK_METHOD, "disk.method") X(DISK_SEED, "disk.seed") \
	X(DISK_BS, "disk.bs") X(DISK_IODEPTH, "disk.iodepth") \
	/* INFO of the net group (registry.c's facts, payload/netserve.c, bench/net.c) */ \
	X(RUN_PEER, "run.peer") X(PEER_HOST, "peer.host") X(PEER_KERNEL, "peer.kernel") \
	X(PEER_MACHINE, "peer.machine") X(PEER_NIC, "peer.nic") X(NET_PEER, "net.peer") \
	X(NIC_NAME, "nic.name") X(NIC_DRIVER, "nic.driver") X(NIC_PCI_ID, "nic.pci_id") \
	X(NIC_SPEED, "nic.speed_mbps") X(NIC_MTU, "nic.mtu") X(NIC_QUEUES, "nic.queues") \
	X(NIC_OFFLOADS, "nic.offloads") X(NIC_IRQ, "nic.irq") X(NIC_ADDR, "nic.addr") \
	X(SERVE_PORT, "serve.port") X(SERVE_BIND, "serve.bind") \
	X(SERVE_MAX_SECONDS, "serve.max_seconds")

#define VOCAB_NOMAX 0	/* hi of an integer without an upper bound */

/* Fields: X(KIND, KEY, presence, type, lo, hi, values)
 *   KIND    a kind's ID, or ANY: any kind may carry it;
 *   KEY     a key's ID;
 *   presence REQ: always there; ONE: exactly one of the kind's ONE keys is; OPT: may be;
 *   type    UINT (decimal integer in lo..hi, hi VOCAB_NOMAX: no bound), INT (signed decimal
 *           integer), DEC (decimal number, finite), POS (DEC > 0: a rate, a time, a
 *           statistic of positive samples), NONNEG (DEC >= 0), ENUM (one of values,
 *           '|'-separated), HEX (lo..hi lower-case hex digits), DASH_HEX (HEX, or '-' when the fact cannot be
 *           read), LIST (comma list of UINT lo.., one entry per copy), CPUS (comma list, one
 *           entry per copy, of CPU numbers joined by '+', or '-'), STR (free string).
 * A STR may always be '-' (the grammar's "none"). */
#define VOCAB_FIELDS(X) \
	X(BEGIN, RUN, REQ, HEX, 16, 16, NULL) \
	X(BEGIN, VERSION, REQ, STR, 0, 0, NULL) \
	X(BEGIN, MODE, REQ, ENUM, 0, 0, REC_MODE_INIT "|" REC_MODE_HOST) \
	X(ERROR, WHAT, REQ, ENUM, 0, 0, REC_WHAT_PARAM "|" REC_WHAT_TEST) \
	X(ERROR, REASON, REQ, STR, 0, 0, NULL) \
	X(ERROR, PARAM, OPT, STR, 0, 0, NULL) \
	X(ERROR, VALUE, OPT, STR, 0, 0, NULL) \
	X(ERROR, TESTNAME, OPT, STR, 0, 0, NULL) \
	X(TEST, TESTNAME, REQ, STR, 0, 0, NULL) \
	X(TEST, K, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(TEST, N, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(TEST, COPIES, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(TEST, UNIT, REQ, STR, 0, 0, NULL) \
	X(TEST, BETTER, REQ, ENUM, 0, 0, REC_BETTER_HIGHER "|" REC_BETTER_LOWER) \
	X(TEST, GROUP, REQ, STR, 0, 0, NULL) \
	X(TEST, TITLE, REQ, STR, 0, 0, NULL) \
	X(TEST, CLOCKSOURCE, REQ, STR, 0, 0, NULL) \
	X(TEST, BASELINE, OPT, POS, 0, 0, NULL) \
	X(TEST, PIN, OPT, ENUM, 0, 0, "1") \
	X(SAMPLE, TESTNAME, REQ, STR, 0, 0, NULL) \
	X(SAMPLE, COPIES, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(SAMPLE, LOOPS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, NS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, STEAL, REQ, UINT, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, BATCH, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(SAMPLE, VALUE, REQ, NONNEG, 0, 0, NULL) \
	X(SAMPLE, RAN_LOOPS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, RAN_NS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, CPUS, REQ, CPUS, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, MIGRATIONS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, NIVCSW, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, CPU_NS, REQ, LIST, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, I, ONE, UINT, 0, VOCAB_NOMAX, NULL) \
	X(SAMPLE, WARMUP, ONE, ENUM, 0, 0, "1") \
	X(SAMPLE, EXTRA, OPT, INT, 0, 0, NULL) \
	X(WARN, WHAT, REQ, ENUM, 0, 0, REC_WHAT_CLOCKSOURCE "|" REC_WHAT_RESULT) \
	X(WARN, REASON, REQ, STR, 0, 0, NULL) \
	X(WARN, TESTNAME, OPT, STR, 0, 0, NULL) \
	X(WARN, COPIES, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(WARN, BEFORE, OPT, STR, 0, 0, NULL) \
	X(WARN, AFTER, OPT, STR, 0, 0, NULL) \
	X(WARN, REQUESTED, OPT, STR, 0, 0, NULL) \
	X(WARN, CURRENT, OPT, STR, 0, 0, NULL) \
	X(RESULT, TESTNAME, REQ, STR, 0, 0, NULL) \
	X(RESULT, COPIES, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(RESULT, UNIT, REQ, STR, 0, 0, NULL) \
	X(RESULT, BETTER, REQ, ENUM, 0, 0, REC_BETTER_HIGHER "|" REC_BETTER_LOWER) \
	X(RESULT, VALUE, REQ, POS, 0, 0, NULL) \
	X(RESULT, SAMPLES, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(RESULT, MEDIAN, REQ, POS, 0, 0, NULL) \
	X(RESULT, MIN, REQ, POS, 0, 0, NULL) \
	X(RESULT, MAX, REQ, POS, 0, 0, NULL) \
	X(RESULT, CI95, REQ, NONNEG, 0, 0, NULL) \
	X(RESULT, CONVERGED, REQ, ENUM, 0, 0, "0|1") \
	X(RESULT, STOP, OPT, ENUM, 0, 0, REC_STOP_TARGET "|" REC_STOP_CAP "|" REC_STOP_FUTILE \
	  "|" REC_STOP_BUDGET) \
	X(RESULT, SAMPLES_NEEDED, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(RESULT, BASELINE, OPT, POS, 0, 0, NULL) \
	X(RESULT, INDEX, OPT, POS, 0, 0, NULL) \
	X(SKIP, TESTNAME, REQ, STR, 0, 0, NULL) \
	X(SKIP, COPIES, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(SKIP, REASON, REQ, STR, 0, 0, NULL) \
	X(FAIL, TESTNAME, REQ, STR, 0, 0, NULL) \
	X(FAIL, REASON, REQ, STR, 0, 0, NULL) \
	X(FAIL, COPIES, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(FAIL, NOTE, OPT, STR, 0, 0, NULL) \
	X(FAIL, SIGNAL, OPT, INT, 0, 0, NULL) \
	X(FAIL, STATUS, OPT, INT, 0, 0, NULL) \
	X(FAIL, WHAT, OPT, STR, 0, 0, NULL) \
	X(FAIL, OOM, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(END, RECORDS, REQ, UINT, 1, VOCAB_NOMAX, NULL) \
	X(END, RESULTS, REQ, UINT, 0, VOCAB_NOMAX, NULL) \
	X(END, FAILS, REQ, UINT, 0, VOCAB_NOMAX, NULL) \
	X(END, SKIPS, REQ, UINT, 0, VOCAB_NOMAX, NULL) \
	X(END, ERRORS, REQ, UINT, 0, VOCAB_NOMAX, NULL) \
	X(END, STATUS, REQ, ENUM, 0, 0, REC_STATUS_OK "|" REC_STATUS_FATAL) \
	X(END, CLOCKSOURCE, OPT, STR, 0, 0, NULL) \
	X(ANY, DROPPED, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(INFO, BUILD_VERSION, OPT, STR, 0, 0, NULL) \
	X(INFO, BUILD_CC, OPT, STR, 0, 0, NULL) \
	X(INFO, BUILD_CFLAGS, OPT, STR, 0, 0, NULL) \
	X(INFO, IMAGE_IDENTITY, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_MODE, OPT, ENUM, 0, 0, REC_MODE_INIT "|" REC_MODE_HOST) \
	X(INFO, RUN_SUITE, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_TESTS, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_COPIES, OPT, LIST, 1, VOCAB_NOMAX, NULL) \
	X(INFO, RUN_SAMPLE_MS, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(INFO, RUN_SAMPLES, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_CI_TARGET, OPT, POS, 0, 0, NULL) \
	X(INFO, RUN_UTC, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_LOADAVG, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_WORKDIR, OPT, STR, 0, 0, NULL) \
	X(INFO, RUN_TBENCH_LOAD, OPT, STR, 0, 0, NULL) \
	X(INFO, KERNEL_RELEASE, OPT, STR, 0, 0, NULL) \
	X(INFO, KERNEL_VERSION, OPT, STR, 0, 0, NULL) \
	X(INFO, KERNEL_MACHINE, OPT, STR, 0, 0, NULL) \
	X(INFO, KERNEL_CMDLINE, OPT, STR, 0, 0, NULL) \
	X(INFO, KERNEL_CONFIG_CRC, OPT, DASH_HEX, 8, 8, NULL) \
	X(INFO, KERNEL_HYPERVISOR, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_MODEL, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_VENDOR, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_FAMILY, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_MODEL_ID, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_STEPPING, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_MHZ, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_MICROCODE, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_ONLINE, OPT, INT, 0, 0, NULL) \
	X(INFO, CPU_POSSIBLE, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_SMT, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_GOVERNOR, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_NO_TURBO, OPT, STR, 0, 0, NULL) \
	X(INFO, CPU_FLAGS, OPT, STR, 0, 0, NULL) \
	X(INFO, MEM_TOTAL_KIB, OPT, UINT, 0, VOCAB_NOMAX, NULL) \
	X(INFO, MM_THP, OPT, STR, 0, 0, NULL) \
	X(INFO, MEM_PAGE_SIZES, OPT, STR, 0, 0, NULL) \
	X(INFO, MEM_NUMA_NODES, OPT, STR, 0, 0, NULL) \
	X(INFO, MEM_LLC, OPT, STR, 0, 0, NULL) \
	X(INFO, MEM_LLC_TOTAL_KIB, OPT, STR, 0, 0, NULL) \
	X(INFO, FS_ROOT, OPT, STR, 0, 0, NULL) \
	X(INFO, FS_WORKDIR, OPT, STR, 0, 0, NULL) \
	X(INFO, HV_CPUID, OPT, STR, 0, 0, NULL) \
	X(INFO, HV_SYS_TYPE, OPT, STR, 0, 0, NULL) \
	X(INFO, DMI_SYS_VENDOR, OPT, STR, 0, 0, NULL) \
	X(INFO, DMI_PRODUCT_NAME, OPT, STR, 0, 0, NULL) \
	X(INFO, CLOCKSOURCE_CURRENT, OPT, STR, 0, 0, NULL) \
	X(INFO, CLOCKSOURCE_AVAILABLE, OPT, STR, 0, 0, NULL) \
	X(INFO, TSC_FLAGS, OPT, STR, 0, 0, NULL) \
	X(INFO, VULN_NAME, OPT, STR, 0, 0, NULL) \
	X(INFO, VULN, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_PATH, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_LINKAGE, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_INTERP, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_LIBC, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_BYTES, OPT, INT, 0, 0, NULL) \
	X(INFO, EXEC_LIBC_PATH, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_LIBC_BYTES, OPT, INT, 0, 0, NULL) \
	X(INFO, EXEC_SHELL_TOOLS, OPT, STR, 0, 0, NULL) \
	X(INFO, EXEC_SHELL_PROGRAMS, OPT, STR, 0, 0, NULL) \
	X(INFO, CONSOLE_USED, OPT, STR, 0, 0, NULL) \
	X(INFO, CONSOLE_ABSENT, OPT, STR, 0, 0, NULL) \
	X(INFO, CONSOLE_BYTES, OPT, STR, 0, 0, NULL) \
	X(INFO, CONSOLE_WRITE_MS, OPT, STR, 0, 0, NULL) \
	X(INFO, CONSOLE_STATE, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SELECT, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_DEVICE, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_KIND, OPT, ENUM, 0, 0, REC_DISK_BLOCK "|" REC_DISK_FILE) \
	X(INFO, DISK_REASON, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SIGNED, OPT, ENUM, 0, 0, "0|1") \
	X(INFO, DISK_SCRATCH_ID, OPT, DASH_HEX, 16, 16, NULL) \
	X(INFO, DISK_WRITES, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SPAN_OFFSET, OPT, UINT, 0, VOCAB_NOMAX, NULL) \
	X(INFO, DISK_SPAN_BYTES, OPT, UINT, 0, VOCAB_NOMAX, NULL) \
	X(INFO, DISK_FS_MAGIC, OPT, DASH_HEX, 1, 16, NULL) \
	X(INFO, DISK_NAME, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_DRIVER, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_CTRL_DRIVER, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_PCI, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_PCI_SLOT, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_MODEL, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_FIRMWARE, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SERIAL, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SIZE, OPT, UINT, 0, VOCAB_NOMAX, NULL) \
	X(INFO, DISK_LBS, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_PBS, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_ROTATIONAL, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_QUEUES, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_QDEPTH, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SCHEDULER, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_WRITE_CACHE, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_TEST, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_METHOD, OPT, STR, 0, 0, NULL) \
	X(INFO, DISK_SEED, OPT, UINT, 0, VOCAB_NOMAX, NULL) \
	X(INFO, DISK_BS, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(INFO, DISK_IODEPTH, OPT, UINT, 1, VOCAB_NOMAX, NULL) \
	X(INFO, RUN_PEER, OPT, STR, 0, 0, NULL) \
	X(INFO, PEER_HOST, OPT, STR, 0, 0, NULL) \
	X(INFO, PEER_KERNEL, OPT, STR, 0, 0, NULL) \
	X(INFO, PEER_MACHINE, OPT, STR, 0, 0, NULL) \
	X(INFO, PEER_NIC, OPT, STR, 0, 0, NULL) \
	X(INFO, NET_PEER, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_NAME, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_DRIVER, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_PCI_ID, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_SPEED, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_MTU, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_QUEUES, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_OFFLOADS, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_IRQ, OPT, STR, 0, 0, NULL) \
	X(INFO, NIC_ADDR, OPT, STR, 0, 0, NULL) \
	X(INFO, SERVE_PORT, OPT, UINT, 0, 65535, NULL) \
	X(INFO, SERVE_BIND, OPT, STR, 0, 0, NULL) \
	X(INFO, SERVE_MAX_SECONDS, OPT, UINT, 0, VOCAB_NOMAX, NULL)

/* The writer's names: RK_<kind> and RK_<key> hold the wire names (lib/vocab.c). */
#define VOCAB_KIND_DECL(id) extern const char RK_##id[];
#define VOCAB_KEY_DECL(id, name) extern const char RK_##id[];
VOCAB_KINDS(VOCAB_KIND_DECL)
VOCAB_KEYS(VOCAB_KEY_DECL)
#undef VOCAB_KIND_DECL
#undef VOCAB_KEY_DECL

/* Ids, for the lookup below: VK_<kind> (VK_ANY: every kind) and VKEY_<key>. */
#define VOCAB_KIND_ID(id) VK_##id,
enum vocab_kind { VOCAB_KINDS(VOCAB_KIND_ID) VK_ANY, VK_COUNT = VK_ANY };
#undef VOCAB_KIND_ID
#define VOCAB_KEY_ID(id, name) VKEY_##id,
enum vocab_key_id { VOCAB_KEYS(VOCAB_KEY_ID) VKEY_COUNT };
#undef VOCAB_KEY_ID

enum vocab_presence { VP_REQ, VP_ONE, VP_OPT };
enum vocab_type {
	VT_UINT, VT_INT, VT_DEC, VT_POS, VT_NONNEG, VT_ENUM, VT_HEX, VT_DASH_HEX, VT_LIST,
	VT_CPUS, VT_STR
};

/* One row of VOCAB_FIELDS. */
struct vocab_field {
	enum vocab_kind kind;
	enum vocab_key_id key;
	enum vocab_presence presence;
	enum vocab_type type;
	unsigned long long lo, hi;	/* integer range (hi 0: none), HEX digits, LIST entries' lo */
	const char *values;		/* ENUM: "a|b"; else NULL */
};

extern const struct vocab_field vocab_fields[];	/* in table order */
extern const size_t vocab_nfields;
extern const char *const vocab_kind_names[VK_COUNT + 1];	/* [VK_ANY] = "*" */
extern const char *const vocab_key_names[VKEY_COUNT];

/* The kind named kind, or -1 when the grammar has no such kind. */
int vocab_kind(const char *kind);
/* The field for key in a record of kind: an exact name first (the kind's, then ANY's), then
 * a name with '*' (vuln.*, exec.*.path, a SAMPLE's extras). NULL: the grammar does not know
 * it (a reader ignores it; a validator may say so). */
const struct vocab_field *vocab_key(const char *kind, const char *key);
/* 1 when name (a table name, possibly with '*') matches key, '*' being one [a-z0-9_]+ word. */
int vocab_match(const char *name, const char *key);
/* name with its '*' replaced by word, into buf (cap bytes); returns buf (truncated to fit). */
const char *vocab_fill(char *buf, size_t cap, const char *name, const char *word);
/* 1 when val is a valid value of f (type and range as above), else 0. */
int vocab_value_ok(const struct vocab_field *f, const char *val);
/* f's type and range in words ("integer >= 1", "decimal > 0 (finite)", "one of `a`, `b`"),
 * into o (n bytes): the validator's "expected ..." and docs/records.md's type column. */
void vocab_type_text(const struct vocab_field *f, char *o, size_t n);

#endif
