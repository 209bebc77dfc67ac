/* main.c — entry point. As the image's /init (init_is_image(): PID 1 on the initramfs) it
 * sets the machine up, runs and powers off (init.c); run anywhere else, PID 1 of a container
 * or sandbox too (a reaper of its own stays PID 1: init_as_program()), it is a CLI that runs
 * the same tests and prints the same records to standard output.
 *
 * Exit status (lib/status.h, the one table of every isobench tool): EXIT_OK, EXIT_FAILS, or
 * EXIT_USAGE: a usage error (found before anything runs), or standard output closed or not
 * writable (at the start, or still at the end: a full disk).
 * SIGINT/SIGTERM/SIGHUP (and SIGPIPE: its output's reader gone): the runner stops the test,
 * removes its files, puts back a host's CPU policy it changed, dies of the signal. */
#define _GNU_SOURCE
#include "benchapi.h"
#include "harness.h"
#include "pid1/init.h"
#include "net/netserve.h"
#include "num.h"
#include "out.h"
#include "params.h"
#include "runner.h"
#include "core/disk_dev.h"
#include "core/isoproc.h"
#include "core/scratch.h"
#include "status.h"
#include "sys.h"
#include "version.h"
#include "vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>


static void usage(FILE *f)
{
	fprintf(f,
		"usage: isobench [options]\n"
		"Runs isobench's tests natively and prints records and tables to stdout.\n"
		"As PID 1 (the image's /init) it reads the same parameters from /proc/cmdline\n"
		"as isobench.KEY=VALUE words. On a host a bad option, value or test name is a\n"
		"usage error (exit " EXIT_STR(EXIT_USAGE) "); in the image it is an ERROR record and the "
		"run goes on.\n"
		"Records and tables go to stdout; progress also goes to stderr when stdout is\n"
		"not a terminal.\n\n"
		"  --list              list tests and groups, then exit\n"
		"  --check-params      only check the options, values and test names (exit "
		EXIT_STR(EXIT_OK) " or " EXIT_STR(EXIT_USAGE) ")\n"
		"  --KEY VALUE         set a parameter (table below), e.g. --suite quick\n"
		"  --param KEY=VALUE   the same, in command-line form\n"
		"  --repeat N          N complete runs back to back, one after the other in one\n"
		"                      log (BEGIN..END each): replicates for isobench-report, which\n"
		"                      gives each run of a log to its side (--label a,b A.log B.log)\n"
		"  --ab 'KEY=VALUE ...' 'KEY=VALUE ...' [--rounds N]\n"
		"                      interleaved A/B: N rounds (default 5) of a run with each\n"
		"                      parameter set, in one log, in a balanced order (A B, B A,\n"
		"                      A B, ...); each run's header says its round, side and place\n"
		"                      (run.round, run.ab_side, run.ab_pos), and isobench-report LOG\n"
		"                      pairs the rounds (paired t-test); the round, side and place\n"
		"                      are its own (round, ab_side, ab_pos in a set or beside --ab\n"
		"                      are refused); --repeat, --ab, --rounds once each\n"
		"  --tmpdir DIR        where tests make their files (default: $TMPDIR, else\n"
		"                      /dev/shm if it is a tmpfs like the image's, else /tmp)\n"
		"  --proc PATH         the isobench-proc the process tests execute (default:\n"
		"                      $" PROC_ENV ", else the one beside this program); a\n"
		"                      sandbox that hides this program's directory needs it\n"
		"  --make-scratch PATH SIZE|all\n"
		"                      sign a file or an unmounted disk as the scratch area the\n"
		"                      disk tests may write (its content is overwritten), then exit\n"
		"  --serve [--port P] [--bind ADDR] [--max-seconds S] [--max-egress B] [--store DIR]\n"
		"                      be the network peer of the net tests (port 0: any), on\n"
		"                      one address: 127.0.0.1 unless --bind names another\n"
		"                      (0.0.0.0: every address); for 3600 s unless --max-seconds\n"
		"                      (0: until stopped); B bytes to one client address at most\n"
		"                      (default 1T; 0: no cap); --store DIR: keep the log a run\n"
		"                      sends at its end as DIR/<run id>.log (else refused)\n"
		"  --version, --help\n\nParameters:\n");
	int w = 10;	/* the key column: the longest key's width */
	for (int i = 0; param_table[i].key; i++)
		if ((int)strlen(param_table[i].key) > w)
			w = (int)strlen(param_table[i].key);
	for (int i = 0; param_table[i].key; i++)
		fprintf(f, "  %-*s %-24s %s\n", w, param_table[i].key, param_table[i].values,
			param_table[i].help);
}

