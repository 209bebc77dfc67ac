/* out.c — see out.h. */
#define _GNU_SOURCE
#include "out.h"
#include "digest.h"
#include "io.h"
#include "sys.h"
#include "version.h"
#include "vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 8
/* Bytes per console write: at 115200 baud ~45 ms, so out_quiet() waits at most that long for
 * a chunk in flight on a real line. */
#define CHUNK 512
/* Console states. */
enum { CON_LIVE, CON_DEAD };

struct con_state {
	char name[16];
	int fd;
	_Atomic uint64_t done;		/* stream bytes written and transmitted (tcdrain) */
	_Atomic uint64_t busy_since;	/* CLOCK_MONOTONIC ns when the chunk in flight began; 0 idle */
	_Atomic uint64_t write_ns;	/* total time inside write() + tcdrain() */
	_Atomic int state;
	_Atomic int err;		/* errno that killed it */
};

struct shared {
	atomic_ullong seq;
	_Atomic uint32_t gen;		/* futex word: bumped on every append and quiet change */
	_Atomic int quiet;
	_Atomic int started;		/* pumps running */
	/* The stream's first BEGIN: 1 + its offset (0: none yet), its run id (out_begin()). */
	_Atomic uint64_t first_begin;
	char first_run[32];
	struct out_counts end;		/* the latest END's counts, once have_end */
	_Atomic int have_end;
	int ncon;
	struct con_state con[OUT_MAX_CONSOLES];
};

static int fds[MAX_FDS], nfds;
static int text_fds[MAX_FDS], ntext;
static struct shared *sh, sh_local;
static int stream_fd = -1;
static struct out_counts counts;
static uint64_t run_off;
char out_console_absent[128];

static void fwait(_Atomic uint32_t *w, uint32_t v, int ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
	futex_wait(w, v, &t);
}

static void fwake(_Atomic uint32_t *w)
{
	futex_wake(w, INT_MAX);
}

static void bump(void)
{
	atomic_fetch_add(&sh->gen, 1);
	fwake(&sh->gen);
}

int out_init(void)
{
	void *m = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		sh = &sh_local;	/* one process only: the watchdog's records restart at 1 */
		return -errno;
	}
	sh = m;
	memset(sh, 0, sizeof *sh);
	return 0;
}

void out_new_run(void)
{
	if (sh)
		atomic_store(&sh->seq, 0);
	memset(&counts, 0, sizeof counts);
}

void out_add_fd(int fd)
{
	for (int i = 0; i < nfds; i++)
		if (fds[i] == fd)
			return;
	if (nfds < MAX_FDS)
		fds[nfds++] = fd;
}

void out_add_text_fd(int fd)
{
	if (ntext < MAX_FDS)
		text_fds[ntext++] = fd;
}

