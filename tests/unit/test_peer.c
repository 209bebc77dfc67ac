/* test_peer.c — PID 1's relay of its peer program's output (payload/pid1/peer.c, isobench.serve=1):
 * the bytes reach the stream unchanged, however the pipe cuts them, and the records in them,
 * written by another program, are decoded once for what PID 1 shows of them: the first
 * BEGIN's run id (the results file's name when the watchdog ends the peer) and the latest
 * END's counts (the screen's last page); a damaged END is relayed, never noted. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../payload/out.h"
#include "../../payload/pid1/peer.h"
#include "record.h"
#include "vocab.h"

static char text[16384];
static size_t tlen;

static void add(struct rec_body *b, uint64_t seq)
{
	rec_close(b);
	tlen += rec_seal(text + tlen, sizeof text - tlen, seq, b->buf, b->len);
}

static void relayed_and_noted(void **st)
{
	(void)st;
	static char got[sizeof text + 1];
	struct rec_body b;
	int fd[2];

	assert_int_equal(out_stream_init(), 0);
	tlen = (size_t)snprintf(text, sizeof text, "isobench: a peer's message line\n");
	for (int run = 0; run < 2; run++) {
		rec_begin(&b, RK_BEGIN);
		rec_str(&b, RK_RUN, run ? "ffffffffffffffff" : "feedfacecafe0001");
		add(&b, 1);
		rec_begin(&b, RK_END);
		rec_u64(&b, RK_RECORDS, 1);
		rec_u64(&b, RK_RESULTS, 0);
		rec_u64(&b, RK_FAILS, run ? 4 : 0);
		rec_u64(&b, RK_SKIPS, 0);
		rec_u64(&b, RK_ERRORS, run ? 2 : 0);
		add(&b, 2);
	}
	/* a damaged END after them (its CRC changed): relayed, not noted */
	size_t at = tlen;
	rec_begin(&b, RK_END);
	rec_u64(&b, RK_RECORDS, 2);
	rec_u64(&b, RK_RESULTS, 9);
	rec_u64(&b, RK_FAILS, 9);
	rec_u64(&b, RK_SKIPS, 9);
	rec_u64(&b, RK_ERRORS, 9);
	add(&b, 3);
	text[tlen - 3] = text[tlen - 3] == '0' ? '1' : '0';
	assert_true(tlen > at);
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();	/* the writer: pieces of 7 bytes, every line arrives cut */
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		for (size_t off = 0; off < tlen; off += 7)
			if (write(fd[1], text + off, tlen - off < 7 ? tlen - off : 7) < 0)
				_exit(1);
		_exit(0);
	}
	close(fd[1]);
	pid1_relay(fd[0]);
	close(fd[0]);
	long len = out_stream_read(got, sizeof got - 1, 0);
	assert_int_equal(len, (long)tlen);
	assert_memory_equal(got, text, tlen);
	assert_string_equal(out_first_run(), "feedfacecafe0001");
	const struct out_counts *e = out_last_end();
	assert_non_null(e);
	assert_int_equal(e->fails, 4);
	assert_int_equal(e->errors, 2);
	assert_int_equal(e->results, 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(relayed_and_noted),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
