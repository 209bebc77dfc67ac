/* test_params.c — the parameter table: kernel command line and CLI values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../payload/params.h"

struct errs {
	int n;
	char param[8][64], reason[8][160];
};

static void collect(void *arg, const char *param, const char *value, const char *reason)
{
	struct errs *e = arg;
	(void)value;
	if (e->n < 8) {
		snprintf(e->param[e->n], 64, "%s", param);
		snprintf(e->reason[e->n], 160, "%s", reason);
		e->n++;
	}
}

struct twice {
	int n;
	char line[4][200];
};

static void twice_seen(void *arg, const char *key, const char *first, const char *kept, int times)
{
	struct twice *t = arg;
	if (t->n < 4)
		snprintf(t->line[t->n++], 200, "%s %s %s %d", key, first, kept, times);
}

/* A key the command line gives more than once is reported once, with its first and its last
 * (kept) value; a key given once, a word without '=', another prefix are not (issue 51). */
static void cmdline_key_twice(void **st)
{
	(void)st;
	struct twice t = {0};
	struct params p;
	params_cmdline_twice("isobench.tests=syscall quiet isobench.copies=1 isobench.tests=pipe "
			     "isobench.sample_ms=\"50\" isobench.tests=getpid xisobench.copies=2 "
			     "isobench.sample_ms=60 isobench.halt", twice_seen, &t);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.line[0], "tests syscall getpid 3");
	assert_string_equal(t.line[1], "sample_ms 50 60 2");
	/* the value kept is the last, as the warning says */
	params_init(&p);
	params_from_cmdline(&p, "isobench.tests=syscall isobench.tests=pipe", NULL, NULL);
	assert_string_equal(p.tests, "pipe");
	t.n = 0;
	params_cmdline_twice("isobench.tests=syscall isobench.copies=1", twice_seen, &t);
	assert_int_equal(t.n, 0);
}

static void defaults(void **st)
{
	(void)st;
	struct params p;
	params_init(&p);
	params_finish(&p, 4);
	assert_int_equal(p.suite, SUITE_STANDARD);
	assert_string_equal(p.tests, "index");
	assert_int_equal(p.ncopies, 2);
	assert_int_equal(p.copies[0], 1);
	assert_int_equal(p.copies[1], 4);
	assert_int_equal(p.sample_ms, 500);
	assert_int_equal(p.halt, HALT_POWEROFF);
	/* 1,N on one CPU is a single pass. */
	params_init(&p);
	params_finish(&p, 1);
	assert_int_equal(p.ncopies, 1);
	assert_int_equal(p.copies[0], 1);
	assert_int_equal(p.all_cpus, 1);	/* that one pass is also the all-CPUs pass */
}

/* The all-CPUs pass (INFO run.all_cpus): the pass with one copy per online CPU, N or the
 * count written out; none when no pass has as many. */
static void all_cpus_pass(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	params_finish(&p, 4);
	assert_int_equal(p.all_cpus, 4);
	params_init(&p);
	params_from_cmdline(&p, "isobench.copies=1,2", collect, &e);
	params_finish(&p, 2);
	assert_int_equal(p.all_cpus, 2);
	params_init(&p);
	params_from_cmdline(&p, "isobench.copies=1,2", collect, &e);
	params_finish(&p, 4);
	assert_int_equal(p.all_cpus, 0);
}

/* isobench.disk.seed: a fresh seed each run unless given (two runs' draws differ), kept when
 * given; 0 and past 2^31-1 refused. */
static void disk_seed(void **st)
{
	(void)st;
	struct params a, b;
	struct errs e = {0};
	params_init(&a);
	params_finish(&a, 2);
	params_init(&b);
	params_finish(&b, 2);
	assert_true(a.disk_seed >= 1 && b.disk_seed >= 1);
	assert_int_not_equal(a.disk_seed, b.disk_seed);	/* 1 in 2^31 to collide */
	params_init(&a);
	params_from_cmdline(&a, "isobench.disk.seed=20261201", collect, &e);
	params_finish(&a, 2);
	assert_int_equal(a.disk_seed, 20261201);
	params_init(&a);
	params_from_cmdline(&a, "isobench.disk.seed=0 isobench.disk.seed=2147483648", collect, &e);
	assert_int_equal(e.n, 2);
	params_finish(&a, 2);
	assert_true(a.disk_seed >= 1);
}

