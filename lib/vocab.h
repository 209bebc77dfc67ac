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
#define REC_MODE_INIT "init"		/* BEGIN mode=, INFO run.mode: PID 1 in the image (or
					 * the peer it runs, isobench.serve=1) */
#define REC_MODE_HOST "host"		/* the CLI on a host */
#define REC_STATUS_OK "ok"		/* END status= */
#define REC_STATUS_FATAL "fatal"
#define REC_WHAT_PARAM "param"		/* ERROR what=; WARN what=: a kernel command-line key
					 * given twice (the last kept) */
#define REC_WHAT_TEST "test"		/* ERROR what=; WARN what=: the test process outlived its outcome */
#define REC_WHAT_CLOCKSOURCE "clocksource"	/* WARN what= */
#define REC_WHAT_RESULT "result"	/* WARN what=: a result the device cannot give (benchapi.h judge) */
#define REC_WHAT_METADATA "metadata"	/* WARN what=: a cloud's metadata service absent, slow or
					 * answering garbage (payload/pid1/cloud.c) */
#define REC_WHAT_CPUPOLICY "cpupolicy"	/* WARN what=: a CPU clock or idle policy asked for and
					 * not (fully) applied (payload/cpupolicy.h) */
#define REC_STOP_TARGET "target"	/* RESULT stop=: why sampling ended (harness.c) */
#define REC_STOP_CAP "cap"
#define REC_STOP_FUTILE "futile"
#define REC_STOP_BUDGET "budget"
/* SAMPLE mhz_method=: how its mhz= figures were obtained (payload/cpuclock.h). */
#define REC_MHZ_APERF "aperf"		/* TSC rate x delta APERF / delta MPERF, per copy */
#define REC_MHZ_CPPC "cppc"		/* ACPI CPPC's feedback counters in sysfs, per copy */
#define REC_MHZ_CHAIN "chain"		/* a timed chain of dependent adds before and after */
#define REC_MHZ_NONE "none"		/* neither: every figure 0 */
/* DIGEST part=: which piece of the run's digest a DIGEST record is (docs/records.md "The
 * digest"; payload/digest.c writes it, report/digest.c reads it). */
#define REC_PART_BEGIN "begin"		/* the first: BEGIN's fields */
#define REC_PART_INFO "info"		/* header facts (INFO's fields) */
#define REC_PART_TEST "test"		/* one test: TEST's fields, its passes' RESULT figures */
#define REC_PART_SKIP "skip"		/* a SKIP, FAIL, WARN, ERROR record's fields */
#define REC_PART_FAIL "fail"
#define REC_PART_WARN "warn"
#define REC_PART_ERROR "error"
#define REC_PART_END "end"		/* the last: the count and CRC-32 of the lines before it */
#define REC_DISK_BLOCK "block"		/* INFO disk.kind= */
#define REC_DISK_FILE "file"
/* FAIL test= of the run's watchdog and of PID 1's failed setup (init.c). */
#define REC_WATCHDOG "watchdog"
#define REC_SETUP "setup"
/* INFO hv.cpuid on arm64, which has no CPUID: PSCI's conduit is HVC (the device tree's psci
 * method, or ACPI FADT's PSCI_USE_HVC), so something answers at EL2 — a hypervisor, not
 * named (payload/arch/aarch64/cpu.c; bare metal's firmware answers SMC at EL3). */
#define REC_HV_PSCI_HVC "psci-hvc"

/* The words of TEST/RESULT group= and unit= and of a SAMPLE's extras (the vocabulary's '*'
 * row below): one macro each, the lists after them built from the macros. A C file of
 * payload/ or report/ never spells one in quotes (tests/test-vocab.sh), and docs/records.md's
 * "Groups, units and extras" table is generated from the lists (vocab_dump --words). */
/* Groups, in --list order (a group is also a name for `--tests`). */
#define REC_GROUP_INDEX "index"		/* UnixBench's index (lib/unixbench.h ub_is_index) */
#define REC_GROUP_EXTRA "extra"		/* UnixBench's tests outside the index */
#define REC_GROUP_PROBES "probes"	/* where virtualization costs: clocks, instructions */
#define REC_GROUP_DISK "disk"
#define REC_GROUP_NET "net"		/* against a peer (isobench --serve) */
#define REC_GROUP_MEMORY "memory"
#define REC_GROUP_RING0 "ring0"		/* the ring-0 probe driver's probes */
#define REC_GROUP_SELFTEST "selftest"	/* fail on purpose (their tests are .nodefault: benchapi.h) */
#define VOCAB_GROUPS(X) \
	X(REC_GROUP_INDEX) X(REC_GROUP_EXTRA) X(REC_GROUP_PROBES) X(REC_GROUP_DISK) \
	X(REC_GROUP_NET) X(REC_GROUP_MEMORY) X(REC_GROUP_RING0) X(REC_GROUP_SELFTEST)
/* Units of a test's value. */
#define REC_UNIT_LPS "lps"		/* loops per second (UnixBench) */
#define REC_UNIT_LPM "lpm"		/* loops per minute (UnixBench's shell tests) */
#define REC_UNIT_KBPS "KBps"		/* KiB per second (UnixBench's file copies) */
#define REC_UNIT_MWIPS "MWIPS"		/* Whetstone */
#define REC_UNIT_MBPS "MB/s"
#define REC_UNIT_NS "ns"		/* ns per operation */
#define REC_UNIT_CPU_PCT "%cpu"		/* share of one CPU */
#define REC_UNIT_IOPS "IOPS"
#define REC_UNIT_MIBPS "MiB/s"
#define REC_UNIT_TPS "tps"		/* transactions per second */
#define VOCAB_UNITS(X) \
	X(REC_UNIT_LPS) X(REC_UNIT_LPM) X(REC_UNIT_KBPS) X(REC_UNIT_MWIPS) X(REC_UNIT_MBPS) \
	X(REC_UNIT_NS) X(REC_UNIT_CPU_PCT) X(REC_UNIT_IOPS) X(REC_UNIT_MIBPS) X(REC_UNIT_TPS)
