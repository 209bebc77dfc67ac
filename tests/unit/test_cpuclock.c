/* test_cpuclock.c — the effective clock from planted APERF/MPERF/TSC reads (payload/cpuclock.c:
 * the formula, a counter that wrapped, a zero delta that is no figure), the chain estimate's
 * arithmetic, CPPC's feedback counters (planted reads, a planted acpi_cppc/ tree), and the
 * CPU policy set and read on a planted sysfs tree (payload/cpupolicy.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/cpuclock.h"
#include "../../payload/cpupolicy.h"
#include "vocab.h"

/* A TSC of 2,300 MHz (230e6 ticks in 100 ms) and a core at 3,000 MHz while in C0: APERF
 * advanced 300e6 for MPERF's 230e6. */
static void aperf_plain(void **st)
{
	(void)st;
	struct cpuclock_read a = {1000, 5000, 77, 1000000000}, b = a;
	b.aperf += 300000000;
	b.mperf += 230000000;
	b.tsc += 230000000;
	b.ns += 100000000;
	assert_float_equal(cpuclock_aperf_mhz(&a, &b), 3000.0, 1e-6);
	/* Half the window idle: both counters stop in C-states, the ratio (the clock) holds. */
	b.aperf = a.aperf + 150000000;
	b.mperf = a.mperf + 115000000;
	assert_float_equal(cpuclock_aperf_mhz(&a, &b), 3000.0, 1e-6);
	/* Below the TSC's rate (a low P-state): 1,150 MHz. */
	b.aperf = a.aperf + 50000000;
	b.mperf = a.mperf + 100000000;
	assert_float_equal(cpuclock_aperf_mhz(&a, &b), 1150.0, 1e-6);
}

/* Every counter wrapped once between the reads: the deltas are still right. */
static void aperf_wrap(void **st)
{
	(void)st;
	struct cpuclock_read a = {UINT64_MAX - 149999999, UINT64_MAX - 99999999,
				  UINT64_MAX - 29999999, UINT64_MAX - 9999999};
	struct cpuclock_read b = {150000000, 130000000, 200000000, 90000000};
	/* deltas: aperf 300e6, mperf 230e6, tsc 230e6, ns 100e6 */
	assert_float_equal(cpuclock_aperf_mhz(&a, &b), 3000.0, 1e-6);
}

/* Counters that read but do not count (QEMU TCG answers MSRs 0xE8/0xE7 with 0) are not the
 * aperf method: the probe falls back to the chain instead of writing mhz=0 in every SAMPLE. */
static void aperf_counts(void **st)
{
	(void)st;
	struct cpuclock_read a = {0, 0, 1000, 1000}, b = {0, 0, 231000, 101000};
	assert_false(cpuclock_aperf_counts(&a, &b));	/* TCG: both read 0 */
	b.aperf = 300000;
	assert_false(cpuclock_aperf_counts(&a, &b));	/* MPERF stands still */
	b.mperf = 230000;
	assert_true(cpuclock_aperf_counts(&a, &b));	/* both count: a clock */
	b.ns = a.ns;
	assert_false(cpuclock_aperf_counts(&a, &b));	/* no time: no figure */
}

/* A zero delta is no figure (0), never a division by zero or infinity. */
static void aperf_zero(void **st)
{
	(void)st;
	struct cpuclock_read a = {10, 20, 30, 40}, b = {110, 20, 130, 140};
	assert_true(cpuclock_aperf_mhz(&a, &b) == 0);	/* mperf did not move */
	b = (struct cpuclock_read){110, 120, 30, 140};
	assert_true(cpuclock_aperf_mhz(&a, &b) == 0);	/* the TSC did not */
	b = (struct cpuclock_read){110, 120, 130, 40};
	assert_true(cpuclock_aperf_mhz(&a, &b) == 0);	/* no time passed */
	assert_true(cpuclock_aperf_mhz(&a, &a) == 0);
}

/* 16,384 more adds in 5,461 more ns: 3,000 MHz; the fixed cost of the two runs cancels. */
static void chain_arith(void **st)
{
	(void)st;
	assert_float_equal(cpuclock_chain_mhz(16384, 6000, 11461), 16384.0 / 5461 * 1000, 1e-9);
	assert_float_equal(cpuclock_chain_mhz(16384, 16484, 32868), 1000.0, 1e-9);
	assert_true(cpuclock_chain_mhz(16384, 5000, 5000) == 0);
	assert_true(cpuclock_chain_mhz(16384, 6000, 5000) == 0);
}