static void cmdline_order_independent(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	/* sample_ms given before the suite still wins over the suite's preset. */
	params_from_cmdline(&p, "console=ttyS0 isobench.sample_ms=250 ro "
			    "isobench.suite=quick isobench.tests=pipe,syscall "
			    "isobench.copies=2,N -- isobench.halt=wait", collect, &e);
	params_finish(&p, 8);
	assert_int_equal(e.n, 0);
	assert_int_equal(p.suite, SUITE_QUICK);
	assert_int_equal(p.sample_ms, 250);
	assert_int_equal(p.min_samples, 3);
	assert_string_equal(p.tests, "pipe,syscall");
	assert_int_equal(p.ncopies, 2);
	assert_int_equal(p.copies[0], 2);
	assert_int_equal(p.copies[1], 8);
	assert_int_equal(p.halt, HALT_WAIT);
}

static void bad_input_reported(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	params_from_cmdline(&p, "isobench.suite=fast isobench.bogus=1 isobench.copies=0 "
			    "isobench.samples=9-3 isobench.sample_ms=12x isobench.halt",
			    collect, &e);
	params_finish(&p, 2);
	assert_int_equal(e.n, 6);
	assert_string_equal(e.param[0], "isobench.suite");
	assert_non_null(strstr(e.reason[0], "quick, standard or thorough"));
	assert_string_equal(e.param[1], "isobench.bogus");
	assert_string_equal(e.reason[1], "unknown parameter");
	assert_string_equal(e.param[5], "isobench.halt");
	/* Defaults survive every bad value. */
	assert_int_equal(p.suite, SUITE_STANDARD);
	assert_int_equal(p.copies[0], 1);
	assert_int_equal(p.sample_ms, 500);
}

static void quoted_words(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	params_from_cmdline(&p, "foo=\"a b\" isobench.image=\"abc def\"", collect, &e);
	assert_int_equal(e.n, 0);
	assert_string_equal(p.image, "abc def");
}

static void samples_range(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	params_init(&p);
	assert_int_equal(params_set(&p, "samples", "4-12", err, sizeof err), 0);
	params_finish(&p, 1);
	assert_int_equal(p.min_samples, 4);
	assert_int_equal(p.max_samples, 12);
	assert_int_not_equal(params_set(&p, "samples", "0", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "ci", "-1", err, sizeof err), 0);
	assert_int_equal(params_set(&p, "ci", "2.5", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "copies", "1,2,3,4,5,6,7,8,9", err, sizeof err), 0);
}

static void pin_key(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	char err[160];
	params_init(&p);
	assert_int_equal(p.pin, 0);
	params_from_cmdline(&p, "quiet isobench.pin=1", collect, &e);
	assert_int_equal(e.n, 0);
	assert_int_equal(p.pin, 1);
	assert_int_equal(params_set(&p, "pin", "0", err, sizeof err), 0);
	assert_int_equal(p.pin, 0);
	assert_int_equal(params_set(&p, "pin", "yes", err, sizeof err), -EINVAL);
	assert_string_equal(err, "expected 0 or 1");
	assert_int_equal(p.pin, 0);
}

/* isobench.console=, delay=, replay= (issue 11): defaults, good values, bad ones refused. */
static void console_delay_replay(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	params_init(&p);
	assert_string_equal(p.console, "auto");
	assert_int_equal(p.delay_s, 0);
	assert_int_equal(p.replay, 0);
	assert_int_equal(params_set(&p, "console", "ttyS1,hvc0,tty0", err, sizeof err), 0);
	assert_string_equal(p.console, "ttyS1,hvc0,tty0");
	assert_int_equal(params_set(&p, "console", "ttyAMA0,hvc0", err, sizeof err), 0);
	assert_string_equal(p.console, "ttyAMA0,hvc0");	/* arm64's PL011 by name */
	assert_int_not_equal(params_set(&p, "console", "ttyAMA4", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "console", "ttyAMA", err, sizeof err), 0);
	assert_int_equal(params_set(&p, "console", "ttyS1,hvc0,tty0", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "console", "../sda", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "console", "", err, sizeof err), 0);
	assert_string_equal(p.console, "ttyS1,hvc0,tty0");	/* a bad value keeps the last */
	assert_int_equal(params_set(&p, "delay", "30", err, sizeof err), 0);
	/* A blank first is refused (the table above), other white space skipped as strtol(3)
	 * always did: kept through lib/num.h. */
	assert_int_equal(params_set(&p, "delay", "\t31", err, sizeof err), 0);
	assert_int_equal(p.delay_s, 31);
	assert_int_equal(params_set(&p, "delay", "30", err, sizeof err), 0);
	assert_int_equal(p.delay_s, 30);
	assert_int_not_equal(params_set(&p, "delay", "3601", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "delay", "-1", err, sizeof err), 0);
	assert_int_equal(params_set(&p, "replay", "1", err, sizeof err), 0);
	assert_int_equal(p.replay, 1);
	assert_int_not_equal(params_set(&p, "replay", "yes", err, sizeof err), 0);
}

