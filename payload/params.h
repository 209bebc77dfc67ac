/* params.h — run parameters: one table (params.c) serves the kernel command line
 * (`isobench.KEY=VALUE` words in /proc/cmdline) and the host CLI (`--KEY VALUE`).
 *
 * params_set() returns 0, or -EINVAL/-ENOENT with a one-line reason in err: the caller
 * reports it as an ERROR record (image) or a usage error (host CLI), and the run goes on
 * with the default. Every row of param_table is parsed by its own callback. */
#ifndef ISOBENCH_PARAMS_H
#define ISOBENCH_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define PARAM_MAX_COPIES 8
/* The most consoles isobench.console= may name (every one of pid1/console_names.h's once, and
 * more); out.h's table of consoles holds as many. */
#define PARAM_MAX_CONSOLES 20
/* The word of isobench.cpufreq= and isobench.boost= that leaves the CPU's policy as the
 * firmware and kernel chose it (cpupolicy.c). */
#define CPUPOLICY_FIRMWARE "firmware"

enum suite { SUITE_QUICK, SUITE_STANDARD, SUITE_THOROUGH };
enum halt { HALT_POWEROFF, HALT_REBOOT, HALT_WAIT };

struct params {
	enum suite suite;
	char tests[1024];		/* comma list of test or group names */
	int copies[PARAM_MAX_COPIES];	/* passes; 0 means "N = online CPUs" */
	int ncopies;
	int sample_ms;			/* length of one sample; 0: from the suite */
	int min_samples, max_samples;	/* 0: from the suite */
	double target_ci_pct;		/* stop when the median's 95% CI half-width is within;
					 * 0: from the suite */
	int test_timeout_s;		/* per test and copies pass; 0: derived */
	int watchdog_s;			/* whole run (PID 1 only); 0: derived */
	enum halt halt;
	int pin;			/* 1: copy c runs on the c-th allowed CPU only */
	int pin_given;			/* 1: isobench.pin was set; else each test's own default
					 * (benchapi.h .pin: the memory group pinned) */
	long long mem_array;		/* STREAM's array, all copies together, in bytes
					 * (isobench.mem.array); 0: the default rule (core/mem_util.h) */
	char image[96];			/* image identity, set by the build */
	char console[128];		/* PID 1: "auto", "all" or a comma list of devices */
	int delay_s;			/* PID 1: seconds to wait before BEGIN */
	int replay;			/* PID 1: resend the records after END */
	/* The disk group (payload/core/disk_dev.c): which disk, and the span of its random
	 * offsets (bytes; 0: the whole scratch area). */
	char disk[128];			/* auto, a path, or serial:XYZ */
	long long disk_span;
	/* The disk tests' seed (isobench.disk.seed, 1..2^31-1; test k's offsets start from
	 * seed + k): 0 until params_finish() draws a fresh one, so a run never re-reads the blocks
	 * the last run read (a host cache warmed by it); given, a run's offsets repeat. */
	int disk_seed;
	int disk_seed_drawn;	/* 1: params_finish() drew disk_seed (not given) */
	/* The pass that runs one copy per online CPU ("all CPUs": INFO run.all_cpus, which
	 * isobench-report pairs across runs of different CPU counts): its copies, 0 when no pass
	 * has as many copies as the machine has online CPUs. Set by params_finish(). */
	int all_cpus;
	char peer[128];			/* the net tests' peer, HOST[:PORT]; "" none */
	/* A peer value refused (only place a parser keeps a refusal, so the net tests can say
	 * why they have no peer): "VALUE was rejected (reason)"; "" when none was, or a later
	 * one was taken. */
	char peer_rejected[200];
	/* Interleaved A/B and replicates (issue 35): the round this run is of (1, 2, ...; 0:
	 * none) and its side (0 none, 1 a, 2 b); the header says them (INFO run.round,
	 * run.ab_side) and isobench-report pairs an A and a B run of one round. */
	int round;
	int ab_side;
	/* Its place in the round (issue 46): 1 ran first, 2 second (0: not said); the header says
	 * it (INFO run.ab_pos), so a position effect (the second run finding caches warm) can be
	 * shown. */
	int ab_pos;
	/* Replicates in one boot or process (issue 45): the runs of the whole suite asked for
	 * (isobench.repeat / --repeat; 0: not asked, one run), and which of them this run is
	 * (1..repeat; set by runner_runs(), never a parameter); the header says both (INFO
	 * run.repeat, run.replicate). Not a round: replicates back to back are not interleaved,
	 * so the report gives them to their side as replicates, never pairs them by round. */
	int repeat;
	int replicate;
	/* PID 1 as the net tests' peer instead of a run (payload/pid1/peer.h, issue 33): 1 when
	 * isobench.serve=1, and the peer's life in seconds (isobench.serve_seconds). */
	int serve;
	int serve_s;
	/* PID 1: 1 when isobench.metadata=off (no metadata service is contacted, even in a
	 * cloud); 0 (auto): payload/pid1/cloud.h. */
	int metadata_off;
	/* The CPU's clock and idle policy (payload/cpupolicy.h): the governor every cpufreq
	 * policy gets ("" not given: the image asks for performance, a host changes nothing),
	 * boost (0 leave it, 1 on, 2 off), and the longest idle-state exit latency allowed, in
	 * us (-1: every state; deeper ones are disabled through cpuidle's sysfs). */
	char cpufreq[32];
	int boost;
	int idle_max_us;
};