/* The long run took more than twice the short one: twice the adds plus the same fixed cost
 * cannot, so each of its tries was stretched (preempted, an interrupt): no figure, never the
 * ~500 MHz its difference would say (a copy among more copies than CPUs). Within the slack
 * (the clock's own jitter on a fixed cost near 0) the figure stands. */
static void chain_stretched(void **st)
{
	(void)st;
	assert_true(cpuclock_chain_mhz(16384, 5461, 38000) == 0);
	assert_true(cpuclock_chain_mhz(16384, 5461, 2 * 5461 + 300) == 0);
	assert_float_equal(cpuclock_chain_mhz(16384, 5461, 2 * 5461 + 20),
			   16384.0 / (5461 + 20) * 1000, 1e-9);
}

static void method_names(void **st)
{
	(void)st;
	assert_string_equal(cpuclock_method_name(CPUCLOCK_APERF), REC_MHZ_APERF);
	assert_string_equal(cpuclock_method_name(CPUCLOCK_CHAIN), REC_MHZ_CHAIN);
	assert_string_equal(cpuclock_method_name(CPUCLOCK_CPPC), REC_MHZ_CPPC);
	assert_string_equal(cpuclock_method_name(CPUCLOCK_NONE), REC_MHZ_NONE);
}

/* ---- cpupolicy on a planted tree ---- */

static char root[64];

static void plant(const char *rel, const char *val)
{
	char path[256], cmd[300];
	snprintf(path, sizeof path, "%s%s", root, rel);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", val);
	fclose(f);
}

static void slurp(const char *rel, char *out, size_t n)
{
	char path[256];
	snprintf(path, sizeof path, "%s%s", root, rel);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(out, (int)n, f));
	out[strcspn(out, "\n")] = 0;
	fclose(f);
}

static void mkroot(void)
{
	strcpy(root, "/tmp/test_cpupolicy.XXXXXX");
	assert_non_null(mkdtemp(root));
	strcat(root, "/");
}