/* Every row of the table is parsed by its own callback: a key the table names is never
 * "unknown", and a key it does not name always is. */
static void table_drives_parsing(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	int rows = 0;

	params_init(&p);
	for (int i = 0; param_table[i].key; i++, rows++) {
		assert_non_null(param_table[i].parse);
		assert_non_null(param_table[i].values);
		assert_non_null(param_table[i].help);
		assert_true(param_table[i].field + param_table[i].size <= sizeof p);
		/* "" is no valid value of any row: refused by the row, not as unknown. */
		assert_int_equal(params_set(&p, param_table[i].key, "", err, sizeof err), -EINVAL);
		assert_string_not_equal(err, "unknown parameter");
	}
	assert_int_equal(rows, 29);	/* + disk, disk.span (issue 20), peer (issue 17), round, ab_side (issue 35),
					 * mem.array (issue 36), serve, serve_seconds, metadata (issue 33),
					 * cpufreq, boost, idle, disk.seed, repeat (issue 45), ab_pos (issue 46) */
	/* ab_pos: 1 or 2, a run's place in its A/B round */
	assert_int_equal(params_set(&p, "ab_pos", "2", err, sizeof err), 0);
	assert_int_equal(p.ab_pos, 2);
	assert_int_not_equal(params_set(&p, "ab_pos", "3", err, sizeof err), 0);
	assert_int_equal(ab_side_at(1, 1), 1);	/* round 1: A B */
	assert_int_equal(ab_side_at(1, 2), 2);
	assert_int_equal(ab_side_at(2, 1), 2);	/* round 2: B A */
	assert_int_equal(ab_side_at(2, 2), 1);
	/* The CPU's clock policy (cpupolicy.h): not given by default; a governor's name, firmware,
	 * boost's three words, idle's all or a latency */
	assert_string_equal(p.cpufreq, "");
	assert_int_equal(p.boost, 0);
	assert_int_equal(p.idle_max_us, -1);
	assert_int_equal(params_set(&p, "cpufreq", "schedutil", err, sizeof err), 0);
	assert_string_equal(p.cpufreq, "schedutil");
	assert_int_equal(params_set(&p, "cpufreq", "Performance!", err, sizeof err), -EINVAL);
	assert_string_equal(p.cpufreq, "schedutil");
	assert_int_equal(params_set(&p, "boost", "off", err, sizeof err), 0);
	assert_int_equal(p.boost, 2);
	assert_int_equal(params_set(&p, "boost", "maybe", err, sizeof err), -EINVAL);
	assert_string_equal(err, "expected firmware, on or off");
	assert_int_equal(params_set(&p, "idle", "10", err, sizeof err), 0);
	assert_int_equal(p.idle_max_us, 10);
	assert_int_equal(params_set(&p, "idle", "all", err, sizeof err), 0);
	assert_int_equal(p.idle_max_us, -1);
	assert_int_equal(params_set(&p, "idle", "-3", err, sizeof err), -EINVAL);
	assert_int_equal(p.idle_max_us, -1);
	/* repeat (issue 45): runs in one boot, 1..PARAM_RUNS_MAX; nonsense refused, never a hang */
	assert_int_equal(params_set(&p, "repeat", "3", err, sizeof err), 0);
	assert_int_equal(p.repeat, 3);
	assert_int_equal(params_set(&p, "repeat", "0", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "repeat", "1001", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "repeat", "-1", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "repeat", "99999999999999999999", err, sizeof err), -EINVAL);
	assert_int_equal(p.repeat, 3);
	/* metadata: auto (0) or off (1), nothing else */
	assert_int_equal(params_set(&p, "metadata", "off", err, sizeof err), 0);
	assert_int_equal(p.metadata_off, 1);
	assert_int_equal(params_set(&p, "metadata", "on", err, sizeof err), -EINVAL);
	assert_string_equal(err, "expected auto or off");
	assert_int_equal(params_set(&p, "metadata", "auto", err, sizeof err), 0);
	assert_int_equal(p.metadata_off, 0);
	/* STREAM's working set: a size of at least 1 MiB; pin says it was given */
	assert_int_equal(params_set(&p, "mem.array", "512M", err, sizeof err), 0);
	assert_int_equal(p.mem_array, 512ll << 20);
	assert_int_equal(params_set(&p, "mem.array", "1000K", err, sizeof err), -EINVAL);
	assert_int_equal(p.mem_array, 512ll << 20);
	assert_int_equal(p.pin_given, 0);
	assert_int_equal(params_set(&p, "pin", "0", err, sizeof err), 0);
	assert_int_equal(p.pin_given, 1);
	/* interleaved A/B: the round and the side a run is (INFO run.round, run.ab_side) */
	assert_int_equal(params_set(&p, "round", "3", err, sizeof err), 0);
	assert_int_equal(p.round, 3);
	assert_int_equal(params_set(&p, "round", "0", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "ab_side", "b", err, sizeof err), 0);
	assert_string_equal(params_ab_sides[p.ab_side], "b");
	assert_int_equal(params_set(&p, "ab_side", "c", err, sizeof err), -EINVAL);
	/* the image as the peer: a switch and its life (payload/pid1/peer.h) */
	assert_int_equal(p.serve_s, 3600);
	assert_int_equal(params_set(&p, "serve", "1", err, sizeof err), 0);
	assert_int_equal(p.serve, 1);
	assert_int_equal(params_set(&p, "serve", "2", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "serve_seconds", "45", err, sizeof err), 0);
	assert_int_equal(p.serve_s, 45);
	assert_int_equal(params_set(&p, "serve_seconds", "0", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "serve_seconds", "2592001", err, sizeof err), -EINVAL);
	assert_int_equal(params_set(&p, "Suite", "quick", err, sizeof err), -ENOENT);
	assert_string_equal(err, "unknown parameter");
	assert_int_equal(params_set(&p, "", "1", err, sizeof err), -ENOENT);
}