/* 1 when group g has tests and tests=all selects none of them (each is .nodefault). */
static int group_left_out(const char *g)
{
	int n = 0;

	for (int i = 0; bench_registry[i]; i++)
		if (!strcmp(bench_registry[i]->group, g)) {
			if (bench_in_all(bench_registry[i]))
				return 0;
			n++;
		}
	return n > 0;
}

static void list_tests(void)
{
	printf("%-24s %-8s %-6s %9s  %s\n", "TEST", "GROUP", "UNIT", "BASELINE", "TITLE");
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		char base[24] = "-";
		if (bench_is_index(b))
			snprintf(base, sizeof base, "%.1f", b->baseline);
		printf("%-24s %-8s %-6s %9s  %s\n", b->name, b->group, b->unit, base, b->title);
	}
	printf("\nGroups:");
	for (int i = 0; vocab_groups[i]; i++)
		printf("%s %s%s", i ? "," : "", vocab_groups[i],
		       !strcmp(vocab_groups[i], REC_GROUP_INDEX) ? " (UnixBench's index tests)" : "");
	/* "all" and what it leaves out (benchapi.h .nodefault): a group whose tests it all
	 * leaves out by the group's name, any other such test by its own. */
	printf("; all");
	int out = 0;
	for (int i = 0; vocab_groups[i]; i++)
		if (group_left_out(vocab_groups[i]))
			printf("%s%s", out++ ? ", " : " (all but ", vocab_groups[i]);
	for (int i = 0; bench_registry[i]; i++)
		if (!bench_in_all(bench_registry[i]) && !group_left_out(bench_registry[i]->group))
			printf("%s%s", out++ ? ", " : " (all but ", bench_registry[i]->name);
	printf("%s.\n", out ? ")" : "");
}

/* Where tests make their files on a host: $TMPDIR if set, else /dev/shm when it is a tmpfs
 * (the image's file tests run on tmpfs, so the native column matches), else /tmp. */
static const char *default_tmpdir(void)
{
	struct statfs sf;

	if (getenv("TMPDIR") && *getenv("TMPDIR"))
		return getenv("TMPDIR");
	if (statfs("/dev/shm", &sf) == 0 && sf.f_type == SYS_TMPFS_MAGIC &&
	    access("/dev/shm", W_OK) == 0)
		return "/dev/shm";
	return "/tmp";
}

/* Every parameter of the table is also a long option (val 1000 + its row), then the CLI's
 * own; as many as the table has rows. NULL when out of memory. */
static struct option *long_options(void)
{
	size_t rows = 0;
	int no = 0;

	while (param_table[rows].key)
		rows++;
	struct option *opts = calloc(rows + 11, sizeof *opts);	/* + the 10 below + the end */
	if (!opts)
		return NULL;
	/* The CLI's own first: getopt_long takes the first exact match, so --repeat is the
	 * CLI's (its own checks) although the table has the image's isobench.repeat too. */
	opts[no++] = (struct option){"param", required_argument, NULL, 'p'};
	opts[no++] = (struct option){"tmpdir", required_argument, NULL, 't'};
	opts[no++] = (struct option){"proc", required_argument, NULL, 'P'};
	opts[no++] = (struct option){"list", no_argument, NULL, 'l'};
	opts[no++] = (struct option){"check-params", no_argument, NULL, 'c'};
	opts[no++] = (struct option){"version", no_argument, NULL, 'V'};
	opts[no++] = (struct option){"help", no_argument, NULL, 'h'};
	opts[no++] = (struct option){"repeat", required_argument, NULL, 'R'};
	opts[no++] = (struct option){"ab", required_argument, NULL, 'A'};
	opts[no++] = (struct option){"rounds", required_argument, NULL, 'N'};
	for (int i = 0; param_table[i].key; i++)
		opts[no++] = (struct option){param_table[i].key, required_argument, NULL, 1000 + i};
	opts[no] = (struct option){NULL, 0, NULL, 0};
	return opts;
}