static void rmroot(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void policy_set_and_read(void **st)
{
	(void)st;
	struct params p;
	char v[512];

	mkroot();
	plant("cpufreq/policy0/scaling_governor", "powersave");
	plant("cpufreq/policy1/scaling_governor", "powersave");
	plant("cpu0/cpufreq/scaling_driver", "intel_pstate");
	plant("cpu0/cpufreq/energy_performance_preference", "balance_performance");
	plant("cpu0/cpufreq/cpuinfo_max_freq", "3900000");
	plant("cpu0/cpufreq/base_frequency", "2300000");
	plant("intel_pstate/no_turbo", "0");
	plant("cpu0/cpuidle/state0/name", "POLL");
	plant("cpu0/cpuidle/state0/latency", "0");
	plant("cpu0/cpuidle/state0/disable", "0");
	plant("cpu0/cpuidle/state1/name", "C1");
	plant("cpu0/cpuidle/state1/latency", "2");
	plant("cpu0/cpuidle/state1/disable", "0");
	plant("cpu0/cpuidle/state2/name", "C6");
	plant("cpu0/cpuidle/state2/latency", "170");
	plant("cpu0/cpuidle/state2/disable", "0");
	plant("cpuidle/current_driver", "intel_idle");

	/* A host without --cpufreq: nothing changes. */
	params_init(&p);
	cpupolicy_apply(&p, 0, root);
	slurp("cpufreq/policy1/scaling_governor", v, sizeof v);
	assert_string_equal(v, "powersave");
	cpupolicy_fact(root, RK_CPUFREQ_SET, v, sizeof v);
	assert_non_null(strstr(v, "not asked"));

	/* The image's default: performance on every policy; boost off; idle up to 10 us. */
	p.boost = 2;
	p.idle_max_us = 10;
	cpupolicy_apply(&p, 1, root);
	slurp("cpufreq/policy0/scaling_governor", v, sizeof v);
	assert_string_equal(v, CPUPOLICY_DEFAULT_IMAGE);
	slurp("cpufreq/policy1/scaling_governor", v, sizeof v);
	assert_string_equal(v, CPUPOLICY_DEFAULT_IMAGE);
	slurp("intel_pstate/no_turbo", v, sizeof v);
	assert_string_equal(v, "1");
	slurp("cpu0/cpuidle/state2/disable", v, sizeof v);
	assert_string_equal(v, "1");
	slurp("cpu0/cpuidle/state1/disable", v, sizeof v);
	assert_string_equal(v, "0");
	cpupolicy_fact(root, RK_CPUFREQ_SET, v, sizeof v);
	assert_string_equal(v, "performance: set on 2 policies; boost off: set (intel_pstate no_turbo)");
	cpupolicy_fact(root, RK_CPUIDLE_SET, v, sizeof v);
	assert_string_equal(v, "max 10 us: 1 of 3 states disabled (cpu0: C6)");

	cpupolicy_fact(root, RK_CPU_GOVERNOR, v, sizeof v);
	assert_string_equal(v, "performance");
	cpupolicy_fact(root, RK_CPUFREQ_DRIVER, v, sizeof v);
	assert_string_equal(v, "intel_pstate");
	cpupolicy_fact(root, RK_CPUFREQ_BOOST, v, sizeof v);
	assert_string_equal(v, "off (intel_pstate no_turbo=1)");
	cpupolicy_fact(root, RK_CPUFREQ_EPP, v, sizeof v);
	assert_string_equal(v, "balance_performance");
	cpupolicy_fact(root, RK_CPUFREQ_BASE_KHZ, v, sizeof v);
	assert_string_equal(v, "2300000");
	cpupolicy_fact(root, RK_CPUFREQ_MIN_KHZ, v, sizeof v);
	assert_string_equal(v, "none: the driver does not say");
	cpupolicy_fact(root, RK_CPUIDLE_DRIVER, v, sizeof v);
	assert_string_equal(v, "intel_idle");
	cpupolicy_fact(root, RK_CPUIDLE_STATES, v, sizeof v);
	assert_string_equal(v, "POLL latency=0us disabled=0; C1 latency=2us disabled=0; "
			       "C6 latency=170us disabled=1");
	rmroot();
}

/* No cpufreq or cpuidle at all (TCG, our kernel before its cpufreq symbols): every fact says
 * so in words, and the image's default says it could not apply. */
static void policy_none(void **st)
{
	(void)st;
	struct params p;
	char v[512];
	static const char *const keys[] = {
		RK_CPUFREQ_DRIVER, RK_CPU_GOVERNOR, RK_CPUFREQ_BOOST, RK_CPUFREQ_EPP,
		RK_CPUFREQ_MAX_KHZ, RK_CPUIDLE_DRIVER, RK_CPUIDLE_STATES, NULL};

	mkroot();
	plant("cpu0/online", "1");
	params_init(&p);
	p.boost = 1;
	cpupolicy_apply(&p, 1, root);
	for (int k = 0; keys[k]; k++) {
		cpupolicy_fact(root, keys[k], v, sizeof v);
		assert_non_null(strstr(v, "none: no cpu"));
	}
	cpupolicy_fact(root, RK_CPU_NO_TURBO, v, sizeof v);
	assert_string_equal(v, "none: not intel_pstate");
	cpupolicy_fact(root, RK_CPUFREQ_SET, v, sizeof v);
	assert_string_equal(v, "performance: not applied (none: no cpufreq driver); boost on: not "
			       "applied (none: the platform gives the OS no boost switch)");
	rmroot();
}

/* What was asked and not done is said, with the kernel's reason, in cpupolicy_refused() (the
 * runner's WARN what=cpupolicy): a policy file the kernel refuses (planted as a directory:
 * EISDIR even for root, as a governor the driver does not offer gives EINVAL and a non-root
 * user EACCES), an idle state refused likewise, a switch the platform lacks. The image's own
 * default, where there is no cpufreq driver at all (a guest), is no refusal. */
static void policy_refused(void **st)
{
	(void)st;
	struct params p;
	char v[512];

	mkroot();
	plant("cpufreq/policy0/scaling_governor", "powersave");
	plant("cpufreq/policy1/scaling_governor/x", "");	/* a directory: the write fails */
	plant("cpu0/cpuidle/state0/name", "POLL");
	plant("cpu0/cpuidle/state0/latency", "0");
	plant("cpu0/cpuidle/state0/disable", "0");
	plant("cpu0/cpuidle/state1/name", "C6");
	plant("cpu0/cpuidle/state1/latency", "170");
	plant("cpu0/cpuidle/state1/disable/x", "");
	params_init(&p);
	strcpy(p.cpufreq, "schedutil");
	p.boost = 1;
	p.idle_max_us = 0;
	cpupolicy_apply(&p, 0, root);
	cpupolicy_fact(root, RK_CPUIDLE_SET, v, sizeof v);
	assert_string_equal(v, "max 0 us: 0 of 2 states disabled (cpu0: none); 1 refused (cpu0 "
			       "state1: Is a directory)");
	assert_string_equal(cpupolicy_refused(), "cpufreq schedutil: set on 1 of 2 policies, "
			    "refused on policy1 (Is a directory); boost on: not applied (none: the "
			    "platform gives the OS no boost switch); idle max 0 us: 1 refused (cpu0 "
			    "state1: Is a directory)");
	rmroot();

	/* Asked on a machine without cpufreq: said; the image's default there: not a refusal. */
	mkroot();
	plant("cpu0/online", "1");
	params_init(&p);
	strcpy(p.cpufreq, "performance");
	cpupolicy_apply(&p, 0, root);
	assert_string_equal(cpupolicy_refused(), "cpufreq performance: not applied (none: no "
			    "cpufreq driver)");
	params_init(&p);
	cpupolicy_apply(&p, 1, root);
	assert_string_equal(cpupolicy_refused(), "");
	params_init(&p);
	cpupolicy_apply(&p, 0, root);	/* a host, nothing asked */
	assert_string_equal(cpupolicy_refused(), "");
	rmroot();
}

/* A host's policy, changed because it was asked, is put back as it was when the run ends
 * (cpupolicy_restore()): a laptop asked for --idle 0 must not keep every C-state off until
 * its next boot. The image (nothing of the user's to keep) is not restored. */
static void policy_restored(void **st)
{
	(void)st;
	struct params p;
	char v[512];

	mkroot();
	plant("cpufreq/policy0/scaling_governor", "powersave");
	plant("cpufreq/policy1/scaling_governor", "schedutil");
	plant("intel_pstate/no_turbo", "0");
	plant("cpu0/cpuidle/state0/latency", "0");
	plant("cpu0/cpuidle/state0/disable", "0");
	plant("cpu0/cpuidle/state1/latency", "170");
	plant("cpu0/cpuidle/state1/disable", "0");
	params_init(&p);
	strcpy(p.cpufreq, "performance");
	p.boost = 2;
	p.idle_max_us = 0;
	cpupolicy_apply(&p, 0, root);
	slurp("cpufreq/policy1/scaling_governor", v, sizeof v);
	assert_string_equal(v, "performance");
	slurp("cpu0/cpuidle/state1/disable", v, sizeof v);
	assert_string_equal(v, "1");
	cpupolicy_restore();
	slurp("cpufreq/policy0/scaling_governor", v, sizeof v);
	assert_string_equal(v, "powersave");
	slurp("cpufreq/policy1/scaling_governor", v, sizeof v);
	assert_string_equal(v, "schedutil");
	slurp("intel_pstate/no_turbo", v, sizeof v);
	assert_string_equal(v, "0");
	slurp("cpu0/cpuidle/state1/disable", v, sizeof v);
	assert_string_equal(v, "0");
	/* The image: set, and left so. */
	cpupolicy_apply(&p, 1, root);
	cpupolicy_restore();
	slurp("cpufreq/policy0/scaling_governor", v, sizeof v);
	assert_string_equal(v, "performance");
	rmroot();
}

/* ---- cppc: ACPI CPPC feedback counters (planted reads and a planted acpi_cppc/ tree) ---- */

/* An Ampere-like scale: nominal_perf 100 at nominal_freq 3000 MHz, reference_perf 25 (the
 * reference counter ticks at a quarter of nominal: 25 MHz-like). Delivered 120 over 25 per
 * reference tick x 4 is perf 120: 3,600 MHz. */
static void cppc_formula(void **st)
{
	(void)st;
	struct cpuclock_cppc a = {1000, 7000, 25, 100, 3000}, b = a;
	b.ref += 25000000;
	b.del += 120000000;
	assert_float_equal(cpuclock_cppc_mhz(&a, &b), 25.0 * 120 / 25 * 3000 / 100, 1e-6);
	assert_float_equal(cpuclock_cppc_mhz(&a, &b), 3600.0, 1e-6);
	/* The reference counter at nominal (reference_perf = nominal_perf), half speed: 1,500. */
	b.ref_perf = 100;
	b.ref = a.ref + 40000000;
	b.del = a.del + 20000000;
	assert_float_equal(cpuclock_cppc_mhz(&a, &b), 1500.0, 1e-6);
	/* Both counters wrapped once: the deltas stand. */
	struct cpuclock_cppc w0 = {UINT64_MAX - 9999999, UINT64_MAX - 4999999, 100, 100, 3000};
	struct cpuclock_cppc w1 = {30000000, 15000000, 100, 100, 3000};
	assert_float_equal(cpuclock_cppc_mhz(&w0, &w1), 3000.0 * 20 / 40, 1e-6);
	/* No reference ticks, or a 0 in the scale: no figure. */
	assert_true(cpuclock_cppc_mhz(&a, &a) == 0);
	b.nom_mhz = 0;
	assert_true(cpuclock_cppc_mhz(&a, &b) == 0);
}

/* The read through a planted root: the counters and scale parsed; reference_perf absent is
 * nominal_perf; a missing feedback_ctrs, garbage in it, or no nominal_freq is no method. */
static void cppc_read_tree(void **st)
{
	(void)st;
	struct cpuclock_cppc r;
	char why[300];

	mkroot();
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	assert_non_null(strstr(why, "cpu3/acpi_cppc/feedback_ctrs: absent"));
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:123456789012 del:98765432109");
	plant("cpu3/acpi_cppc/nominal_perf", "100");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	assert_non_null(strstr(why, "without a MHz scale"));
	plant("cpu3/acpi_cppc/nominal_freq", "2800");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), 0);
	assert_true(r.ref == 123456789012ULL && r.del == 98765432109ULL);
	assert_true(r.nom_perf == 100 && r.nom_mhz == 2800 && r.ref_perf == 100);
	plant("cpu3/acpi_cppc/reference_perf", "25");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), 0);
	assert_true(r.ref_perf == 25);
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:12 del:x9");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	assert_non_null(strstr(why, "not 'ref:R del:D'"));
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:12 del:9 more");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	/* no sign, no blank after the ':', nothing past a 64-bit counter (sscanf took all three) */
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:+12 del:9");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref: 12 del:9");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:18446744073709551616 del:9");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), -1);
	plant("cpu3/acpi_cppc/feedback_ctrs", "ref:18446744073709551615 del:9");
	assert_int_equal(cpuclock_cppc_read(root, 3, &r, why, sizeof why), 0);
	assert_true(r.ref == UINT64_MAX && r.del == 9);
	rmroot();
}