/* Each row: a good value and where it lands, each bad value and its one-line reason, the
 * value before the bad one kept. */
static const struct {
	const char *key, *good, *bad, *reason;
} cases[] = {
	{"suite", "thorough", "fast", "expected quick, standard or thorough"},
	{"suite", "quick", "Quick", "expected quick, standard or thorough"},
	{"tests", "pipe,syscall", ",", "expected a comma list of names"},
	{"tests", "index", "", "expected a comma list of names"},
	{"copies", "1,N", "0", "'0' is not a copy count (1..4096 or N)"},
	{"copies", "4096", "4097", "'4097' is not a copy count (1..4096 or N)"},
	{"copies", "N", ",", "expected a comma list such as 1,N"},
	{"copies", "2", "", "expected a comma list such as 1,N"},
	{"sample_ms", "10", "9", "expected milliseconds, 10..60000"},
	{"sample_ms", "60000", "60001", "expected milliseconds, 10..60000"},
	{"sample_ms", "50", "+50", "expected milliseconds, 10..60000"},
	{"sample_ms", "50", "50ms", "expected milliseconds, 10..60000"},
	{"sample_ms", "50", " 50", "expected milliseconds, 10..60000"},
	{"sample_ms", "50", "0x20", "expected milliseconds, 10..60000"},
	{"sample_ms", "50", "99999999999999999999", "expected milliseconds, 10..60000"},
	{"samples", "3-9", "9-3", "expected MIN or MIN-MAX, 1..1000"},
	{"samples", "1000", "1001", "expected MIN or MIN-MAX, 1..1000"},
	{"samples", "5", "5-", "expected MIN or MIN-MAX, 1..1000"},
	{"samples", "5", "123456789012345678901234567890123", "expected MIN or MIN-MAX"},
	{"ci", "100", "0", "expected a percentage, 0 < PCT <= 100"},
	{"ci", "0.5", "100.1", "expected a percentage, 0 < PCT <= 100"},
	{"ci", "1", "1%", "expected a percentage, 0 < PCT <= 100"},
	{"timeout", "86400", "0", "expected seconds, 1..86400"},
	{"watchdog", "604800", "604801", "expected seconds, 1..604800"},
	{"halt", "reboot", "halt", "expected poweroff, reboot or wait"},
	{"pin", "1", "01", "expected 0 or 1"},
	{"image", "abc", "", "expected an identity string"},
	{"console", "all", "tty S0", "'tty S0' is not a console: expected auto or all alone, or "
				     "devices among ttyS0-3, ttyAMA0-3, hvc0-7, tty0"},
	{"console", "ttyS1", "sda", "'sda' is not a console: expected auto or all alone, or "
				    "devices among ttyS0-3, ttyAMA0-3, hvc0-7, tty0"},
	{"console", "ttyS1", "ttyS0,,tty0", "item 2 of the list is empty"},
	{"console", "ttyS1", ",", "expected auto, all or a comma list of ttyS0-3, ttyAMA0-3, hvc0-7, tty0"},
	{"copies", "1,2", "1,,2", "item 2 of the list is empty"},
	{"copies", "1,2", "1,", "item 2 of the list is empty"},
	{"tests", "pipe", ",pipe", "item 1 of the list is empty"},
	{"delay", "3600", "3601", "expected seconds, 0..3600"},
	{"replay", "1", "2", "expected 0 or 1"},
	{"replay", "0", "yes", "expected 0 or 1"},
};

