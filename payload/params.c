/* params.c — the parameter table and its parser. See params.h. */
#include "params.h"
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one table of parameters (README "Parameters" is generated from the same words). */
const struct param_info param_table[] = {
	{"suite", "quick|standard|thorough",
	 "sample length and repetitions: quick (CI smoke), standard (default), thorough "
	 "(UnixBench-length samples)"},
	{"tests", "NAME[,NAME...]", "tests or groups to run (isobench --list shows them); "
	 "default: " BENCH_GROUP_INDEX},
	{"copies", "C[,C...]", "passes and their copies; N = online CPUs; default 1,N"},
	{"sample_ms", "MS", "length of one sample in milliseconds (10..60000)"},
	{"samples", "MIN[-MAX]", "samples per test: at least MIN, at most MAX (1..1000)"},
	{"ci", "PCT", "stop sampling when the median's 95% CI half-width is within PCT%"},
	{"timeout", "SECONDS", "per test and pass; a test past it is killed and FAILs"},
	{"watchdog", "SECONDS", "whole run as PID 1: past it, report and power off"},
	{"halt", "poweroff|reboot|wait", "what PID 1 does at the end"},
	{"pin", "0|1", "1: pin copy c (and what it starts) to the c-th usable CPU; default 0"},
	{"image", "ID", "image identity, set by the build (sha256 of kernel + initramfs)"},
	{"console", "auto|all|DEV[,DEV...]", "PID 1: consoles to write to (ttyS0-3, hvc0-7, tty0); "
	 "auto (default): every UART the kernel found, hvc, the screen"},
	{"delay", "SECONDS", "PID 1: wait with a countdown before BEGIN (late capture), 0..3600"},
	{"replay", "0|1", "PID 1: send every record again after END (late capture)"},
	{NULL, NULL, NULL},
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

static const char *const suites[] = {"quick", "standard", "thorough"};

const char *suite_name(enum suite s)
{
	return suites[s];
}

void params_init(struct params *p)
{
	memset(p, 0, sizeof *p);
	p->suite = SUITE_STANDARD;
	strcpy(p->tests, BENCH_GROUP_INDEX);
	p->copies[0] = 1;
	p->copies[1] = 0;
	p->ncopies = 2;
	p->halt = HALT_POWEROFF;
	strcpy(p->console, "auto");
}

static int row(const char *key)
{
	for (int i = 0; param_table[i].key; i++)
		if (!strcmp(param_table[i].key, key))
			return i;
	return -1;
}

/* Strict integer in [lo, hi]; the whole string must be digits. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -EINVAL; } while (0)

int params_set(struct params *p, const char *key, const char *val, char *err, size_t errlen)
{
	int r = row(key);
	long a, b;

	if (r < 0) {
		snprintf(err, errlen, "unknown parameter");
		return -ENOENT;
	}
	if (!strcmp(key, "suite")) {
		int i;
		for (i = 0; i < 3 && strcmp(val, suites[i]); i++)
			;
		if (i == 3)
			FAIL("expected quick, standard or thorough");
		p->suite = (enum suite)i;
	} else if (!strcmp(key, "tests")) {
		if (!*val || strlen(val) >= sizeof p->tests || !val[strspn(val, ",")])
			FAIL("expected a comma list of names");	/* "" and "," name nothing */
		strcpy(p->tests, val);
	} else if (!strcmp(key, "copies")) {
		int c[PARAM_MAX_COPIES], n = 0;
		char tmp[128], *tok, *save = NULL;
		if (!*val || strlen(val) >= sizeof tmp)
			FAIL("expected a comma list such as 1,N");
		strcpy(tmp, val);
		for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (n == PARAM_MAX_COPIES)
				FAIL("at most %d passes", PARAM_MAX_COPIES);
			if (!strcmp(tok, "N"))
				c[n++] = 0;
			else if (parse_int(tok, 1, 4096, &a) == 0)
				c[n++] = (int)a;
			else
				FAIL("'%s' is not a copy count (1..4096 or N)", tok);
		}
		if (!n)
			FAIL("expected a comma list such as 1,N");
		memcpy(p->copies, c, sizeof c);
		p->ncopies = n;
	} else if (!strcmp(key, "sample_ms")) {
		if (parse_int(val, 10, 60000, &a))
			FAIL("expected milliseconds, 10..60000");
		p->sample_ms = (int)a;
	} else if (!strcmp(key, "samples")) {
		char tmp[32], *dash;
		if (strlen(val) >= sizeof tmp)
			FAIL("expected MIN or MIN-MAX");
		strcpy(tmp, val);
		dash = strchr(tmp, '-');
		if (dash)
			*dash++ = 0;
		if (parse_int(tmp, 1, 1000, &a) || (dash && parse_int(dash, 1, 1000, &b)) ||
		    (dash && b < a))
			FAIL("expected MIN or MIN-MAX, 1..1000");
		p->min_samples = (int)a;
		p->max_samples = dash ? (int)b : (int)a;
	} else if (!strcmp(key, "ci")) {
		char *end;
		double d = strtod(val, &end);
		if (!*val || *end || !(d > 0 && d <= 100))
			FAIL("expected a percentage, 0 < PCT <= 100");
		p->target_ci_pct = d;
	} else if (!strcmp(key, "timeout")) {
		if (parse_int(val, 1, 86400, &a))
			FAIL("expected seconds, 1..86400");
		p->test_timeout_s = (int)a;
	} else if (!strcmp(key, "watchdog")) {
		if (parse_int(val, 1, 7 * 86400, &a))
			FAIL("expected seconds, 1..604800");
		p->watchdog_s = (int)a;
	} else if (!strcmp(key, "halt")) {
		if (!strcmp(val, "poweroff"))
			p->halt = HALT_POWEROFF;
		else if (!strcmp(val, "reboot"))
			p->halt = HALT_REBOOT;
		else if (!strcmp(val, "wait"))
			p->halt = HALT_WAIT;
		else
			FAIL("expected poweroff, reboot or wait");
	} else if (!strcmp(key, "pin")) {
		if (strcmp(val, "0") && strcmp(val, "1"))
			FAIL("expected 0 or 1");
		p->pin = val[0] == '1';
	} else if (!strcmp(key, "image")) {
		if (!*val || strlen(val) >= sizeof p->image)
			FAIL("expected an identity string");
		strcpy(p->image, val);
	} else if (!strcmp(key, "console")) {
		if (!*val || strlen(val) >= sizeof p->console ||
		    strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,") !=
			    strlen(val))
			FAIL("expected auto, all or a comma list of device names (ttyS1,hvc0,tty0)");
		strcpy(p->console, val);
	} else if (!strcmp(key, "delay")) {
		if (parse_int(val, 0, 3600, &a))
			FAIL("expected seconds, 0..3600");
		p->delay_s = (int)a;
	} else if (!strcmp(key, "replay")) {
		if (parse_int(val, 0, 1, &a))
			FAIL("expected 0 or 1");
		p->replay = (int)a;
	}
	p->set |= 1u << r;
	return 0;
}

