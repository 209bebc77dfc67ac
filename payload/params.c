/* params.c — the parameter table and its parser. See params.h. */
#include "params.h"
#include "pid1/console_names.h"
#include "net/netproto.h"
#include "num.h"
#include "rng.h"
#include "vocab.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static param_parse_fn parse_word, parse_range, parse_string, parse_tests, parse_copies,
	parse_samples, parse_ci, parse_console, parse_disk, parse_span, parse_peer, parse_pin,
	parse_array, parse_governor, parse_idle;
static const char *const suites[] = {"quick", "standard", "thorough", NULL};
static const char *const halts[] = {"poweroff", "reboot", "wait", NULL};
static const char *const switch_words[] = {"0", "1", NULL};
const char *const params_ab_sides[] = {"-", "a", "b", NULL};
static const char *const metadata_words[] = {"auto", "off", NULL};
static const char *const boost_words[] = {CPUPOLICY_FIRMWARE, "on", "off", NULL};

/* Where a row's value goes in struct params: offset and size. */
#define FIELD(f) .field = offsetof(struct params, f), .size = sizeof ((struct params *)0)->f

/* The one table of parameters (docs/parameters.md's table says the same keys in the same
 * order, with their words: tests/test-docs.sh checks it against isobench --help, which prints
 * this table); each row is parsed by its own callback, with the row's field, range and words. */