/* A unit's figure per loop where the unit fixes it (docs/records.md "How RESULT derives from
 * SAMPLE": a rate is loops x per_loop / seconds, a time ns / loops / per_loop); the tests of
 * that unit use it as their per_loop and a reader checks a SAMPLE's value with it
 * (vocab_unit_per_loop()). KBps (the buffer's KiB), ns (what a loop does: 1 operation, the
 * KiB a fault test's loop touches) and %cpu (an extra) are the test's own. */
#define REC_PER_LOOP_LPM 60		/* loops per minute from loops per second */
#define REC_PER_LOOP_MWIPS 0.1		/* one Whetstone pass at LOOP=1: 100,000 instructions */
#define VOCAB_UNIT_PER_LOOP(X) \
	X(REC_UNIT_LPS, 1) X(REC_UNIT_LPM, REC_PER_LOOP_LPM) X(REC_UNIT_MWIPS, REC_PER_LOOP_MWIPS) \
	X(REC_UNIT_MBPS, 1) X(REC_UNIT_IOPS, 1) X(REC_UNIT_MIBPS, 1) X(REC_UNIT_TPS, 1)
/* The extras a test may name as its SAMPLE value instead of the loops' rate or time (benchapi.h
 * value_extra): the value is the extra, divided by 100 for a name ending in _x100. */
#define VOCAB_VALUE_EXTRAS(X) \
	X(REC_EXTRA_P50_NS) X(REC_EXTRA_P50_LATE_NS) X(REC_EXTRA_BUSY_PCT_X100) X(REC_EXTRA_OP_NS_X100)
/* A SAMPLE's extras (integers; bench_extra(), each test's source says what it means). */
#define REC_EXTRA_ARRAY_KIB "array_kib"
#define REC_EXTRA_ARRAY_TOTAL_KIB "array_total_kib"	/* STREAM: one array, all copies */
#define REC_EXTRA_BEHIND "behind"
#define REC_EXTRA_BUSY_PCT_X100 "busy_pct_x100"
#define REC_EXTRA_BYTES_READ "bytes_read"
#define REC_EXTRA_BYTES_WRITTEN "bytes_written"
#define REC_EXTRA_CLIENTS "clients"
#define REC_EXTRA_CPU "cpu"
#define REC_EXTRA_CPU_PCT_X100 "cpu_pct_x100"
#define REC_EXTRA_CYCLES_X100 "cycles_x100"
#define REC_EXTRA_FLUSH_P50_NS "flush_p50_ns"
#define REC_EXTRA_FRESH_KIB "fresh_kib"	/* mem-fault-fresh: never handed out before */
#define REC_EXTRA_FS_MAGIC "fs_magic"
#define REC_EXTRA_HOST_PAGE_KIB "host_page_kib"	/* 0: the host's backing unknown */
#define REC_EXTRA_LOCAL_NS "local_ns"
#define REC_EXTRA_LOST "lost"
#define REC_EXTRA_MAX_LATE_NS "max_late_ns"
#define REC_EXTRA_MAX_NS "max_ns"
#define REC_EXTRA_MEM_NODE "mem_node"	/* the NUMA node the memory is bound to */
#define REC_EXTRA_MBPS_X100 "mbps_x100"
#define REC_EXTRA_MSG_BYTES "msg_bytes"
#define REC_EXTRA_MSS "mss"
#define REC_EXTRA_MTU "mtu"
#define REC_EXTRA_NUMA_DISTANCE "numa_distance"	/* SLIT: CPU node to mem_node */
#define REC_EXTRA_NULL_NS_X100 "null_ns_x100"	/* ring0: the null batch, ns per iteration x 100 */
#define REC_EXTRA_OP_NS_X100 "op_ns_x100"
#define REC_EXTRA_OPS_PER_S "ops_per_s"
#define REC_EXTRA_P50_LATE_NS "p50_late_ns"
#define REC_EXTRA_P50_NS "p50_ns"
#define REC_EXTRA_P99_LATE_NS "p99_late_ns"
#define REC_EXTRA_P999_NS "p999_ns"
#define REC_EXTRA_P99_NS "p99_ns"
#define REC_EXTRA_RATE_HZ "rate_hz"
#define REC_EXTRA_RCV_CPU_PCT_X100 "rcv_cpu_pct_x100"
#define REC_EXTRA_READ_PCT "read_pct"
#define REC_EXTRA_REREAD_COLD_NS "reread_cold_ns"	/* disk: re-read probe, first reads */
#define REC_EXTRA_REREAD_WARM_NS "reread_warm_ns"	/* disk: re-read probe, the same again */
#define REC_EXTRA_REUSED_KIB "reused_kib"	/* mem-fault-fresh: handed out again */
#define REC_EXTRA_RTT0_NS "rtt0_ns"
#define REC_EXTRA_SLACK_NS "slack_ns"
#define REC_EXTRA_SYS_CPU_PCT_X100 "sys_cpu_pct_x100"	/* busy share of all CPUs, /proc/stat */
#define REC_EXTRA_SYSCALL_NS "syscall_ns"
#define REC_EXTRA_TARGET_CPU "target_cpu"
#define REC_EXTRA_TARGET_HZ "target_hz"
#define REC_EXTRA_THP_FALLBACK "thp_fallback"
#define REC_EXTRA_THP_KIB "thp_kib"
#define REC_EXTRA_VDSO "vdso"
#define REC_EXTRA_WRITE_NS "write_ns"
#define REC_EXTRA_WRITE_P50_NS "write_p50_ns"
#define VOCAB_EXTRAS(X) \
	X(REC_EXTRA_ARRAY_KIB) X(REC_EXTRA_ARRAY_TOTAL_KIB) X(REC_EXTRA_BEHIND) X(REC_EXTRA_BUSY_PCT_X100) \
	X(REC_EXTRA_BYTES_READ) X(REC_EXTRA_BYTES_WRITTEN) X(REC_EXTRA_CLIENTS) X(REC_EXTRA_CPU) \
	X(REC_EXTRA_CPU_PCT_X100) X(REC_EXTRA_CYCLES_X100) X(REC_EXTRA_FLUSH_P50_NS) \
	X(REC_EXTRA_FRESH_KIB) X(REC_EXTRA_FS_MAGIC) \
	X(REC_EXTRA_HOST_PAGE_KIB) X(REC_EXTRA_LOCAL_NS) X(REC_EXTRA_LOST) X(REC_EXTRA_MAX_LATE_NS) \
	X(REC_EXTRA_MAX_NS) X(REC_EXTRA_MEM_NODE) X(REC_EXTRA_MBPS_X100) X(REC_EXTRA_MSG_BYTES) X(REC_EXTRA_MSS) \
	X(REC_EXTRA_MTU) X(REC_EXTRA_NUMA_DISTANCE) X(REC_EXTRA_NULL_NS_X100) \
	X(REC_EXTRA_OP_NS_X100) X(REC_EXTRA_OPS_PER_S) X(REC_EXTRA_P50_LATE_NS) \
	X(REC_EXTRA_P50_NS) X(REC_EXTRA_P99_LATE_NS) X(REC_EXTRA_P999_NS) X(REC_EXTRA_P99_NS) \
	X(REC_EXTRA_RATE_HZ) X(REC_EXTRA_RCV_CPU_PCT_X100) X(REC_EXTRA_READ_PCT) \
	X(REC_EXTRA_REREAD_COLD_NS) X(REC_EXTRA_REREAD_WARM_NS) \
	X(REC_EXTRA_REUSED_KIB) X(REC_EXTRA_RTT0_NS) X(REC_EXTRA_SLACK_NS) X(REC_EXTRA_SYS_CPU_PCT_X100) X(REC_EXTRA_SYSCALL_NS) \
	X(REC_EXTRA_TARGET_CPU) X(REC_EXTRA_TARGET_HZ) X(REC_EXTRA_THP_FALLBACK) \
	X(REC_EXTRA_THP_KIB) X(REC_EXTRA_VDSO) X(REC_EXTRA_WRITE_NS) \
	X(REC_EXTRA_WRITE_P50_NS)