static uint64_t stream_len(void)
{
	struct stat st;
	return stream_fd >= 0 && fstat(stream_fd, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Append to the stream (O_APPEND: one write is one piece, whichever process writes). */
static void append(const char *s, size_t n)
{
	if (write_all(stream_fd, s, n) == 0)
		bump();
}

static void broadcast(const char *s, size_t n)
{
	if (stream_fd >= 0)
		append(s, n);
	for (int i = 0; i < nfds; i++)
		write_all(fds[i], s, n);
}

static void console_list_info(void);

uint64_t out_record(struct rec_body *b)
{
	static char line[REC_MAX];
	if (!sh)
		out_init();
	uint64_t n = atomic_fetch_add(&sh->seq, 1) + 1;
	size_t len;

	rec_close(b);
	len = rec_seal(line, sizeof line, n, b->buf, b->len);
	if (!len)
		return 0;
	/* A record that PID 1 writes between tests ends any quiet window a killed test left. */
	if (!rec_body_is(b, RK_SAMPLE) && atomic_load(&sh->quiet)) {
		atomic_store(&sh->quiet, 0);
		bump();
	}
	if (rec_body_is(b, RK_BEGIN)) {
		run_off = stream_len();	/* the run's log starts here (out_run_offset()) */
		uint64_t none = 0;	/* the stream's first: where a replay starts */
		atomic_compare_exchange_strong(&sh->first_begin, &none, run_off + 1);
	}
	broadcast(line, len);
	if (!rec_body_is(b, RK_DIGEST))
		digest_note(b);	/* the run restated before END (digest.h) */
	counts.records = n;
	if (rec_body_is(b, RK_RESULT))
		counts.results++;
	else if (rec_body_is(b, RK_FAIL))
		counts.fails++;
	else if (rec_body_is(b, RK_SKIP))
		counts.skips++;
	else if (rec_body_is(b, RK_ERROR))
		counts.errors++;
	else if (rec_body_is(b, RK_BEGIN) && sh->ncon)
		console_list_info();
	return n;
}

void out_text(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1)
		n = (int)sizeof buf - 1;
	if (n > 0) {
		broadcast(buf, (size_t)n);
		for (int i = 0; i < ntext; i++)
			write_all(text_fds[i], buf, (size_t)n);
	}
}

uint64_t out_end(const char *status, const char *clocksource)
{
	struct rec_body b;

	digest_write(out_record);	/* the run's digest, just before END (digest.h) */
	rec_begin(&b, RK_END);
	rec_u64(&b, RK_RECORDS, counts.records);
	rec_u64(&b, RK_RESULTS, counts.results);
	rec_u64(&b, RK_FAILS, counts.fails);
	rec_u64(&b, RK_SKIPS, counts.skips);
	rec_u64(&b, RK_ERRORS, counts.errors);
	rec_str(&b, RK_STATUS, status);
	if (clocksource)
		rec_str(&b, RK_CLOCKSOURCE, clocksource);
	struct out_counts said = counts;	/* what this END says (out_last_end()) */
	uint64_t n = out_record(&b);
	out_note_end(&said);
	return n;
}

void out_note_end(const struct out_counts *c)
{
	if (!sh)
		out_init();
	sh->end = *c;
	atomic_store(&sh->have_end, 1);
}

void out_note_begin(const char *run)
{
	if (!sh)
		out_init();
	if (!sh->first_run[0])	/* the results file's name (resultsfile.c) */
		snprintf(sh->first_run, sizeof sh->first_run, "%s", run);
}

uint64_t out_begin(const char *run, const char *mode)
{
	struct rec_body b;

	out_note_begin(run);
	rec_begin(&b, RK_BEGIN);
	rec_str(&b, RK_RUN, run);
	rec_str(&b, RK_VERSION, isobench_version);
	rec_str(&b, RK_MODE, mode);
	return out_record(&b);
}

const char *out_first_run(void)
{
	return sh ? sh->first_run : "";
}

const struct out_counts *out_last_end(void)
{
	return sh && atomic_load(&sh->have_end) ? &sh->end : NULL;
}

const struct out_counts *out_counts(void)
{
	return &counts;
}

/* ---- consoles ---- */

int out_stream_init(void)
{
	if (!sh && out_init() && sh != &sh_local)
		return -ENOMEM;
	stream_fd = memfd_create("isobench-stream", MFD_CLOEXEC);
	if (stream_fd < 0)
		return -errno;
	/* O_APPEND on the shared description: PID 1 and the watchdog never interleave. */
	fcntl(stream_fd, F_SETFL, O_APPEND);
	return 0;
}

int out_console_add(const char *name, int fd)
{
	if (!sh || sh->ncon >= OUT_MAX_CONSOLES)
		return -1;
	struct con_state *c = &sh->con[sh->ncon++];
	snprintf(c->name, sizeof c->name, "%s", name);
	c->fd = fd;
	return 0;
}

/* One console's pump: copy the stream to the device, a chunk at a time, never while a
 * sample is measured. Runs until the machine powers off (or the device fails). */
static void pump(struct con_state *c)
{
	char buf[CHUNK];
	int tty = isatty(c->fd);

	prctl(PR_SET_NAME, "isobench-con");
	for (;;) {
		uint32_t g = atomic_load(&sh->gen);
		uint64_t done = atomic_load(&c->done), have = stream_len();
		if (done >= have || atomic_load(&sh->quiet)) {
			fwait(&sh->gen, g, 1000);
			continue;
		}
		atomic_store(&c->busy_since, now_ns());
		if (atomic_load(&sh->quiet)) {	/* quiet began: back off (out_quiet waits on us) */
			atomic_store(&c->busy_since, 0);
			continue;
		}
		size_t want = have - done > CHUNK ? CHUNK : (size_t)(have - done);
		ssize_t n = pread(stream_fd, buf, want, (off_t)done);
		uint64_t t0 = now_ns();
		/* Blocking writes on a description another holder may have made O_NONBLOCK:
		 * EAGAIN waits for room (a slow or flow-controlled line) instead of killing the
		 * console and dropping every record after it (tests/unit/test_pump.c). */
		int bad = n <= 0 || write_all_wait(c->fd, buf, (size_t)n);
		if (!bad && tty)
			tcdrain(c->fd);	/* the bytes have left the UART, not just the buffer */
		atomic_fetch_add(&c->write_ns, now_ns() - t0);
		atomic_store(&c->busy_since, 0);
		if (bad) {
			atomic_store(&c->err, n < 0 || n == 0 ? EIO : errno);
			atomic_store(&c->state, CON_DEAD);
			bump();
			_exit(1);
		}
		atomic_store(&c->done, done + (uint64_t)n);
		bump();
	}
}

int out_consoles_start(void)
{
	int n = 0;

	if (!sh || stream_fd < 0)
		return 0;
	for (int i = 0; i < sh->ncon; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			for (int k = 0; k < sh->ncon; k++)
				if (k != i)
					close(sh->con[k].fd);
			pump(&sh->con[i]);
			_exit(0);
		}
		if (pid > 0)
			n++;
		else
			atomic_store(&sh->con[i].state, CON_DEAD);
	}
	atomic_store(&sh->started, n);
	return n;
}