const struct param_info param_table[] = {
	{"suite", "quick|standard|thorough",
	 "sample length and repetitions: quick (CI smoke), standard (default), thorough "
	 "(UnixBench-length samples)",
	 .parse = parse_word, FIELD(suite), .words = suites},
	{"tests", "NAME[,NAME...]", "tests or groups to run (isobench --list shows them); "
	 "default: " REC_GROUP_INDEX,
	 .parse = parse_tests, FIELD(tests)},
	{"copies", "C[,C...]", "passes and their copies; N = online CPUs; default 1,N",
	 .parse = parse_copies, FIELD(copies), .lo = 1, .hi = 4096},
	{"sample_ms", "MS", "length of one sample in milliseconds (10..60000)",
	 .parse = parse_range, FIELD(sample_ms), .lo = 10, .hi = 60000, .unit = "milliseconds"},
	{"samples", "MIN[-MAX]", "samples per test: at least MIN, at most MAX (1..1000)",
	 .parse = parse_samples, FIELD(min_samples), .lo = 1, .hi = 1000},
	{"ci", "PCT", "stop sampling when the median's 95% CI half-width is within PCT%",
	 .parse = parse_ci, FIELD(target_ci_pct), .lo = 0, .hi = 100},
	{"timeout", "SECONDS", "per test and pass; a test past it is killed and FAILs",
	 .parse = parse_range, FIELD(test_timeout_s), .lo = 1, .hi = 86400, .unit = "seconds"},
	{"watchdog", "SECONDS", "whole run as PID 1: past it, report and power off",
	 .parse = parse_range, FIELD(watchdog_s), .lo = 1, .hi = 7 * 86400, .unit = "seconds"},
	{"halt", "poweroff|reboot|wait", "what PID 1 does at the end",
	 .parse = parse_word, FIELD(halt), .words = halts},
	{"pin", "0|1", "1: pin copy c (and what it starts) to the c-th usable CPU; default: "
	 "the memory group pinned (its memory is bound to the CPU's NUMA node), the rest 0",
	 .parse = parse_pin, FIELD(pin), .words = switch_words},
	{"image", "ID", "image identity, set by the build (sha256 of kernel + initramfs)",
	 .parse = parse_string, FIELD(image), .unit = "an identity string"},
	{"console", "auto|all|DEV[,DEV...]", "PID 1: consoles to write to (" CONSOLE_NAMES "); "
	 "auto (default): every UART the kernel found, hvc, the screen",
	 .parse = parse_console, FIELD(console)},
	{"delay", "SECONDS", "PID 1: wait with a countdown before BEGIN (late capture), 0..3600",
	 .parse = parse_range, FIELD(delay_s), .lo = 0, .hi = 3600, .unit = "seconds"},
	{"replay", "0|1", "PID 1: send every record again after END (late capture)",
	 .parse = parse_range, FIELD(replay), .lo = 0, .hi = 1},
	/* The disk group (payload/core/disk_dev.c) */
	{"disk", "auto|PATH|serial:XYZ", "disk tests: the disk or file to use; auto (default): "
	 "the one disk signed by isobench --make-scratch. Writes only ever go to a signed one",
	 .parse = parse_disk, FIELD(disk)},
	{"disk.seed", "SEED", "disk tests: the seed of their random offsets and data, "
	 "1..2147483647; default: a fresh one each run (INFO disk.seed says it), so no run "
	 "re-reads what the last one left in a cache; give it to repeat a run's offsets",
	 .parse = parse_range, FIELD(disk_seed), .lo = 1, .hi = 2147483647, .unit = "a seed"},
	{"disk.span", "SIZE", "disk tests: span of the random offsets (bytes, or with K, M, G); "
	 "default: the whole scratch area",
	 .parse = parse_span, FIELD(disk_span)},
	/* The memory group (payload/bench/mem_stream.c) */
	{"mem.array", "SIZE", "STREAM tests: one array's size, all copies together (bytes, or "
	 "with K, M, G, T; 1M to 64T); default 4G, or the largest power of two within MemTotal/6 "
	 "when smaller. Give both sides of a comparison the same",
	 .parse = parse_array, FIELD(mem_array), .lo = 1L << 20, .hi = 1L << 46},
	{"peer", "HOST[:PORT]", "the net tests' peer (isobench --serve on it; port default "
	 "7117); none: the net tests SKIP",
	 .parse = parse_peer, FIELD(peer)},
	/* Interleaved A/B (out/isobench --ab, qemu/run --ab-params) and replicates */
	{"round", "N", "the round of an interleaved A/B comparison this run is (1..1000000); "
	 "said in the header (run.round) so isobench-report pairs the rounds",
	 .parse = parse_range, FIELD(round), .lo = 1, .hi = 1000000, .unit = "rounds"},
	{"repeat", "N", "runs of the whole suite one after the other, each its own BEGIN..END, "
	 "run id and INFO run.replicate (1..N): replicates in one boot",
	 .parse = parse_range, FIELD(repeat), .lo = 1, .hi = PARAM_RUNS_MAX, .unit = "runs"},
	{"ab_side", "-|a|b", "the side of an interleaved A/B comparison this run is (run.ab_side)",
	 .parse = parse_word, FIELD(ab_side), .words = params_ab_sides},
	{"ab_pos", "1|2", "this run's place in its A/B round: 1 ran first, 2 second (run.ab_pos; "
	 "the balanced order A B, B A, ... alternates it)",
	 .parse = parse_range, FIELD(ab_pos), .lo = 1, .hi = 2, .unit = "places"},
	/* The image as the net tests' peer (payload/pid1/peer.h) */
	{"serve", "0|1", "PID 1: 1 = be the net tests' peer (isobench --serve on every address, "
	 "port 7117) instead of running tests, then power off; the network from ip= (e.g. "
	 "ip=dhcp)",
	 .parse = parse_word, FIELD(serve), .words = switch_words},
	{"serve_seconds", "SECONDS", "PID 1 with serve=1: the peer's life before power-off "
	 "(1..2592000); default 3600",
	 .parse = parse_range, FIELD(serve_s), .lo = 1, .hi = 30 * 86400, .unit = "seconds"},
	/* Parameters without a keyboard (payload/pid1/cloud.h) */
	{"metadata", "auto|off", "PID 1: auto (default): where DMI says a cloud (AWS, Google, "
	 "Azure, Oracle), read isobench.* words from its instance metadata's user data, which "
	 "win over the command line's; off: never contact a metadata service",
	 .parse = parse_word, FIELD(metadata_off), .words = metadata_words},
	/* The CPU's clock and idle policy (payload/cpupolicy.h) */
	{"cpufreq", "performance|firmware|GOVERNOR", "the governor of every cpufreq policy "
	 "(cpufreq/policyN/scaling_governor); firmware: leave what the firmware and kernel chose. "
	 "Image default: performance (the highest clock the boost setting allows, steady from the "
	 "first sample; schedutil's and powersave's ramp with load would be measured); a host "
	 "changes nothing unless --cpufreq is given (and gets it back when the run ends)",
	 .parse = parse_governor, FIELD(cpufreq), .unit = "a governor name ([a-z0-9_]+)"},
	{"boost", CPUPOLICY_FIRMWARE "|on|off", "turbo/boost where the OS may choose "
	 "(intel_pstate/no_turbo, else cpufreq/boost); default " CPUPOLICY_FIRMWARE ": leave it",
	 .parse = parse_word, FIELD(boost), .words = boost_words},
	{"idle", "all|MAX_US", "idle states allowed: all (default), or only those whose exit "
	 "latency is at most MAX_US microseconds (the deeper ones disabled in "
	 "cpuN/cpuidle/stateK/disable; 0 keeps polling only). The kernel's cpuidle.off=1, "
	 "intel_idle.max_cstate= and processor.max_cstate= work too (kernel.cmdline records them)",
	 .parse = parse_idle, FIELD(idle_max_us), .lo = 0, .hi = 10000000,
	 .unit = "microseconds"},
	{.key = NULL},
};