/* Test-name prefixes a reader selects a family of tests by: mem-latency-<size>-<page>
 * (payload/bench/mem_latency.c; report/memsvg.c draws them). */
#define REC_PREFIX_MEM_LATENCY "mem-latency-"
/* mem-bandwidth-<kernel>[-remote] (payload/bench/mem_stream.c; report/compare.c compares their
 * working sets) */
#define REC_PREFIX_MEM_BANDWIDTH "mem-bandwidth-"

/* The RESULT figures a DIGEST part=test line lists, one entry per pass, in this order
 * (payload/digest.c writes them, report/digest.c reads them; docs/records.md "The digest"),
 * each X(ID) of a key below; the mean cycles_x100 (RK_CYCLES) follows them. */
#define VOCAB_DIGEST_FIGURES(X) \
	X(VALUE) X(WHOLE) X(STEAL_PCT) X(SAMPLES) X(MEDIAN) X(CI95) X(CONVERGED) X(STOP) \
	X(SAMPLES_NEEDED) X(INDEX) \
	X(LAT_P50) X(LAT_P99) X(LAT_P999) X(LAT_MAX) X(NULL_NS) X(CLOCK_NS)

/* Kinds, in docs/records.md's order: X(ID), the wire name is ID's spelling. */
#define VOCAB_KINDS(X) \
	X(BEGIN) X(INFO) X(ERROR) X(TEST) X(SAMPLE) X(WARN) X(RESULT) X(SKIP) X(FAIL) X(DIGEST) X(END)

/* Keys: X(ID, wire name), those of every kind but INFO (INFO's follow, each with its shape).
 * A '*' in a name stands for one word ([a-z0-9_]+) the writer fills in with vocab_fill()
 * (vuln.<file>, exec.<test>.path); the bare "*" is a SAMPLE's per-test extras
 * (bench_extra(), named in each test's source). */