static void every_row_good_and_bad(void **st)
{
	(void)st;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct params p, before;
		char err[160] = "";
		params_init(&p);
		assert_int_equal(params_set(&p, cases[i].key, cases[i].good, err, sizeof err), 0);
		before = p;
		if (params_set(&p, cases[i].key, cases[i].bad, err, sizeof err) != -EINVAL)
			fail_msg("%s=%s was accepted", cases[i].key, cases[i].bad);
		if (strcmp(err, cases[i].reason))
			fail_msg("%s=%s: reason '%s', want '%s'", cases[i].key, cases[i].bad, err,
				 cases[i].reason);
		assert_memory_equal(&p, &before, sizeof p);
	}
}

/* Where each good value lands. */
static void values_land(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	struct errs e = {0};

	params_init(&p);
	params_from_cmdline(&p, "isobench.suite=thorough isobench.copies=3,N,2 "
			    "isobench.samples=7-9 isobench.ci=2.5 isobench.timeout=77 "
			    "isobench.watchdog=900 isobench.halt=reboot isobench.image=x1 "
			    "isobench.console=ttyS1,tty0 isobench.delay=5 isobench.replay=1 "
			    "isobench.pin=1 isobench.tests=index,probes isobench.sample_ms=1000",
			    collect, &e);
	assert_int_equal(e.n, 0);
	assert_int_equal(p.suite, SUITE_THOROUGH);
	assert_int_equal(p.ncopies, 3);
	assert_int_equal(p.copies[0], 3);
	assert_int_equal(p.copies[1], 0);
	assert_int_equal(p.copies[2], 2);
	assert_int_equal(p.min_samples, 7);
	assert_int_equal(p.max_samples, 9);
	assert_true(p.target_ci_pct == 2.5);
	assert_int_equal(p.test_timeout_s, 77);
	assert_int_equal(p.watchdog_s, 900);
	assert_int_equal(p.halt, HALT_REBOOT);
	assert_string_equal(p.image, "x1");
	assert_string_equal(p.console, "ttyS1,tty0");
	assert_int_equal(p.delay_s, 5);
	assert_int_equal(p.replay, 1);
	assert_int_equal(p.pin, 1);
	assert_string_equal(p.tests, "index,probes");
	assert_int_equal(p.sample_ms, 1000);
	/* Explicit values survive the suite's presets; the rest comes from them. */
	params_finish(&p, 4);
	assert_int_equal(p.sample_ms, 1000);
	assert_int_equal(p.min_samples, 7);
	assert_true(p.target_ci_pct == 2.5);
	assert_int_equal(p.copies[1], 4);
	params_init(&p);
	assert_int_equal(params_set(&p, "suite", "thorough", err, sizeof err), 0);
	params_finish(&p, 4);
	assert_int_equal(p.sample_ms, 10000);
	assert_int_equal(p.min_samples, 10);
	assert_int_equal(p.max_samples, 10);
	assert_true(p.target_ci_pct == 100.0);
}