/* Suites. quick: CI smoke, the whole index and both passes in well under a minute natively.
 * standard: stop when the median's 95% CI half-width is within 1%; the cap of 20 samples
 * bounds 12 tests x 2 passes to ~5 minutes (24 x (warm-up + 20 x ~0.55 s)).
 * thorough: UnixBench's 10-second samples, 10 of them. */
static const struct {
	int sample_ms, min_samples, max_samples;
	double ci;
} presets[] = {
	[SUITE_QUICK] = {100, 3, 3, 100.0},
	[SUITE_STANDARD] = {500, 5, 20, 1.0},
	[SUITE_THOROUGH] = {10000, 10, 10, 100.0},
};

const char *suite_name(enum suite s)
{
	return suites[s];
}

void params_init(struct params *p)
{
	memset(p, 0, sizeof *p);
	p->suite = SUITE_STANDARD;
	strcpy(p->tests, REC_GROUP_INDEX);
	p->copies[0] = 1;
	p->copies[1] = 0;
	p->ncopies = 2;
	p->halt = HALT_POWEROFF;
	strcpy(p->console, "auto");
	strcpy(p->disk, "auto");
	p->serve_s = NET_SERVE_LIFE_S;	/* as the host's --serve */
	p->idle_max_us = -1;
}

static int row_of(const char *key)
{
	for (int i = 0; param_table[i].key; i++)
		if (!strcmp(param_table[i].key, key))
			return i;
	return -1;
}

/* Strict integer in [lo, hi] (num.h): digits after an optional '-', no '+', no blank first
 * (other leading white space is skipped, as it always was). 0, or -EINVAL. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
	long long v;

	if (*s == ' ' || num_ll(s, NUM_SPACE, lo, hi, &v))
		return -EINVAL;
	*out = (long)v;
	return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -EINVAL; } while (0)

/* An int field (an enum's too: both are int-sized, checked below). */
static int *int_field(struct params *p, const struct param_info *row)
{
	return (int *)(void *)((char *)p + row->field);
}
_Static_assert(sizeof(enum suite) == sizeof(int) && sizeof(enum halt) == sizeof(int),
	       "parse_word stores enums as int");

/* One of row->words (its index is stored): "expected A, B or C" otherwise. */
static int parse_word(struct params *p, const struct param_info *row, const char *val,
		      char *err, size_t errlen)
{
	size_t n = 0, l = 0;
	int i;

	for (i = 0; row->words[i] && strcmp(val, row->words[i]); i++)
		;
	if (row->words[i]) {
		*int_field(p, row) = i;
		return 0;
	}
	while (row->words[n])
		n++;
	l += (size_t)snprintf(err, errlen, "expected");
	for (size_t k = 0; k < n && l < errlen; k++)
		l += (size_t)snprintf(err + l, errlen - l, "%s%s", k == 0 ? " " : k + 1 < n ?
				      ", " : " or ", row->words[k]);
	return -EINVAL;
}