#define VOCAB_CORE_KEYS(X) \
	X(RUN, "run") X(VERSION, "version") X(MODE, "mode") \
	X(WHAT, "what") X(PARAM, "param") X(REASON, "reason") \
	X(TESTNAME, "test") X(K, "k") X(N, "n") X(COPIES, "copies") X(UNIT, "unit") \
	X(GROUP, "group") X(TITLE, "title") X(BASELINE, "baseline") X(BETTER, "better") \
	X(CLOCKSOURCE, "clocksource") X(PIN, "pin") \
	X(I, "i") X(WARMUP, "warmup") X(LOOPS, "loops") X(NS, "ns") X(STEAL, "steal_ticks") \
	X(BATCH, "batch") X(RAN_LOOPS, "ran_loops") X(RAN_NS, "ran_ns") X(CPUS, "cpus") \
	X(MIGRATIONS, "migrations") X(NIVCSW, "nivcsw") X(CPU_NS, "cpu_ns") X(EXTRA, "*") \
	X(MHZ, "mhz") X(MHZ_METHOD, "mhz_method") \
	X(BEFORE, "before") X(AFTER, "after") X(REQUESTED, "requested") X(CURRENT, "current") \
	X(VALUE, "value") X(SAMPLES, "samples") X(MEDIAN, "median") X(MIN, "min") \
	X(MAX, "max") X(CI95, "ci95_pct") X(CONVERGED, "converged") X(INDEX, "index") \
	X(STOP, "stop") X(SAMPLES_NEEDED, "samples_needed") X(WHOLE, "whole") \
	X(STEAL_PCT, "steal_pct") \
	X(LAT_P50, REC_EXTRA_P50_NS) X(LAT_P99, REC_EXTRA_P99_NS) X(LAT_P999, REC_EXTRA_P999_NS) \
	X(LAT_MAX, REC_EXTRA_MAX_NS) X(LAT_HIST, "lat_hist") X(NULL_NS, REC_EXTRA_NULL_NS_X100) \
	X(NOTE, "note") X(SIGNAL, "signal") X(STATUS, "status") X(OOM, "oom_kills") \
	X(RECORDS, "records") X(RESULTS, "results") X(FAILS, "fails") X(SKIPS, "skips") \
	X(ERRORS, "errors") X(DROPPED, "dropped_fields") \
	X(PART, "part") X(LINES, "lines") X(CRC, "crc") X(CYCLES, REC_EXTRA_CYCLES_X100) \
	X(CLOCK_NS, "clock_ns_x100")

/* INFO keys: I(X, ID, wire name, shape), each OPT in INFO and in no other kind, so one row
 * gives both its key (VOCAB_KEYS) and its field (VOCAB_FIELDS), in the generated table's
 * order. */