struct param_info;
/* A row's parser: checks val against the row and stores it in p. Returns 0, or -EINVAL with
 * a one-line reason in err (p unchanged, but for the refusal kept in peer_rejected). */
typedef int param_parse_fn(struct params *p, const struct param_info *row, const char *val,
			   char *err, size_t errlen);

/* One row per parameter, as stress-ng's option table: name, what it takes, parser, and the
 * parser's arguments. */
struct param_info {
	const char *key;	/* without the "isobench." prefix */
	const char *values;	/* what it takes */
	const char *help;
	param_parse_fn *parse;
	size_t field, size;	/* offsetof and sizeof the struct params field it sets */
	long lo, hi;		/* allowed range (integers, copy counts, samples, ci) */
	const char *unit;	/* in the error: "expected UNIT, LO..HI" (none: a 0|1 switch) */
	const char *const *words; /* the words a word row accepts, NULL-terminated */
};
extern const struct param_info param_table[];

/* "64M", "1G", "4096", "512K": bytes (binary suffixes K, M, G, T), > 0; -EINVAL otherwise.
 * The one size parser (isobench.disk.span=, --make-scratch). */
int64_t params_parse_size(const char *s);

void params_init(struct params *p);
/* Runs of the whole suite in one boot or process, at most (isobench.repeat, --repeat,
 * --rounds): each run's records stay in memory until the end in the image (the replay and
 * the results file hold them all), a standard-suite run a few hundred KiB. */
#define PARAM_RUNS_MAX 1000

/* The words of ab_side, by its value: "-", "a", "b". */
extern const char *const params_ab_sides[];
int params_set(struct params *p, const char *key, const char *val, char *err, size_t errlen);
/* Fill what was not given from the suite's presets. ncpus resolves copies "N". */
void params_finish(struct params *p, int ncpus);
/* The next run of several in one boot or process (runner_runs()): a disk seed params_finish()
 * drew is drawn afresh, so a replicate never re-reads what the one before it warmed; a given
 * one (isobench.disk.seed) stays. */
void params_next_run(struct params *p);
const char *suite_name(enum suite s);

typedef void (*param_error_fn)(void *arg, const char *param, const char *value,
			       const char *reason);
/* Apply every isobench.* word of a kernel command line; others are ignored.
 * The suite is applied first so that explicit settings override its presets. */
void params_from_cmdline(struct params *p, const char *cmdline, param_error_fn on_err,
			 void *arg);
/* The same, for any text of such words (a cloud's user data: payload/pid1/cloud.h; '\r'
 * is white space too), and the keys it set, without the prefix, in the order first set,
 * each once, as a comma list into taken (cap bytes; "" when none; taken NULL: not kept). */
void params_from_cmdline_keys(struct params *p, const char *cmdline, param_error_fn on_err,
			      void *arg, char *taken, size_t cap);
/* Each isobench.KEY= a command line gives more than once (of its first 64 such words):
 * on_twice(arg, "KEY" (without the prefix), the first word's value, the last's (the one
 * params_from_cmdline() keeps, as the kernel keeps the last of a word given twice), how many
 * times), once per key, in the order first given. */
typedef void (*param_twice_fn)(void *arg, const char *key, const char *first, const char *kept,
			       int times);
void params_cmdline_twice(const char *cmdline, param_twice_fn on_twice, void *arg);

/* The balanced A/B order (issue 46): the side (1 a, 2 b) that runs at place pos (1, 2) of
 * round r (1, 2, ...): A B in odd rounds, B A in even ones (ABBA), so each side runs second in
 * half the rounds. qemu/run --ab and --ab-params follow the same rule. */
int ab_side_at(int round, int pos);

#endif