static int stalled(const struct con_state *c, uint64_t now, int stall_ms)
{
	uint64_t b = atomic_load(&c->busy_since);
	return b && now > b && now - b > (uint64_t)stall_ms * 1000000u;
}

void out_quiet(int on)
{
	if (!sh || !atomic_load(&sh->started))
		return;
	atomic_store(&sh->quiet, on ? 1 : 0);
	if (!on) {
		bump();
		return;
	}
	/* Let a chunk in flight finish (a stalled console is not waited for). */
	uint64_t t0 = now_ns();
	for (;;) {
		uint64_t now = now_ns();
		int busy = 0;
		for (int i = 0; i < sh->ncon; i++)
			busy |= atomic_load(&sh->con[i].state) == CON_LIVE &&
				atomic_load(&sh->con[i].busy_since) && !stalled(&sh->con[i], now, 200);
		if (!busy || now - t0 > 200000000u)
			return;
		struct timespec d = {0, 1000000};
		nanosleep(&d, NULL);
	}
}

int out_drain(int max_ms, int stall_ms)
{
	uint64_t last[OUT_MAX_CONSOLES], prev_done[OUT_MAX_CONSOLES];
	int prev_q[OUT_MAX_CONSOLES];

	if (!sh || !atomic_load(&sh->started))
		return 0;
	atomic_store(&sh->quiet, 0);
	bump();
	uint64_t t0 = now_ns(), target = stream_len();
	for (int i = 0; i < sh->ncon; i++) {
		last[i] = t0;
		prev_done[i] = atomic_load(&sh->con[i].done);
		prev_q[i] = -1;
	}
	for (;;) {
		uint64_t now = now_ns();
		int behind = 0;
		uint32_t g = atomic_load(&sh->gen);
		for (int i = 0; i < sh->ncon; i++) {
			const struct con_state *c = &sh->con[i];
			uint64_t done = atomic_load(&c->done);
			int q;
			if (atomic_load(&c->state) != CON_LIVE || done >= target)
				continue;
			/* Progress: a chunk finished, or the tty's output queue moved (a slow line
			 * drains it byte by byte while its pump waits in tcdrain). */
			if (done != prev_done[i]) {
				prev_done[i] = done;
				last[i] = now;
			}
			if (ioctl(c->fd, TIOCOUTQ, &q) == 0 && q != prev_q[i]) {
				prev_q[i] = q;
				last[i] = now;
			}
			if (now - last[i] > (uint64_t)stall_ms * 1000000u)
				continue;	/* stalled: given up on */
			behind++;
		}
		if (!behind || now - t0 >= (uint64_t)max_ms * 1000000u)
			return behind;
		fwait(&sh->gen, g, 50);
	}
}