#define VOCAB_INFO_KEYS(I, X) \
	/* INFO: the machine header (sysinfo.c, registry.c), the tests' info hooks, consoles */ \
	I(X, BUILD_VERSION, "build.version", STR) \
	I(X, BUILD_CC, "build.cc", STR) \
	I(X, BUILD_CFLAGS, "build.cflags", STR) \
	I(X, IMAGE_IDENTITY, "image.identity", STR) \
	I(X, RUN_MODE, "run.mode", MODE) \
	I(X, RUN_SUITE, "run.suite", STR) \
	I(X, RUN_TESTS, "run.tests", STR) \
	I(X, RUN_COPIES, "run.copies", LIST1) \
	I(X, RUN_ALL_CPUS, "run.all_cpus", UINT1) \
	I(X, RUN_SAMPLE_MS, "run.sample_ms", UINT1) \
	I(X, RUN_SAMPLES, "run.samples", STR) \
	I(X, RUN_CI_TARGET, "run.ci_target_pct", POS) \
	I(X, RUN_ROUND, "run.round", UINT1) \
	I(X, RUN_AB_SIDE, "run.ab_side", STR) \
	I(X, RUN_AB_POS, "run.ab_pos", UINT1) \
	I(X, RUN_REPEAT, "run.repeat", UINT1) \
	I(X, RUN_REPLICATE, "run.replicate", UINT1) \
	I(X, RUN_UTC, "run.utc", STR) \
	I(X, RUN_LOADAVG, "run.loadavg", STR) \
	I(X, RUN_WORKDIR, "run.workdir", STR) \
	I(X, RUN_TBENCH_LOAD, "run.tbench_load", STR) \
	I(X, KERNEL_RELEASE, "kernel.release", STR) \
	I(X, KERNEL_VERSION, "kernel.version", STR) \
	I(X, KERNEL_MACHINE, "kernel.machine", STR) \
	I(X, KERNEL_CMDLINE, "kernel.cmdline", STR) \
	I(X, KERNEL_CONFIG_CRC, "kernel.config_crc32", CRC32) \
	I(X, KERNEL_HYPERVISOR, "kernel.hypervisor", STR) \
	I(X, CPU_MODEL, "cpu.model", STR) \
	I(X, CPU_VENDOR, "cpu.vendor", STR) \
	I(X, CPU_FAMILY, "cpu.family", STR) \
	I(X, CPU_MODEL_ID, "cpu.model_id", STR) \
	I(X, CPU_STEPPING, "cpu.stepping", STR) \
	I(X, CPU_MHZ, "cpu.mhz", STR) \
	I(X, CPU_MICROCODE, "cpu.microcode", STR) \
	I(X, CPU_ONLINE, "cpu.online", INT) \
	I(X, CPU_POSSIBLE, "cpu.possible", STR) \
	I(X, CPU_SMT, "cpu.smt", STR) \
	I(X, CPU_GOVERNOR, "cpu.governor", STR) \
	I(X, CPU_NO_TURBO, "cpu.no_turbo", STR) \
	/* INFO: the CPU's clock and idle policy (payload/cpupolicy.c) and clock method (cpuclock.c) */ \
	I(X, CPUFREQ_DRIVER, "cpufreq.driver", STR) \
	I(X, CPUFREQ_BOOST, "cpufreq.boost", STR) \
	I(X, CPUFREQ_EPP, "cpufreq.epp", STR) \
	I(X, CPUFREQ_MIN_KHZ, "cpufreq.min_khz", STR) \
	I(X, CPUFREQ_MAX_KHZ, "cpufreq.max_khz", STR) \
	I(X, CPUFREQ_BASE_KHZ, "cpufreq.base_khz", STR) \
	I(X, CPUFREQ_SET, "cpufreq.set", STR) \
	I(X, CPUIDLE_DRIVER, "cpuidle.driver", STR) \
	I(X, CPUIDLE_GOVERNOR, "cpuidle.governor", STR) \
	I(X, CPUIDLE_STATES, "cpuidle.states", STR) \
	I(X, CPUIDLE_SET, "cpuidle.set", STR) \
	I(X, CPU_CLOCK_METHOD, "cpu.clock_method", STR) \
	I(X, CPU_FLAGS, "cpu.flags", STR) \
	I(X, MEM_TOTAL_KIB, "mem.total_kib", UINT0) \
	I(X, MM_THP, "mm.thp", STR) \
	I(X, MEM_PAGE_SIZES, "mem.page_sizes", STR) \
	I(X, MEM_NUMA_NODES, "mem.numa_nodes", STR) \
	I(X, MEM_LLC, "mem.llc", STR) \
	I(X, MEM_LLC_TOTAL_KIB, "mem.llc_total_kib", STR) \
	/* INFO: the memory group's block (payload/bench/mem_stream.c mem_header(), with payload/core/mem_numa.c) */ \
	I(X, MEM_STREAM_ARRAY_KIB, "mem.stream_array_kib", UINT1) \
	I(X, NUMA_CPUS, "numa.*.cpus", STR) \
	I(X, NUMA_DISTANCES, "numa.*.distances", STR) \
	I(X, NUMA_MEM_KIB, "numa.*.mem_kib", INT) \
	I(X, FS_ROOT, "fs.root", STR) \
	I(X, FS_WORKDIR, "fs.workdir", STR) \
	I(X, HV_CPUID, "hv.cpuid", STR) \
	I(X, HV_SYS_TYPE, "hv.sys_type", STR) \
	I(X, DMI_SYS_VENDOR, "dmi.sys_vendor", STR) \
	I(X, DMI_PRODUCT_NAME, "dmi.product_name", STR) \
	I(X, CLOCKSOURCE_CURRENT, "clocksource.current", STR) \
	I(X, CLOCKSOURCE_AVAILABLE, "clocksource.available", STR) \
	I(X, TSC_FLAGS, "tsc.flags", STR) \
	I(X, VULN_NAME, "vuln.*", STR) \
	I(X, VULN, "vuln", STR) \
	I(X, EXEC_PATH, "exec.*.path", STR) \
	I(X, EXEC_LINKAGE, "exec.*.linkage", STR) \
	I(X, EXEC_INTERP, "exec.*.interp", STR) \
	I(X, EXEC_LIBC, "exec.*.libc", STR) \
	I(X, EXEC_BYTES, "exec.*.bytes", INT) \
	I(X, EXEC_LIBC_PATH, "exec.*.libc_path", STR) \
	I(X, EXEC_LIBC_BYTES, "exec.*.libc_bytes", INT) \
	I(X, EXEC_SHELL_TOOLS, "exec.shell.tools", STR) \
	I(X, EXEC_SHELL_PROGRAMS, "exec.shell.programs", STR) \
	I(X, CONSOLE_USED, "console.used", STR) \
	I(X, CONSOLE_ABSENT, "console.absent", STR) \
	I(X, CONSOLE_BYTES, "console.bytes", STR) \
	I(X, CONSOLE_WRITE_MS, "console.write_ms", STR) \
	I(X, CONSOLE_STATE, "console.state", STR) \
	/* INFO: the disk the disk tests use (payload/core/disk_dev.c) */ \
	I(X, DISK_SELECT, "disk.select", STR) \
	I(X, DISK_DEVICE, "disk.device", STR) \
	I(X, DISK_KIND, "disk.kind", DISK_KIND) \
	I(X, DISK_REASON, "disk.reason", STR) \
	I(X, DISK_SIGNED, "disk.signed", BOOL) \
	I(X, DISK_SCRATCH_ID, "disk.scratch_id", ID64) \
	I(X, DISK_WRITES, "disk.writes", STR) \
	I(X, DISK_SPAN_OFFSET, "disk.span_offset", UINT0) \
	I(X, DISK_SPAN_BYTES, "disk.span_bytes", UINT0) \
	I(X, DISK_SPAN_NOTE, "disk.span_note", STR) \
	I(X, DISK_FS_MAGIC, "disk.fs_magic", HEXNUM) \
	I(X, DISK_NAME, "disk.name", STR) \
	I(X, DISK_DRIVER, "disk.driver", STR) \
	I(X, DISK_CTRL_DRIVER, "disk.controller_driver", STR) \
	I(X, DISK_PCI, "disk.pci", STR) \
	I(X, DISK_PCI_SLOT, "disk.pci_slot", STR) \
	I(X, DISK_MODEL, "disk.model", STR) \
	I(X, DISK_FIRMWARE, "disk.firmware", STR) \
	I(X, DISK_SERIAL, "disk.serial", STR) \
	I(X, DISK_SIZE, "disk.size_bytes", UINT0) \
	I(X, DISK_LBS, "disk.logical_block", STR) \
	I(X, DISK_PBS, "disk.physical_block", STR) \
	I(X, DISK_ROTATIONAL, "disk.rotational", STR) \
	I(X, DISK_QUEUES, "disk.queues", STR) \
	I(X, DISK_QDEPTH, "disk.queue_depth", STR) \
	I(X, DISK_SCHEDULER, "disk.scheduler", STR) \
	I(X, DISK_WRITE_CACHE, "disk.write_cache", STR) \
	I(X, DISK_FUA, "disk.fua", STR) \
	/* INFO before a disk test's TEST: what it touches and how */ \
	I(X, DISK_TEST, "disk.test", STR) \
	I(X, DISK_METHOD, "disk.method", STR) \
	I(X, DISK_SEED, "disk.seed", UINT0) \
	I(X, DISK_BS, "disk.bs", UINT1) \
	I(X, DISK_IODEPTH, "disk.iodepth", UINT1) \
	/* INFO right after a RESULT: the test's verdict on it that is no warning (benchapi.h judge) */ \
	I(X, VERDICT_TEST, "verdict.test", STR) \
	I(X, VERDICT_REASON, "verdict.reason", STR) \
	/* INFO inside a test, after calibration: its deadline moved later (harness.c) */ \
	I(X, DEADLINE_TEST, "deadline.test", STR) \
	I(X, DEADLINE_COPIES, "deadline.copies", UINT1) \
	I(X, DEADLINE_S, "deadline.s", UINT1) \
	I(X, DEADLINE_REASON, "deadline.reason", STR) \
	/* INFO of the net group (registry.c's facts, payload/net/netserve.c, bench/net.c) */ \
	I(X, RUN_PEER, "run.peer", STR) \
	I(X, PEER_HOST, "peer.host", STR) \
	I(X, PEER_KERNEL, "peer.kernel", STR) \
	I(X, PEER_MACHINE, "peer.machine", STR) \
	I(X, PEER_NIC, "peer.nic", STR) \
	I(X, NET_PEER, "net.peer", STR) \
	I(X, NIC_NAME, "nic.name", STR) \
	I(X, NIC_DRIVER, "nic.driver", STR) \
	I(X, NIC_PCI_ID, "nic.pci_id", STR) \
	I(X, NIC_SPEED, "nic.speed_mbps", STR) \
	I(X, NIC_MTU, "nic.mtu", STR) \
	I(X, NIC_QUEUES, "nic.queues", STR) \
	I(X, NIC_OFFLOADS, "nic.offloads", STR) \
	I(X, NIC_IRQ, "nic.irq", STR) \
	I(X, NIC_ADDR, "nic.addr", STR) \
	I(X, SERVE_PORT, "serve.port", PORT) \
	I(X, SERVE_BIND, "serve.bind", STR) \
	I(X, SERVE_MAX_SECONDS, "serve.max_seconds", UINT0) \
	I(X, SERVE_MAX_EGRESS, "serve.max_egress", UINT0) \
	/* INFO: where PID 1's parameters came from (payload/pid1/cloud.c, issue 33) */ \
	I(X, PARAMS_CMDLINE, "params.cmdline", STR) \
	I(X, PARAMS_METADATA, "params.metadata", STR) \
	I(X, CLOUD_PROVIDER, "cloud.provider", STR) \
	I(X, CLOUD_DMI, "cloud.dmi", STR) \
	I(X, CLOUD_USER_DATA, "cloud.user_data", STR) \
	I(X, NIC_DHCP, "nic.dhcp", STR)