/* An integer in [row->lo, row->hi]: "expected UNIT, LO..HI" otherwise (a row without a unit
 * is a switch: "expected LO or HI"). */
static int parse_range(struct params *p, const struct param_info *row, const char *val,
		       char *err, size_t errlen)
{
	long a;

	if (parse_int(val, row->lo, row->hi, &a)) {
		if (row->unit)
			FAIL("expected %s, %ld..%ld", row->unit, row->lo, row->hi);
		FAIL("expected %ld or %ld", row->lo, row->hi);
	}
	*int_field(p, row) = (int)a;
	return 0;
}

/* A non-empty string that fits its field: "expected UNIT" otherwise. */
static int parse_string(struct params *p, const struct param_info *row, const char *val,
			char *err, size_t errlen)
{
	if (!*val || strlen(val) >= row->size)
		FAIL("expected %s", row->unit);
	strcpy((char *)p + row->field, val);
	return 0;
}

/* A cpufreq governor's name (the kernel's are [a-z0-9_]: performance, schedutil, ...) or
 * firmware; whether this kernel has it is known only when it is set (cpupolicy.c says). */
static int parse_governor(struct params *p, const struct param_info *row, const char *val,
			  char *err, size_t errlen)
{
	if (!*val || strlen(val) >= row->size || val[strspn(val, "abcdefghijklmnopqrstuvwxyz"
							 "0123456789_")])
		FAIL("expected performance, firmware or %s", row->unit);
	strcpy((char *)p + row->field, val);
	return 0;
}

/* all (-1: every state) or an exit latency in [row->lo, row->hi] us. */
static int parse_idle(struct params *p, const struct param_info *row, const char *val,
		      char *err, size_t errlen)
{
	long a;

	if (!strcmp(val, "all")) {
		*int_field(p, row) = -1;
		return 0;
	}
	if (parse_int(val, row->lo, row->hi, &a))
		FAIL("expected all or %s, %ld..%ld", row->unit, row->lo, row->hi);
	*int_field(p, row) = (int)a;
	return 0;
}

/* A peer address netproto.c can use: IPv4, [IPv6]:PORT or a name this machine resolves,
 * port 1..65535.
 * A refusal is also kept in p->peer_rejected (the one change to p on an error). */
static int parse_peer(struct params *p, const struct param_info *row, const char *val,
		      char *err, size_t errlen)
{
	struct sockaddr_storage sa;
	int bad = strlen(val) >= row->size;

	if (bad)
		snprintf(err, errlen, "address too long (at most %zu characters)", row->size - 1);
	if (bad || net_parse_addr(val, &sa, err, errlen)) {
		snprintf(p->peer_rejected, sizeof p->peer_rejected, "%.100s was rejected (%.80s)",
			 val, err);
		return -EINVAL;
	}
	strcpy((char *)p + row->field, val);
	p->peer_rejected[0] = 0;
	return 0;
}

/* A list longer than its field is refused, never cut. */
#define TOO_LONG(row) FAIL("list too long (at most %zu characters)", (row)->size - 1)

/* A comma list is checked whole before its items are: every item non-empty ("1,,2", "1,"
 * and ",1" are typos, never read as "1,2" or "1"), at most max items. Returns the number of
 * items, or -EINVAL with the reason in err (empty: "" or only commas, which name nothing). */
static int list_items(const char *val, int max, const char *what, const char *empty, char *err,
		      size_t errlen)
{
	int n = 1;

	if (!val[strspn(val, ",")])
		FAIL("%s", empty);
	for (const char *c = val;; c++) {
		if ((c == val || c[-1] == ',') && (*c == ',' || !*c))
			FAIL("item %d of the list is empty", n);
		if (!*c)
			break;
		n += *c == ',';
	}
	if (n > max)
		FAIL("at most %d %s", max, what);
	return n;
}

static int parse_tests(struct params *p, const struct param_info *row, const char *val,
		       char *err, size_t errlen)
{
	if (strlen(val) >= row->size)
		TOO_LONG(row);
	if (list_items(val, (int)row->size, "names", "expected a comma list of names", err,
		       errlen) < 0)
		return -EINVAL;
	strcpy(p->tests, val);
	return 0;
}