/* Counters that read but stand still (a planted tree; a firmware that never updates them)
 * are not the cppc method: the probe says so and the run keeps the chain. */
static void cppc_probe_still(void **st)
{
	(void)st;
	char why[300];

	mkroot();
	plant("cpu0/acpi_cppc/feedback_ctrs", "ref:1000 del:2000");
	plant("cpu0/acpi_cppc/nominal_perf", "100");
	plant("cpu0/acpi_cppc/nominal_freq", "3000");
	assert_int_equal(cpuclock_cppc_probe(root, 0, why, sizeof why), 0);
	assert_non_null(strstr(why, "CPPC not counting"));
	rmroot();
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(aperf_plain),
		cmocka_unit_test(aperf_wrap),
		cmocka_unit_test(aperf_zero),
		cmocka_unit_test(aperf_counts),
		cmocka_unit_test(chain_arith),
		cmocka_unit_test(chain_stretched),
		cmocka_unit_test(method_names),
		cmocka_unit_test(cppc_formula),
		cmocka_unit_test(cppc_read_tree),
		cmocka_unit_test(cppc_probe_still),
		cmocka_unit_test(policy_set_and_read),
		cmocka_unit_test(policy_none),
		cmocka_unit_test(policy_refused),
		cmocka_unit_test(policy_restored),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