#define VOCAB_NOMAX 0	/* hi of an integer without an upper bound */

/* Row shapes: VOCAB_SHAPE_<shape> is a field's "type, lo, hi, values" (see Fields below),
 * named once for every row that has it. */
#define VOCAB_SHAPE_STR STR, 0, 0, NULL
#define VOCAB_SHAPE_INT INT, 0, 0, NULL
#define VOCAB_SHAPE_POS POS, 0, 0, NULL
#define VOCAB_SHAPE_NONNEG NONNEG, 0, 0, NULL
#define VOCAB_SHAPE_UINT0 UINT, 0, VOCAB_NOMAX, NULL	/* a count, 0 allowed */
#define VOCAB_SHAPE_UINT1 UINT, 1, VOCAB_NOMAX, NULL	/* a count of at least 1 */
#define VOCAB_SHAPE_LIST0 LIST, 0, VOCAB_NOMAX, NULL
#define VOCAB_SHAPE_LIST1 LIST, 1, VOCAB_NOMAX, NULL
#define VOCAB_SHAPE_CPUS CPUS, 0, VOCAB_NOMAX, NULL
#define VOCAB_SHAPE_PORT UINT, 0, 65535, NULL
#define VOCAB_SHAPE_FLAG ENUM, 0, 0, "1"	/* there only when set */
#define VOCAB_SHAPE_BOOL ENUM, 0, 0, "0|1"
/* A closed word list as an ENUM's values ("a|b|...|"; the empty last alternative matches no
 * value, which is never empty). */
#define VOCAB_PIPE(w) w "|"
#define VOCAB_SHAPE_UNIT ENUM, 0, 0, VOCAB_UNITS(VOCAB_PIPE)
#define VOCAB_SHAPE_GROUP ENUM, 0, 0, VOCAB_GROUPS(VOCAB_PIPE)
#define VOCAB_SHAPE_BETTER ENUM, 0, 0, REC_BETTER_HIGHER "|" REC_BETTER_LOWER
#define VOCAB_SHAPE_MODE ENUM, 0, 0, REC_MODE_INIT "|" REC_MODE_HOST
#define VOCAB_SHAPE_ERROR_WHAT ENUM, 0, 0, REC_WHAT_PARAM "|" REC_WHAT_TEST
#define VOCAB_SHAPE_WARN_WHAT ENUM, 0, 0, REC_WHAT_CLOCKSOURCE "|" REC_WHAT_RESULT "|" \
	REC_WHAT_METADATA "|" REC_WHAT_TEST "|" REC_WHAT_PARAM "|" REC_WHAT_CPUPOLICY
#define VOCAB_SHAPE_END_STATUS ENUM, 0, 0, REC_STATUS_OK "|" REC_STATUS_FATAL
#define VOCAB_SHAPE_MHZ_METHOD ENUM, 0, 0, REC_MHZ_APERF "|" REC_MHZ_CPPC "|" REC_MHZ_CHAIN "|" \
	REC_MHZ_NONE