/* Comma list of copy counts (row->lo..row->hi) or N, at most PARAM_MAX_COPIES of them. */
static int parse_copies(struct params *p, const struct param_info *row, const char *val,
			char *err, size_t errlen)
{
	int c[PARAM_MAX_COPIES], n = 0;
	char tmp[128], *tok, *save = NULL;
	long a;

	if (strlen(val) >= sizeof tmp)
		FAIL("list too long (at most %zu characters)", sizeof tmp - 1);
	if (list_items(val, PARAM_MAX_COPIES, "passes", "expected a comma list such as 1,N", err,
		       errlen) < 0)
		return -EINVAL;
	strcpy(tmp, val);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "N"))
			c[n++] = 0;
		else if (parse_int(tok, row->lo, row->hi, &a) == 0)
			c[n++] = (int)a;
		else
			FAIL("'%s' is not a copy count (%ld..%ld or N)", tok, row->lo, row->hi);
	}
	if (!n)
		FAIL("expected a comma list such as 1,N");
	memcpy(p->copies, c, sizeof c);
	p->ncopies = n;
	return 0;
}

/* MIN or MIN-MAX, each in row->lo..row->hi, MIN <= MAX. */
static int parse_samples(struct params *p, const struct param_info *row, const char *val,
			 char *err, size_t errlen)
{
	char tmp[32], *dash;
	long a, b;

	if (strlen(val) >= sizeof tmp)
		FAIL("expected MIN or MIN-MAX");
	strcpy(tmp, val);
	dash = strchr(tmp, '-');
	if (dash)
		*dash++ = 0;
	if (parse_int(tmp, row->lo, row->hi, &a) || (dash && parse_int(dash, row->lo, row->hi, &b)) ||
	    (dash && b < a))
		FAIL("expected MIN or MIN-MAX, %ld..%ld", row->lo, row->hi);
	p->min_samples = (int)a;
	p->max_samples = dash ? (int)b : (int)a;
	return 0;
}

/* A percentage, row->lo < PCT <= row->hi. */
static int parse_ci(struct params *p, const struct param_info *row, const char *val,
		    char *err, size_t errlen)
{
	double d;

	if (num_dbl(val, &d) || !(d > row->lo && d <= row->hi))
		FAIL("expected a percentage, %ld < PCT <= %ld", row->lo, row->hi);
	p->target_ci_pct = d;
	return 0;
}

_Static_assert(PARAM_MAX_CONSOLES >= CONSOLE_NAMEABLE, "a list may name every console once");

/* auto, all, or a comma list of the consoles console.c knows (console_name_ok()): a name
 * is opened read-write and written to, so any other device (a disk: "sda") is refused. */
static int parse_console(struct params *p, const struct param_info *row, const char *val,
			 char *err, size_t errlen)
{
	char tmp[sizeof p->console], *tok, *save = NULL;

	if (strlen(val) >= row->size)
		TOO_LONG(row);
	if (strcmp(val, "auto") && strcmp(val, "all")) {
		if (list_items(val, PARAM_MAX_CONSOLES, "consoles", "expected auto, all or a comma "
			       "list of " CONSOLE_NAMES, err, errlen) < 0)
			return -EINVAL;
		strcpy(tmp, val);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!console_name_ok(tok))
				FAIL("'%s' is not a console: expected auto or all alone, or "
				     "devices among " CONSOLE_NAMES, tok);
	}
	strcpy(p->console, val);
	return 0;
}

int64_t params_parse_size(const char *s)
{
	char num[24];
	size_t n = s ? strspn(s, "0123456789") : 0;
	unsigned long long v;
	int shift = 0;

	if (!n || n >= sizeof num)
		return -EINVAL;
	switch (s[n]) {
	case 'T': shift += 10; /* fall through */
	case 'G': shift += 10; /* fall through */
	case 'M': shift += 10; /* fall through */
	case 'K': shift += 10; break;
	default: break;
	}
	if (s[n + (shift ? 1 : 0)])
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = 0;
	if (num_ull(num, 0, 1, (unsigned long long)INT64_MAX >> shift, &v))
		return -EINVAL;
	return (int64_t)(v << shift);
}