/* A list longer than its field is an error that says so, never silently cut. */
static void overlong_lists_refused(void **st)
{
	(void)st;
	struct params p;
	char err[160], val[2048];
	struct errs e = {0};

	params_init(&p);
	memset(val, 'a', sizeof p.tests - 1);	/* the longest that fits */
	val[sizeof p.tests - 1] = 0;
	assert_int_equal(params_set(&p, "tests", val, err, sizeof err), 0);
	assert_int_equal(strlen(p.tests), sizeof p.tests - 1);
	strcpy(val + sizeof p.tests - 1, ",b");
	assert_int_equal(params_set(&p, "tests", val, err, sizeof err), -EINVAL);
	assert_string_equal(err, "list too long (at most 1023 characters)");

	/* 25 names: 124 characters fit; one more passes 127. */
	memset(val, 0, sizeof val);
	for (int i = 0; i < 25; i++)
		strcat(val, "hvc0,");
	val[strlen(val) - 1] = 0;
	assert_true(strlen(val) < sizeof p.console);
	assert_int_equal(params_set(&p, "console", val, err, sizeof err), -EINVAL);
	assert_string_equal(err, "at most 20 consoles");
	strcat(val, ",hvc0");
	assert_int_equal(params_set(&p, "console", val, err, sizeof err), -EINVAL);
	assert_string_equal(err, "list too long (at most 127 characters)");

	/* Every console a list may name, once: accepted (out.c writes to that many); more
	 * names than out.c writes to are refused, not the last ones silently unused. */
	assert_int_equal(params_set(&p, "console", "ttyS0,ttyS1,ttyS2,ttyS3,ttyAMA0,ttyAMA1,"
				    "ttyAMA2,ttyAMA3,hvc0,hvc1,hvc2,hvc3,hvc4,hvc5,hvc6,hvc7,tty0",
				    err, sizeof err), 0);
	assert_int_equal(params_set(&p, "console", "ttyS0,ttyS1,ttyS2,ttyS3,ttyAMA0,ttyAMA1,"
				    "ttyAMA2,ttyAMA3,hvc0,hvc1,hvc2,hvc3,hvc4,hvc5,hvc6,hvc7,tty0,"
				    "ttyS0,ttyS1,ttyS2,ttyS3", err, sizeof err), -EINVAL);
	assert_string_equal(err, "at most 20 consoles");

	assert_int_equal(params_set(&p, "copies", "1,2,3,4,5,6,7,8", err, sizeof err), 0);
	assert_int_equal(p.ncopies, PARAM_MAX_COPIES);
	assert_int_equal(params_set(&p, "copies", "1,2,3,4,5,6,7,8,9", err, sizeof err), -EINVAL);
	assert_string_equal(err, "at most 8 passes");
	memset(val, 0, sizeof val);
	for (int i = 0; i < 40; i++)
		strcat(val, "001,");
	assert_int_equal(params_set(&p, "copies", val, err, sizeof err), -EINVAL);
	assert_string_equal(err, "list too long (at most 127 characters)");
	assert_int_equal(p.ncopies, PARAM_MAX_COPIES);	/* unchanged */

	/* The same on the kernel command line: an ERROR, and the value kept. */
	snprintf(val, sizeof val, "isobench.tests=%01100d isobench.halt=wait", 0);
	params_from_cmdline(&p, val, collect, &e);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.param[0], "isobench.tests");
	assert_string_equal(e.reason[0], "list too long (at most 1023 characters)");
	assert_int_equal(p.halt, HALT_WAIT);
}

/* A refused peer is kept with its reason (the net tests' SKIP says it); a later good one
 * clears it. */
static void peer_refusal_kept(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	params_init(&p);
	assert_string_equal(p.peer_rejected, "");
	assert_int_equal(params_set(&p, "peer", "10.0.2.100:99999", err, sizeof err), -EINVAL);
	assert_string_equal(p.peer, "");
	assert_string_equal(p.peer_rejected, "10.0.2.100:99999 was rejected (peer 10.0.2.100:99999: "
					     "port must be 1..65535)");
	assert_int_equal(params_set(&p, "peer", "127.0.0.1:7117", err, sizeof err), 0);
	assert_string_equal(p.peer, "127.0.0.1:7117");
	assert_string_equal(p.peer_rejected, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(all_cpus_pass),
		cmocka_unit_test(disk_seed),
		cmocka_unit_test(cmdline_order_independent),
		cmocka_unit_test(bad_input_reported),
		cmocka_unit_test(quoted_words),
		cmocka_unit_test(samples_range),
		cmocka_unit_test(pin_key),
		cmocka_unit_test(console_delay_replay),
		cmocka_unit_test(table_drives_parsing),
		cmocka_unit_test(every_row_good_and_bad),
		cmocka_unit_test(values_land),
		cmocka_unit_test(overlong_lists_refused),
		cmocka_unit_test(peer_refusal_kept),
		cmocka_unit_test(cmdline_key_twice),
	};
	return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