#define VOCAB_SHAPE_STOP ENUM, 0, 0, REC_STOP_TARGET "|" REC_STOP_CAP "|" REC_STOP_FUTILE \
	"|" REC_STOP_BUDGET
#define VOCAB_SHAPE_DIGEST_PART ENUM, 0, 0, REC_PART_BEGIN "|" REC_PART_INFO "|" REC_PART_TEST \
	"|" REC_PART_SKIP "|" REC_PART_FAIL "|" REC_PART_WARN "|" REC_PART_ERROR "|" REC_PART_END
#define VOCAB_SHAPE_HEX8 HEX, 8, 8, NULL
#define VOCAB_SHAPE_DISK_KIND ENUM, 0, 0, REC_DISK_BLOCK "|" REC_DISK_FILE
#define VOCAB_SHAPE_RUN_ID HEX, 16, 16, NULL	/* BEGIN run= */
#define VOCAB_SHAPE_CRC32 DASH_HEX, 8, 8, NULL
#define VOCAB_SHAPE_ID64 DASH_HEX, 16, 16, NULL
#define VOCAB_SHAPE_HEXNUM DASH_HEX, 1, 16, NULL

/* Fields: X(KIND, KEY, presence, shape), every kind's but INFO's (VOCAB_FIELDS derives those
 * from VOCAB_INFO_KEYS):
 *   KIND    a kind's ID, or ANY: any kind may carry it;
 *   KEY     a key's ID;
 *   presence REQ: always there; ONE: exactly one of the kind's ONE keys is; OPT: may be;
 *   shape   a VOCAB_SHAPE_<shape> above, "type, lo, hi, values", where
 *   type    UINT (decimal integer in lo..hi, hi VOCAB_NOMAX: no bound), INT (signed decimal
 *           integer), DEC (decimal number, finite), POS (DEC > 0: a rate, a time, a
 *           statistic of positive samples), NONNEG (DEC >= 0), ENUM (one of values,
 *           '|'-separated), HEX (lo..hi lower-case hex digits), DASH_HEX (HEX, or '-' when the fact cannot be
 *           read), LIST (comma list of UINT lo.., one entry per copy), CPUS (comma list, one
 *           entry per copy, of CPU numbers joined by '+', or '-'), STR (free string).
 * A STR may always be '-' (the grammar's "none"). */