/* The disk group: auto, a path (/dev/vdb, a file), or serial:XYZ (non-empty). */
static int parse_disk(struct params *p, const struct param_info *row, const char *val,
		      char *err, size_t errlen)
{
	if (!*val || strlen(val) >= row->size || !strcmp(val, "serial:") ||
	    (strcmp(val, "auto") && strncmp(val, "serial:", 7) && val[0] != '/'))
		FAIL("expected auto, an absolute path or serial:XYZ (at most %zu characters)",
		     row->size - 1);
	strcpy(p->disk, val);
	return 0;
}

/* A size in bytes (suffixes K, M, G, T: scratch.h), at least 1 MiB. */
static int parse_span(struct params *p, const struct param_info *row, const char *val,
		      char *err, size_t errlen)
{
	int64_t v = params_parse_size(val);

	(void)row;
	if (v < (1 << 20))
		FAIL("expected a size of at least 1M (bytes, or with K, M, G, T)");
	p->disk_span = v;
	return 0;
}

/* isobench.pin: a switch that also says it was given (the memory group pins unless told). */
static int parse_pin(struct params *p, const struct param_info *row, const char *val,
		     char *err, size_t errlen)
{
	int r = parse_word(p, row, val, err, errlen);
	if (!r)
		p->pin_given = 1;
	return r;
}

/* isobench.mem.array: a size (params_parse_size()) in the row's lo..hi, 1 MiB to 64 TiB: the
 * three arrays (3 x 64 TiB) are past any x86-64 or arm64 user address space already, and a
 * larger figure made the three arrays' bytes wrap round 2^64 (a wrong SKIP figure, or a crash
 * in setup: the mapping shorter than the arrays). */
static int parse_array(struct params *p, const struct param_info *row, const char *val,
		       char *err, size_t errlen)
{
	int64_t v = params_parse_size(val);

	if (v < row->lo || v > row->hi)
		FAIL("expected a size from %ldM to %ldT (bytes, or with K, M, G, T)", row->lo >> 20,
		     row->hi >> 40);
	p->mem_array = v;
	return 0;
}

int params_set(struct params *p, const char *key, const char *val, char *err, size_t errlen)
{
	int r = row_of(key);

	if (r < 0) {
		snprintf(err, errlen, "unknown parameter");
		return -ENOENT;
	}
	return param_table[r].parse(p, &param_table[r], val, err, errlen);
}

/* A seed in 1..2^31-1 for isobench.disk.seed's default: getrandom(2) without waiting for the
 * pool (GRND_INSECURE, Linux 5.6; a seed of offsets needs no secrecy), else (a kernel before
 * getrandom) the wall-clock second, the PID and where the stack is (ASLR), mixed. */
static int fresh_seed(void)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof r, GRND_INSECURE) != (ssize_t)sizeof r &&
	    getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
		uint64_t st = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^
			      (uint64_t)(uintptr_t)&r;
		r = splitmix64(&st);
	}
	return (int)(r % 2147483647u) + 1;
}

void params_finish(struct params *p, int ncpus)
{
	int n = 0;

	/* What was not given (still 0, which no row accepts) comes from the suite. */
	if (!p->sample_ms)
		p->sample_ms = presets[p->suite].sample_ms;
	if (!p->min_samples) {
		p->min_samples = presets[p->suite].min_samples;
		p->max_samples = presets[p->suite].max_samples;
	}
	if (!(p->target_ci_pct > 0))
		p->target_ci_pct = presets[p->suite].ci;
	/* Resolve N; drop a repeated pass (1,N on a 1-CPU machine is one pass). */
	for (int i = 0; i < p->ncopies; i++) {
		int c = p->copies[i] ? p->copies[i] : (ncpus > 0 ? ncpus : 1);
		int dup = 0;
		for (int j = 0; j < n; j++)
			dup |= p->copies[j] == c;
		if (!dup)
			p->copies[n++] = c;
	}
	p->ncopies = n;
	p->all_cpus = 0;
	for (int i = 0; i < n; i++)
		if (ncpus > 0 && p->copies[i] == ncpus)
			p->all_cpus = ncpus;
	if (!p->disk_seed) {
		p->disk_seed = fresh_seed();
		p->disk_seed_drawn = 1;
	}
}