/* On a host a relative --disk PATH means one under the working directory, as for
 * --make-scratch: val made absolute into buf (len bytes); any other key or value unchanged.
 * (In the image there is no working directory to mean: params.c wants an absolute path.) */
static const char *host_value(const char *key, const char *val, char *buf, size_t len)
{
	char cwd[PATH_MAX];

	if (strcmp(key, "disk") || !*val || val[0] == '/' || !strcmp(val, "auto") ||
	    !strncmp(val, "serial:", 7) || !getcwd(cwd, sizeof cwd))
		return val;
	snprintf(buf, len, "%s/%s", cwd, val);
	return buf;
}

/* --param KEY=VALUE (KEY may carry the command line's "isobench." prefix). Returns 0, or
 * EXIT_USAGE after a line on stderr. */
static int set_param_kv(struct params *p, const char *arg)
{
	char err[160], kv[1200], abs[PATH_MAX + 1200], *eq;

	snprintf(kv, sizeof kv, "%s", arg);
	eq = strchr(kv, '=');
	if (!eq) {
		fprintf(stderr, "isobench: --param wants KEY=VALUE, got '%s'\n", arg);
		return EXIT_USAGE;
	}
	*eq = 0;
	if (!strncmp(kv, "isobench.", 9))
		memmove(kv, kv + 9, strlen(kv + 9) + 1);
	if (params_set(p, kv, host_value(kv, eq + 1, abs, sizeof abs), err, sizeof err)) {
		fprintf(stderr, "isobench: --param %s=%s: %s\n", kv, eq + 1, err);
		return EXIT_USAGE;
	}
	return 0;
}

/* getopt's answer opt that is none of the CLI's own options: a parameter (--KEY VALUE), or a
 * usage error. Returns 0, or EXIT_USAGE after a line on stderr. */