#define VOCAB_CORE_FIELDS(X) \
	X(BEGIN, RUN, REQ, RUN_ID) \
	X(BEGIN, VERSION, REQ, STR) \
	X(BEGIN, MODE, REQ, MODE) \
	X(ERROR, WHAT, REQ, ERROR_WHAT) \
	X(ERROR, REASON, REQ, STR) \
	X(ERROR, PARAM, OPT, STR) \
	X(ERROR, VALUE, OPT, STR) \
	X(ERROR, TESTNAME, OPT, STR) \
	X(TEST, TESTNAME, REQ, STR) \
	X(TEST, K, REQ, UINT1) \
	X(TEST, N, REQ, UINT1) \
	X(TEST, COPIES, REQ, UINT1) \
	X(TEST, UNIT, REQ, UNIT) \
	X(TEST, BETTER, REQ, BETTER) \
	X(TEST, GROUP, REQ, GROUP) \
	X(TEST, TITLE, REQ, STR) \
	X(TEST, CLOCKSOURCE, REQ, STR) \
	X(TEST, BASELINE, OPT, POS) \
	X(TEST, PIN, OPT, FLAG) \
	X(SAMPLE, TESTNAME, REQ, STR) \
	X(SAMPLE, COPIES, REQ, UINT1) \
	X(SAMPLE, LOOPS, REQ, LIST0) \
	X(SAMPLE, NS, REQ, LIST0) \
	X(SAMPLE, STEAL, REQ, UINT0) \
	X(SAMPLE, BATCH, REQ, UINT1) \
	X(SAMPLE, VALUE, REQ, NONNEG) \
	X(SAMPLE, RAN_LOOPS, REQ, LIST0) \
	X(SAMPLE, RAN_NS, REQ, LIST0) \
	X(SAMPLE, CPUS, REQ, CPUS) \
	X(SAMPLE, MIGRATIONS, REQ, LIST0) \
	X(SAMPLE, NIVCSW, REQ, LIST0) \
	X(SAMPLE, CPU_NS, REQ, LIST0) \
	X(SAMPLE, I, ONE, UINT0) \
	X(SAMPLE, WARMUP, ONE, FLAG) \
	X(SAMPLE, MHZ, OPT, LIST0) \
	X(SAMPLE, MHZ_METHOD, OPT, MHZ_METHOD) \
	X(SAMPLE, EXTRA, OPT, INT) \
	X(WARN, WHAT, REQ, WARN_WHAT) \
	X(WARN, REASON, REQ, STR) \
	X(WARN, TESTNAME, OPT, STR) \
	X(WARN, COPIES, OPT, UINT1) \
	X(WARN, BEFORE, OPT, STR) \
	X(WARN, AFTER, OPT, STR) \
	X(WARN, REQUESTED, OPT, STR) \
	X(WARN, CURRENT, OPT, STR) \
	X(RESULT, TESTNAME, REQ, STR) \
	X(RESULT, COPIES, REQ, UINT1) \
	X(RESULT, UNIT, REQ, UNIT) \
	X(RESULT, BETTER, REQ, BETTER) \
	X(RESULT, VALUE, REQ, POS) \
	X(RESULT, SAMPLES, REQ, UINT1) \
	X(RESULT, MEDIAN, REQ, POS) \
	X(RESULT, MIN, REQ, POS) \
	X(RESULT, MAX, REQ, POS) \
	X(RESULT, CI95, REQ, NONNEG) \
	X(RESULT, CONVERGED, REQ, BOOL) \
	X(RESULT, STOP, OPT, STOP) \
	X(RESULT, SAMPLES_NEEDED, OPT, UINT1) \
	X(RESULT, WHOLE, OPT, POS) \
	X(RESULT, STEAL_PCT, OPT, NONNEG) \
	X(RESULT, BASELINE, OPT, POS) \
	X(RESULT, INDEX, OPT, POS) \
	X(RESULT, LAT_P50, OPT, UINT0) \
	X(RESULT, LAT_P99, OPT, UINT0) \
	X(RESULT, LAT_P999, OPT, UINT0) \
	X(RESULT, LAT_MAX, OPT, UINT0) \
	X(RESULT, LAT_HIST, OPT, STR) \
	X(RESULT, CYCLES, OPT, NONNEG) \
	X(RESULT, NULL_NS, OPT, UINT0) \
	X(RESULT, CLOCK_NS, OPT, UINT0) \
	X(SKIP, TESTNAME, REQ, STR) \
	X(SKIP, COPIES, REQ, UINT1) \
	X(SKIP, REASON, REQ, STR) \
	X(FAIL, TESTNAME, REQ, STR) \
	X(FAIL, REASON, REQ, STR) \
	X(FAIL, COPIES, OPT, UINT1) \
	X(FAIL, NOTE, OPT, STR) \
	X(FAIL, SIGNAL, OPT, INT) \
	X(FAIL, STATUS, OPT, INT) \
	X(FAIL, WHAT, OPT, STR) \
	X(FAIL, OOM, OPT, UINT1) \
	X(DIGEST, PART, REQ, DIGEST_PART) \
	X(DIGEST, LINES, OPT, UINT1) \
	X(DIGEST, CRC, OPT, HEX8) \
	X(DIGEST, COPIES, OPT, STR) \
	X(DIGEST, VALUE, OPT, STR) \
	X(DIGEST, WHOLE, OPT, STR) \
	X(DIGEST, STEAL_PCT, OPT, STR) \
	X(DIGEST, SAMPLES, OPT, STR) \
	X(DIGEST, MEDIAN, OPT, STR) \
	X(DIGEST, CI95, OPT, STR) \
	X(DIGEST, CONVERGED, OPT, STR) \
	X(DIGEST, STOP, OPT, STR) \
	X(DIGEST, SAMPLES_NEEDED, OPT, STR) \
	X(DIGEST, INDEX, OPT, STR) \
	X(DIGEST, LAT_P50, OPT, STR) \
	X(DIGEST, LAT_P99, OPT, STR) \
	X(DIGEST, LAT_P999, OPT, STR) \
	X(DIGEST, LAT_MAX, OPT, STR) \
	X(DIGEST, CYCLES, OPT, STR) \
	X(DIGEST, CLOCK_NS, OPT, STR) \
	X(END, RECORDS, REQ, UINT1) \
	X(END, RESULTS, REQ, UINT0) \
	X(END, FAILS, REQ, UINT0) \
	X(END, SKIPS, REQ, UINT0) \
	X(END, ERRORS, REQ, UINT0) \
	X(END, STATUS, REQ, END_STATUS) \
	X(END, CLOCKSOURCE, OPT, STR) \
	X(ANY, DROPPED, OPT, UINT1)

/* The whole vocabulary: every key, X(ID, wire name), and every field, X(KIND, KEY, presence,
 * shape); INFO's both from VOCAB_INFO_KEYS. */
#define VOCAB_INFO_KEY(X, id, name, shape) X(id, name)
#define VOCAB_INFO_FIELD(X, id, name, shape) X(INFO, id, OPT, shape)
#define VOCAB_KEYS(X) VOCAB_CORE_KEYS(X) VOCAB_INFO_KEYS(VOCAB_INFO_KEY, X)
#define VOCAB_FIELDS(X) VOCAB_CORE_FIELDS(X) VOCAB_INFO_KEYS(VOCAB_INFO_FIELD, X)

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
/* The groups, units and extras above, in their lists' order; NULL-terminated. */
extern const char *const vocab_groups[];
extern const char *const vocab_units[];
extern const char *const vocab_extras[];
/* A unit's per_loop where the unit fixes it (VOCAB_UNIT_PER_LOOP), else 0 (the test's own). */
double vocab_unit_per_loop(const char *unit);
/* 1 when an extra may be a test's SAMPLE value (VOCAB_VALUE_EXTRAS), with *scale its factor
 * (0.01 for a name ending in _x100, else 1); else 0. */
int vocab_value_extra(const char *key, double *scale);

/* The kind named kind, or -1 when the grammar has no such kind. */
int vocab_kind(const char *kind);
/* The field for key in a record of kind: an exact name first (the kind's, then ANY's), then
 * a name with '*' (vuln.*, exec.*.path, a SAMPLE's extras). NULL: the grammar does not know
 * it (a reader ignores it; a validator may say so). */
const struct vocab_field *vocab_key(const char *kind, const char *key);
/* The kind a DIGEST part= restates (docs/records.md "The digest"): RK_BEGIN for
 * REC_PART_BEGIN, ... RK_TEST for REC_PART_TEST (whose RESULT figures are DIGEST's own
 * lists); NULL for part=end or a word that is no part. */
const char *vocab_part_kind(const char *part);
/* The field for key in a DIGEST record of part: DIGEST's own, else that of the kind the part
 * restates; NULL when neither has it. */
const struct vocab_field *vocab_digest_key(const char *part, const char *key);
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