void params_next_run(struct params *p)
{
	if (p->disk_seed_drawn)
		p->disk_seed = fresh_seed();
}

void params_from_cmdline(struct params *p, const char *cmdline, param_error_fn on_err,
			 void *arg)
{
	params_from_cmdline_keys(p, cmdline, on_err, arg, NULL, 0);
}

/* key into the comma list taken (cap bytes) unless it holds it already. */
static void take_key(char *taken, size_t cap, const char *key)
{
	char item[80], list[1100];
	size_t n = strlen(taken);

	snprintf(item, sizeof item, ",%.64s,", key);	/* a table key: short */
	snprintf(list, sizeof list, ",%.1090s,", taken);
	if (!strstr(list, item) && n + strlen(key) + 2 < cap)
		snprintf(taken + n, cap - n, "%s%s", n ? "," : "", key);
}

static const char cmdline_prefix[] = "isobench.";

/* The next word of a command line at *s into word (cap bytes; cut to fit), *s moved past it;
 * 0 at the end. A word ends at unquoted white space; quotes are dropped (as the kernel does
 * for "key=value with spaces"). */
static int next_word(const char **s, char *word, size_t cap)
{
	size_t n = 0;
	int quoted = 0;

	while (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r')
		(*s)++;
	if (!**s)
		return 0;
	for (; **s && (quoted || (**s != ' ' && **s != '\t' && **s != '\n' && **s != '\r')); (*s)++) {
		if (**s == '"')
			quoted = !quoted;
		else if (n + 1 < cap)
			word[n++] = **s;
	}
	word[n] = 0;
	return 1;
}

void params_cmdline_twice(const char *cmdline, param_twice_fn on_twice, void *arg)
{
	enum { MAXW = 64 };
	static char words[MAXW][1200];
	const char *s = cmdline;
	int n = 0;

	while (n < MAXW && next_word(&s, words[n], sizeof words[n]))
		if (!strncmp(words[n], cmdline_prefix, sizeof cmdline_prefix - 1) &&
		    strchr(words[n], '='))
			n++;
	for (int i = 0; i < n; i++) {
		size_t klen = (size_t)(strchr(words[i], '=') - words[i]);
		int times = 1, last = i, seen = 0;
		for (int j = 0; j < n; j++) {
			if (j == i || strncmp(words[j], words[i], klen + 1))
				continue;
			seen |= j < i;	/* reported at its first word */
			times += j > i;
			last = j > i ? j : last;
		}
		if (seen || times < 2)
			continue;
		char key[80];
		size_t pl = sizeof cmdline_prefix - 1;
		snprintf(key, sizeof key, "%.*s", (int)(klen - pl), words[i] + pl);
		on_twice(arg, key, words[i] + klen + 1, words[last] + klen + 1, times);
	}
}

void params_from_cmdline_keys(struct params *p, const char *cmdline, param_error_fn on_err,
			      void *arg, char *taken, size_t cap)
{
	static const char *const prefix = cmdline_prefix;
	char err[160];

	if (taken && cap)
		taken[0] = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *s = cmdline;
		char word[1200];
		while (next_word(&s, word, sizeof word)) {
			if (strncmp(word, prefix, sizeof cmdline_prefix - 1))
				continue;
			char *key = word + sizeof cmdline_prefix - 1, *eq = strchr(key, '=');
			int is_suite = !strncmp(key, "suite=", 6) || !strcmp(key, "suite");
			if (is_suite != (pass == 0))
				continue;
			if (!eq) {
				if (on_err)
					on_err(arg, word, "-", "expected isobench.KEY=VALUE");
				continue;
			}
			*eq = 0;
			if (params_set(p, key, eq + 1, err, sizeof err)) {
				if (on_err)
					on_err(arg, word, eq + 1, err);	/* word is "isobench.KEY" now */
			} else if (taken) {
				take_key(taken, cap, key);
			}
		}
	}
}

int ab_side_at(int round, int pos)
{
	return round % 2 ? pos : 3 - pos;
}