static int set_param_opt(struct params *p, int opt, char **argv)
{
	char err[160], abs[PATH_MAX + 1200];

	if (opt >= 1000) {
		const char *key = param_table[opt - 1000].key;
		if (params_set(p, key, host_value(key, optarg, abs, sizeof abs), err, sizeof err)) {
			fprintf(stderr, "isobench: --%s %s: %s\n", key, optarg, err);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (opt == ':')
		fprintf(stderr, "isobench: option '%s' needs a value (see --help)\n",
			argv[optind - 1]);
	else
		fprintf(stderr, "isobench: unknown option '%s' (see --help)\n",
			argv[optind - 1]);
	return EXIT_USAGE;
}

/* Several runs in one log (issue 35): --repeat N back to back, or --ab A B with --rounds N
 * interleaved in a balanced order A, B, B, A, ... (run_all()). ab[] are the two parameter sets, words KEY=VALUE (an
 * "isobench." prefix allowed), as --param takes them. */
struct multi {
	int repeat;		/* 0: one run */
	int rounds;		/* --rounds; 0: the default */
	const char *ab[2];	/* NULL: no --ab */
};
#define AB_ROUNDS_DEFAULT 5

/* --repeat N / --rounds N: 1..MULTI_MAX into *v. 0, or EXIT_USAGE after a line on stderr. */
static int take_count(const char *opt, const char *val, int *v)
{
	long long x;

	if (num_ll(val, 0, 1, PARAM_RUNS_MAX, &x)) {
		fprintf(stderr, "isobench: --%s wants a number of runs, 1..%d, got '%s'\n", opt,
			PARAM_RUNS_MAX, val);
		return EXIT_USAGE;
	}
	*v = (int)x;
	return 0;
}

/* --ab gives each run its own round and side (run_all()), which would replace a value the
 * user gave unsaid, in a set or beside --ab alike. ab_own_mark() saves p's round, ab_side and ab_pos
 * into saved and marks them unset (-1, which neither parameter takes) so that a setting
 * shows; ab_own_given() then names the one set since ("round", "ab_side", "ab_pos"; NULL: none)
 * and restores the unset ones. */
static void ab_own_mark(struct params *p, int saved[3])
{
	saved[0] = p->round;
	saved[1] = p->ab_side;
	saved[2] = p->ab_pos;
	p->round = p->ab_side = p->ab_pos = -1;
}

static const char *ab_own_given(struct params *p, const int saved[3])
{
	const char *given = p->round != -1 ? "round" : p->ab_side != -1 ? "ab_side"
			  : p->ab_pos != -1 ? "ab_pos" : NULL;

	if (p->round == -1)
		p->round = saved[0];
	if (p->ab_side == -1)
		p->ab_side = saved[1];
	if (p->ab_pos == -1)
		p->ab_pos = saved[2];
	return given;
}

/* The KEY of word (KEY=VALUE, "isobench." prefix dropped) into key (cap bytes). */
static void word_key(const char *word, char *key, size_t cap)
{
	if (!strncmp(word, "isobench.", 9))
		word += 9;
	snprintf(key, cap, "%.*s", (int)strcspn(word, "="), word);
}

/* 1 (after a line on stderr naming the key and the set) when set names one key twice: the
 * second would replace the first unsaid ('pin=0 pin=1'). Two sets alike stay allowed (an
 * A/A run measures the noise floor). buf holds set's words, split at white space. */
static int set_key_twice(const char *set, char *buf)
{
	char key[64], other[64], *save = NULL, *words[512];
	size_t n = 0;

	for (char *w = strtok_r(buf, " \t", &save); w && n < 512; w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++) {
			word_key(words[i], key, sizeof key);
			word_key(words[k], other, sizeof other);
			if (!strcmp(key, other)) {
				fprintf(stderr, "isobench: --ab '%s': %s is given twice in the set (the "
						"second would replace the first unsaid)\n", set, key);
				return 1;
			}
		}
	return 0;
}

/* Apply the words of set (space separated KEY=VALUE) to p with set_param_kv(). A set that
 * names a key twice (set_key_twice()), or sets the round or the side (ab_own_mark()), is
 * refused. 0, or EXIT_USAGE after a line on stderr. */
static int apply_set(struct params *p, const char *set)
{
	char buf[2048], *save = NULL;
	int saved[3];

	if (strlen(set) >= sizeof buf) {
		fprintf(stderr, "isobench: --ab: a parameter set is too long\n");
		return EXIT_USAGE;
	}
	snprintf(buf, sizeof buf, "%s", set);
	if (set_key_twice(set, buf))
		return EXIT_USAGE;
	snprintf(buf, sizeof buf, "%s", set);
	ab_own_mark(p, saved);
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (set_param_kv(p, w))
			return EXIT_USAGE;
	if (ab_own_given(p, saved)) {
		fprintf(stderr, "isobench: --ab '%s': the round and the side are --ab's own (each "
				"run's run.round, run.ab_side), not a set's\n", set);
		return EXIT_USAGE;
	}
	return 0;
}

/* 1 (after a line on stderr) when --opt was given before: a second one would replace the
 * first unsaid. */
static int given_twice(const char *opt, int given)
{
	if (given)
		fprintf(stderr, "isobench: --%s given twice\n", opt);
	return given;
}

/* After --list, --version or --help: EXIT_OK when what they printed reached stdout, else
 * EXIT_USAGE after a line on stderr (stdout closed or full, as for a run's records). */
static int printed(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return EXIT_OK;
	fprintf(stderr, "isobench: standard output could not be written (%s)\n", strerror(errno));
	return EXIT_USAGE;
}

/* The options of several runs that do not go together: --rounds without --ab, --repeat with
 * it, and own (ab_own_given(): "round", "ab_side" or NULL) given beside --ab. -1 to go on,
 * else EXIT_USAGE after a line on stderr naming the option. */
static int multi_usage(const struct multi *mu, const char *own)
{
	if ((mu->rounds && !mu->ab[0]) || (mu->repeat && mu->ab[0])) {
		fprintf(stderr, "isobench: %s\n", mu->ab[0] ? "--repeat and --ab do not go together "
			"(--ab's --rounds N repeats it)" : "--rounds goes with --ab");
		return EXIT_USAGE;
	}
	if (own && mu->ab[0]) {
		fprintf(stderr, "isobench: --%s with --ab: the round and the side are --ab's own (each "
				"run's run.round, run.ab_side), not given beside it\n", own);
		return EXIT_USAGE;
	}
	return -1;
}

/* Phase 1: the options into p and cfg. Returns -1 to go on, else the exit status (--list,
 * --version, --help: printed(); a usage error: EXIT_USAGE). */
static int parse_cli(int argc, char **argv, struct params *p, struct runner_cfg *cfg,
		     int *check_only, struct multi *mu)
{
	struct option *opts = long_options();
	int opt, idx, rc = -1, saved[3];

	if (!opts) {
		fprintf(stderr, "isobench: out of memory\n");
		return EXIT_USAGE;
	}
	opterr = 0;	/* one line of ours per usage error, not getopt's plus the usage text */
	ab_own_mark(p, saved);	/* --round, --ab_side (or --param round=): refused with --ab */
	while (rc < 0 && (opt = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		switch (opt) {
		case 'l':
			list_tests();
			rc = printed();
			break;
		case 'c':
			*check_only = 1;
			break;
		case 'V':
			printf("isobench %s\n", isobench_version);
			rc = printed();
			break;
		case 'h':
			usage(stdout);
			rc = printed();
			break;
		case 't':
			cfg->tmpdir = optarg;
			break;
		case 'P':	/* proc_helper() reads it, in the runner and its test children */
			setenv(PROC_ENV, optarg, 1);
			break;
		case 'R':
			rc = given_twice("repeat", mu->repeat) ||
			     take_count("repeat", optarg, &mu->repeat) ? EXIT_USAGE : -1;
			break;
		case 'N':
			rc = given_twice("rounds", mu->rounds) ||
			     take_count("rounds", optarg, &mu->rounds) ? EXIT_USAGE : -1;
			break;
		case 'A':	/* --ab A B: B is the next word */
			if (given_twice("ab", mu->ab[0] != NULL))
				rc = EXIT_USAGE;
			else if (optind >= argc || !strncmp(argv[optind], "--", 2)) {
				fprintf(stderr, "isobench: --ab wants two parameter sets: --ab "
						"'KEY=VALUE ...' 'KEY=VALUE ...'\n");
				rc = EXIT_USAGE;
				break;
			}
			mu->ab[0] = optarg;
			mu->ab[1] = argv[optind++];
			break;
		case 'p':
			if (set_param_kv(p, optarg))
				rc = EXIT_USAGE;
			break;
		default:
			if (set_param_opt(p, opt, argv))
				rc = EXIT_USAGE;
			break;
		}
	}
	free(opts);
	const char *own = ab_own_given(p, saved);
	if (rc < 0 && p->repeat && given_twice("repeat", mu->repeat))	/* --param repeat=N */
		rc = EXIT_USAGE;	/* (the image's word) is --repeat N: not both */
	mu->repeat = mu->repeat ? mu->repeat : p->repeat;
	if (rc < 0 && optind < argc) {
		fprintf(stderr, "isobench: unexpected argument '%s' (see --help)\n", argv[optind]);
		rc = EXIT_USAGE;
	}
	if (rc < 0 && p->serve && !*check_only) {	/* PID 1's (payload/pid1/peer.h); qemu/run
							 * checks the image's words with --check-params */
		fprintf(stderr, "isobench: --serve 1 is the image's isobench.serve=1; on this host "
			"the peer is `isobench --serve [--port P] ...`, as the first option\n");
		rc = EXIT_USAGE;
	}
	return rc < 0 ? multi_usage(mu, own) : rc;
}

/* --tmpdir (or $TMPDIR): a writable directory, resolved (cfg->tmpdir becomes its absolute
 * path: the shell tests chdir before they exec, and "dir////..." would outgrow the paths made
 * from it), whose paths the tests can use: at most HARNESS_TMPDIR_MAX characters, no white
 * space or ':' (shell.c's #! line and PATH split there). Returns -1 to go on, else
 * EXIT_USAGE after a line on stderr. */
static int check_tmpdir(struct runner_cfg *cfg)
{
	static char real[PATH_MAX];
	struct stat st;

	errno = 0;
	if (!realpath(cfg->tmpdir, real) || stat(real, &st) || !S_ISDIR(st.st_mode) ||
	    access(real, W_OK | X_OK)) {
		fprintf(stderr, "isobench: --tmpdir %s: not a writable directory (%s)\n", cfg->tmpdir,
			errno ? strerror(errno) : "not a directory");
		return EXIT_USAGE;
	}
	if (strlen(real) > HARNESS_TMPDIR_MAX) {
		fprintf(stderr, "isobench: --tmpdir %s: path too long (%zu characters, at most %d)\n",
			cfg->tmpdir, strlen(real), HARNESS_TMPDIR_MAX);
		return EXIT_USAGE;
	}
	if (real[strcspn(real, " \t\n:")]) {
		fprintf(stderr, "isobench: --tmpdir %s: white space or ':' in the path (the shell "
				"tests' #! line and PATH would split there)\n", cfg->tmpdir);
		return EXIT_USAGE;
	}
	cfg->tmpdir = real;
	return -1;
}

/* Phase 2: what the options name must exist: the tests, a writable --tmpdir. Also fills
 * cfg->self. Returns -1 to go on, else EXIT_USAGE after a line on stderr. */
static int check_tests(const struct params *p)
{
	char unknown[256];
	if (runner_unknown_tests(p, unknown, sizeof unknown)) {
		fprintf(stderr, "isobench: unknown test or group: %s (isobench --list shows them)\n",
			unknown);
		return EXIT_USAGE;
	}
	return -1;
}

/* --disk names something that exists (docs/exit-status.md: a named resource that does not
 * exist is a usage error on a host, as a --peer name that does not resolve): a path (a file or
 * device), or serial:XYZ a disk of this machine has (disk_select()'s scan). auto finds what
 * it finds; the disk tests SKIP saying why. In the image the same word is no usage error: the
 * disk tests SKIP with the reason (nobody can retype a command line). Returns -1 to go on,
 * else EXIT_USAGE after a line on stderr. */
static int check_disk(const struct params *p)
{
	static struct disk_sel sel;
	struct stat st;

	if (!strcmp(p->disk, "auto"))
		return -1;
	if (strncmp(p->disk, "serial:", 7)) {
		int gone = stat(p->disk, &st) ? errno : 0;
		if (!gone && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
			return -1;
		/* a directory, a character device (/dev/null), a FIFO or a socket is no file or
		 * disk either: the same usage error, saying what the path is */
		const char *is = gone ? strerror(gone) :
			     S_ISDIR(st.st_mode) ? "a directory, not a file or a disk" :
			     S_ISCHR(st.st_mode) ? "a character device, not a file or a disk" :
			     "neither a regular file nor a block device";
		fprintf(stderr, "isobench: --disk %s: %s (a disk named must exist; "
			"isobench --make-scratch PATH SIZE makes a scratch file)\n", p->disk, is);
		return EXIT_USAGE;
	}
	disk_select(p, &sel);
	if (sel.path[0])
		return -1;
	fprintf(stderr, "isobench: --disk %s: %s\n", p->disk, sel.reason);
	return EXIT_USAGE;
}

/* The disks a run here would use exist (check_disk(): the options' and each --ab set's).
 * Not for --check-params, which checks words meant for the image (qemu/run): its disks are
 * the guest's, not this host's. -1 to go on, else EXIT_USAGE after a line on stderr. */
static int check_disks(const struct params *p, const struct multi *mu)
{
	if (check_disk(p) >= 0)
		return EXIT_USAGE;
	for (int s = 0; mu->ab[0] && s < 2; s++) {
		static struct params q;
		q = *p;
		if (!apply_set(&q, mu->ab[s]) && check_disk(&q) >= 0)
			return EXIT_USAGE;
	}
	return -1;
}

/* --proc PATH (or $ISOBENCH_PROC) names an executable file, made absolute (the tests
 * execute it from their own directories). Returns -1 to go on, else EXIT_USAGE after a line
 * on stderr. */
static int check_proc(void)
{
	static char real[PATH_MAX];
	const char *v = getenv(PROC_ENV);
	struct stat st;

	if (!v || !*v)
		return -1;
	if (!realpath(v, real) || stat(real, &st) || !S_ISREG(st.st_mode) || access(real, X_OK)) {
		fprintf(stderr, "isobench: --proc / %s=%s: not an executable file\n", PROC_ENV, v);
		return EXIT_USAGE;
	}
	char why[160];
	if (proc_verify(real, why, sizeof why)) {
		fprintf(stderr, "isobench: --proc / %s=%s: not isobench-proc: %s (out/isobench-proc "
			"of this build is the one)\n", PROC_ENV, v, why);
		return EXIT_USAGE;
	}
	setenv(PROC_ENV, real, 1);
	return -1;
}

static int check_cli(const struct params *p, struct runner_cfg *cfg, const char *argv0,
		     const struct multi *mu)
{
	static char self[PATH_MAX];

	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0)
		self[n] = 0;
	else
		snprintf(self, sizeof self, "%s", argv0);
	cfg->self = self;
	if (check_tests(p) >= 0 || check_proc() >= 0)
		return EXIT_USAGE;
	for (int s = 0; mu->ab[0] && s < 2; s++) {	/* each --ab set, before anything runs */
		static struct params q;
		q = *p;
		if (apply_set(&q, mu->ab[s]) || check_tests(&q) >= 0)
			return EXIT_USAGE;
		if (q.repeat) {	/* each --ab run is one run: its set cannot make it several */
			fprintf(stderr, "isobench: --ab '%s': repeat makes no replicates in an A/B "
					"run (--rounds N repeats the pair)\n", mu->ab[s]);
			return EXIT_USAGE;
		}
	}
	return check_tmpdir(cfg);
}

/* The runs: one; --repeat N of them, each run's header saying which (run.replicate); or --ab's
 * rounds in a balanced order, A B, B A, A B, ...
 * (ABBA: the side that runs second, after the other warmed caches, the page cache, the CPU's
 * clock, alternates, so a position effect falls on both sides alike and the paired test's
 * pairs carry it either way; issue 46), each run's header saying its round, side and place in
 * the round (run.round, run.ab_side, run.ab_pos). Returns 0 when no run wrote a FAIL or ERROR,
 * else 1. */
static int run_all(const struct params *base, struct runner_cfg *cfg, const struct multi *mu)
{
	static struct params q;
	int n = 2 * (mu->rounds ? mu->rounds : AB_ROUNDS_DEFAULT), bad = 0;

	if (!mu->ab[0]) {	/* one run, or --repeat's: numbered replicates (runner_runs()) */
		q = *base;
		q.repeat = mu->repeat;
		params_finish(&q, (int)sysconf(_SC_NPROCESSORS_ONLN));
		return runner_runs(&q, cfg, NULL);
	}
	for (int k = 0; k < n; k++) {
		q = *base;
		q.round = k / 2 + 1;
		q.ab_pos = k % 2 + 1;
		q.ab_side = ab_side_at(q.round, q.ab_pos);
		(void)apply_set(&q, mu->ab[q.ab_side - 1]);	/* checked in check_cli() */
		params_finish(&q, (int)sysconf(_SC_NPROCESSORS_ONLN));
		if (k)
			out_new_run();	/* each run's records count from 1 (its own BEGIN..END) */
		bad |= runner_run(&q, cfg, NULL) != 0;
	}
	return bad;
}

/* Phase 3: the run itself, records to stdout. Returns the exit status. */
static int run_cli(struct params *p, struct runner_cfg *cfg, const struct multi *mu)
{
	int fl = fcntl(1, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "isobench: standard output is %s: nowhere to write the records\n",
			fl < 0 ? "closed" : "not writable");
		return EXIT_USAGE;
	}
	out_init();
	if (p->peer[0])
		out_stream_init();	/* a copy of the log to send the peer at the end (runner.c) */
	out_add_fd(1);
	/* Records and tables go to stdout; when that is a file, people still see progress. */
	if (!isatty(1))
		out_add_text_fd(2);
	int rc = run_all(p, cfg, mu);
	/* Records lost to a full disk would leave a log that ends early and a status of 0: the
	 * closing blank line must still reach stdout (write errors are remembered nowhere else;
	 * a disk that fills during the run stays full, so this write fails too). */
	if (write(1, "\n", 1) != 1) {
		fprintf(stderr, "isobench: standard output could not be written (%s): the log is "
				"incomplete\n", strerror(errno));
		return EXIT_USAGE;
	}
	return rc ? EXIT_FAILS : EXIT_OK;
}

/* `isobench --make-scratch PATH SIZE|all` (scratch.h): sign PATH; returns the exit status. */
static int make_scratch(int argc, char **argv)
{
	struct scratch_hdr h;
	char err[300];
	int64_t size = 0;

	if (argc != 4 || (strcmp(argv[3], "all") && (size = params_parse_size(argv[3])) < 0)) {
		fprintf(stderr, "usage: isobench --make-scratch PATH SIZE|all\n"
			"  signs PATH (a file, created if missing, or a whole unmounted disk) as a\n"
			"  scratch area the disk tests may write; SIZE in bytes or with K, M, G, T;\n"
			"  all: the whole device or file. Only a new file, one holding nothing but\n"
			"  zeros, a zeroed disk (first MiB) or one signed before is overwritten.\n");
		return EXIT_USAGE;
	}
	if (scratch_make(argv[2], (uint64_t)size, &h, err, sizeof err)) {
		fprintf(stderr, "isobench: --make-scratch: %s\n", err);
		return EXIT_USAGE;
	}
	printf("isobench: %s signed as scratch: %llu bytes, id %016llx, tests write bytes "
	       "%u..%llu\n", argv[2], (unsigned long long)h.size, (unsigned long long)h.id,
	       h.data_off, (unsigned long long)h.size);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static struct runner_cfg cfg;
	struct params p;
	struct multi mu = {0, 0, {NULL, NULL}};
	int rc, check_only = 0;

	if (argc >= 2 && !strcmp(argv[1], "--exit-now"))
		_exit(0);
	if (init_is_image())
		return init_main(argc, argv);
	if (getpid() == 1 && (rc = init_as_program()) >= 0)
		return rc;	/* PID 1 of a container or sandbox: the program ran in its child */
	if (argc >= 2 && !strcmp(argv[1], "--make-scratch"))
		return make_scratch(argc, argv);	/* sign a scratch disk (scratch.h) */
	if (argc >= 2 && !strcmp(argv[1], "--serve"))	/* the network peer (netserve.c) */
		return netserve_main(argc, argv);

	params_init(&p);
	cfg.mode = REC_MODE_HOST;
	cfg.tmpdir = default_tmpdir();
	if ((rc = parse_cli(argc, argv, &p, &cfg, &check_only, &mu)) >= 0)
		return rc;
	if ((rc = check_cli(&p, &cfg, argv[0], &mu)) >= 0)
		return rc;
	if (check_only)
		return EXIT_OK;	/* every option, value and test name is valid */
	if ((rc = check_disks(&p, &mu)) >= 0)
		return rc;
	return run_cli(&p, &cfg, &mu);
}