void params_finish(struct params *p, int ncpus)
{
	int n = 0;

	if (!(p->set & 1u << row("sample_ms")))
		p->sample_ms = presets[p->suite].sample_ms;
	if (!(p->set & 1u << row("samples"))) {
		p->min_samples = presets[p->suite].min_samples;
		p->max_samples = presets[p->suite].max_samples;
	}
	if (!(p->set & 1u << row("ci")))
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
}

void params_from_cmdline(struct params *p, const char *cmdline, param_error_fn on_err,
			 void *arg)
{
	static const char prefix[] = "isobench.";
	char err[160];

	for (int pass = 0; pass < 2; pass++) {
		const char *s = cmdline;
		while (*s) {
			char word[1200];
			size_t n = 0;
			int quoted = 0;
			while (*s == ' ' || *s == '\t' || *s == '\n')
				s++;
			if (!*s)
				break;
			/* A word ends at unquoted white space; quotes are dropped (as the
			 * kernel does for "key=value with spaces"). */
			for (; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
				if (*s == '"')
					quoted = !quoted;
				else if (n + 1 < sizeof word)
					word[n++] = *s;
			}
			word[n] = 0;
			if (strncmp(word, prefix, sizeof prefix - 1))
				continue;
			char *key = word + sizeof prefix - 1, *eq = strchr(key, '=');
			int is_suite = !strncmp(key, "suite=", 6) || !strcmp(key, "suite");
			if (is_suite != (pass == 0))
				continue;
			if (!eq) {
				if (on_err)
					on_err(arg, word, "-", "expected isobench.KEY=VALUE");
				continue;
			}
			*eq = 0;
			if (params_set(p, key, eq + 1, err, sizeof err) && on_err)
				on_err(arg, word, eq + 1, err);	/* word is "isobench.KEY" now */
		}
	}
}