static void console_list_info(void)
{
	struct rec_body b;
	char list[OUT_MAX_CONSOLES * 18] = "";
	size_t off = 0;

	for (int i = 0; i < sh->ncon && off < sizeof list - 18; i++)
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? "," : "",
					sh->con[i].name);
	rec_begin(&b, RK_INFO);
	rec_str(&b, RK_CONSOLE_USED, list);
	if (out_console_absent[0])
		rec_str(&b, RK_CONSOLE_ABSENT, out_console_absent);
	else
		rec_str(&b, RK_CONSOLE_ABSENT, "-");
	out_record(&b);
}

void out_console_info(void)
{
	struct rec_body b;
	char bytes[OUT_MAX_CONSOLES * 40] = "", ms[sizeof bytes] = "", st[sizeof bytes] = "";
	size_t ob = 0, om = 0, os = 0;
	uint64_t now = now_ns(), have = stream_len();

	if (!sh || !sh->ncon)
		return;
	for (int i = 0; i < sh->ncon; i++) {
		const struct con_state *c = &sh->con[i];
		const char *s = atomic_load(&c->state) == CON_DEAD ? "dead"
				: stalled(c, now, 2000)		   ? "stalled"
				: atomic_load(&c->done) < have	   ? "behind"
								   : "ok";
		ob += (size_t)snprintf(bytes + ob, sizeof bytes - ob, "%s%s:%llu", i ? "," : "",
				       c->name, (unsigned long long)atomic_load(&c->done));
		om += (size_t)snprintf(ms + om, sizeof ms - om, "%s%s:%llu", i ? "," : "", c->name,
				       (unsigned long long)(atomic_load(&c->write_ns) / 1000000u));
		os += (size_t)snprintf(st + os, sizeof st - os, "%s%s:%s", i ? "," : "", c->name, s);
	}
	rec_begin(&b, RK_INFO);
	rec_str(&b, RK_CONSOLE_BYTES, bytes);
	rec_str(&b, RK_CONSOLE_WRITE_MS, ms);
	rec_str(&b, RK_CONSOLE_STATE, st);
	out_record(&b);
}

long out_stream_read(char *buf, size_t cap, size_t off)
{
	if (stream_fd < 0)
		return -1;
	uint64_t len = stream_len();
	if (off < len && cap) {
		size_t want = len - off < cap ? (size_t)(len - off) : cap;
		if (pread(stream_fd, buf, want, (off_t)off) < 0)
			return -1;
	}
	return (long)len;
}

size_t out_run_offset(void)
{
	return (size_t)run_off;
}

void out_replay(void)
{
	static char buf[65536];
	uint64_t len = stream_len(), off = sh ? atomic_load(&sh->first_begin) : 0;
	char line[REC_MAX];
	size_t ll = 0;
	int tl = (int)strlen(REC_TAG);

	if (stream_fd < 0)
		return;
	out_text("\nisobench: replay of the run's records follows (isobench.replay=1)\n");
	/* Copy the record lines of [first BEGIN, len) once more; the text in between is not
	 * repeated. Without a BEGIN (off 0) there is nothing to replay. */
	for (off = off ? off - 1 : len; off < len;) {
		size_t want = len - off < sizeof buf ? (size_t)(len - off) : sizeof buf;
		ssize_t n = pread(stream_fd, buf, want, (off_t)off);
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (ll < sizeof line - 1)
				line[ll++] = buf[i];
			if (buf[i] != '\n')
				continue;
			line[ll] = 0;
			if (ll > (size_t)tl && !memcmp(line, REC_TAG, (size_t)tl))
				append(line, ll);
			ll = 0;
		}
		off += (uint64_t)n;
	}
	out_text("isobench: end of replay\n");
}

static void on_alarm(int sig)
{
	(void)sig;
}

void out_stream_flush_to(int fd, unsigned seconds)
{
	char buf[4096];
	uint64_t len = stream_len();

	/* A stalled device: the write is interrupted, not waited for. PID 1 ignores signals
	 * without a handler, so install one (no SA_RESTART). */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
	for (uint64_t off = 0; off < len;) {
		ssize_t n = pread(stream_fd, buf, sizeof buf, (off_t)off);
		if (n <= 0 || write_all(fd, buf, (size_t)n))
			break;
		off += (uint64_t)n;
	}
	alarm(0);
}
