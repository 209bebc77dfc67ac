/* test_pump.c — a console pump (payload/out.c) against a pseudo-terminal that is slow to
 * drain: 400 records of ~300 bytes (120 KiB, many times what the pty buffers) written while
 * a reader takes 256 bytes every 2 ms. Every record must arrive once, whole (its CRC good)
 * and in order, and the console must still be live — once on an ordinary (blocking) slave,
 * once on a slave whose open file description is O_NONBLOCK (the console's own open
 * description is shared by whoever else holds it: a write that would block answers EAGAIN,
 * which is no reason to drop the console and every record after it). Each case runs in a
 * child process group, so the pump it forks is killed with it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../payload/out.h"
#include "record.h"
#include "vocab.h"

#define NREC 400

/* Read fd slowly (256 bytes per 2 ms) into path until 1 s passes without a byte. */
static void slow_reader(int fd, const char *path)
{
	FILE *f = fopen(path, "w");
	char buf[256];
	int idle = 0;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (f && idle < 500) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n > 0) {
			fwrite(buf, 1, (size_t)n, f);
			idle = 0;
		} else {
			idle++;
		}
		struct timespec t = {0, 2000000};
		nanosleep(&t, NULL);
	}
	if (f)
		fclose(f);
	_exit(0);
}

/* The writer's side, in its own process group: pump, records, drain. Exit status 0 when
 * the console caught up and is live, 1 otherwise. */
static void writer(int slave_flags, const char *path)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m))
		_exit(2);
	int s = open(ptsname(m), O_RDWR | O_NOCTTY | slave_flags);
	if (s < 0 || out_stream_init() || out_console_add("pts", s) || out_consoles_start() != 1)
		_exit(3);
	pid_t rd = fork();
	if (rd == 0)
		slow_reader(m, path);
	for (int i = 0; i < NREC; i++) {
		struct rec_body b;
		char pad[260];
		memset(pad, 'a' + i % 26, sizeof pad - 1);
		pad[sizeof pad - 1] = 0;
		rec_begin(&b, RK_INFO);
		rec_u64(&b, RK_I, (uint64_t)i);
		rec_str(&b, RK_NOTE, pad);
		out_record(&b);
	}
	int behind = out_drain(30000, 5000);
	waitpid(rd, NULL, 0);
	_exit(behind ? 1 : 0);
}

/* Run one case; returns the records found in order in the reader's file, -1 if the writer
 * did not catch up. */
static int one_case(int slave_flags)
{
	char path[] = "/tmp/test_pump.XXXXXX";
	int fd = mkstemp(path), st = 0;
	close(fd);
	pid_t w = fork();
	if (w == 0) {
		setpgid(0, 0);
		writer(slave_flags, path);
	}
	setpgid(w, w);
	waitpid(w, &st, 0);	/* after its reader, which stops 1 s after the last byte */
	kill(-w, SIGKILL);	/* the pump */
	while (waitpid(-w, NULL, 0) > 0)
		;
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int next = 0, bad = 0;
	struct record *r = malloc(sizeof *r);
	while (f && r && (len = getline(&line, &cap, f)) > 0) {
		if (!strstr(line, REC_TAG))
			continue;
		if (rec_parse(line, (size_t)len, r) != REC_OK || !rec_get(r, RK_I) ||
		    atoi(rec_get(r, RK_I)) != next) {
			bad++;
			continue;
		}
		next++;
	}
	if (f)
		fclose(f);
	free(line);
	free(r);
	unlink(path);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "writer status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	fprintf(stderr, "flags %#x: %d records in order, %d out of order or damaged\n",
		slave_flags, next, bad);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 && !bad ? next : -1;
}

static void blocking_slave(void **st)
{
	(void)st;
	assert_int_equal(one_case(0), NREC);
}

static void nonblocking_slave(void **st)
{
	(void)st;
	assert_int_equal(one_case(O_NONBLOCK), NREC);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(blocking_slave),
		cmocka_unit_test(nonblocking_slave),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
