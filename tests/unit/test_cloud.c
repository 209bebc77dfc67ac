/* test_cloud.c — payload/pid1/http.h's client against canned answers from a server on the
 * loopback (a whole answer, chunked, Google's header, garbage, a cut body, too big, too
 * slow, nobody listening), its base64, and cloud.h's user data format. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/out.h"
#include "../../payload/pid1/cloud.h"
#include "../../payload/pid1/http.h"

/* The stubs cloud.c calls (the real ones write records and consoles). */
void out_text(const char *fmt, ...)
{
	(void)fmt;
}
/* The ERRORs cloud.c gave: each "param=value: reason", one a line. */
static char errors[1024];
void runner_pending_error(void *cfg, const char *param, const char *value, const char *reason)
{
	size_t n = strlen(errors);

	(void)cfg;
	snprintf(errors + n, sizeof errors - n, "%s=%s: %s\n", param, value, reason);
}
/* The runner's test names, as far as these tests need them: index, pipe, getpid, net. */
int runner_unknown_tests(const struct params *p, char *out, size_t cap)
{
	static const char *const known = ",index,pipe,getpid,net,";
	char list[sizeof p->tests], *tok, *save = NULL;
	int n = 0;

	out[0] = 0;
	snprintf(list, sizeof list, "%s", p->tests);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char item[80];
		snprintf(item, sizeof item, ",%s,", tok);
		if (!strstr(known, item)) {
			size_t l = strlen(out);
			snprintf(out + l, cap - l, "%s%s", n++ ? "," : "", tok);
		}
	}
	return n;
}
void runner_pending_fact(struct runner_cfg *cfg, const char *key, const char *value)
{
	(void)cfg, (void)key, (void)value;
}
void runner_pending_warn(struct runner_cfg *cfg, const char *what, const char *fmt, ...)
{
	(void)cfg, (void)what, (void)fmt;
}

static char err[300], body[64], request[2048];

static int req_fd = -1;	/* the server's copy of the request comes through it */

/* A server on 127.0.0.1 (any port, into *port) that takes one connection, reads the request
 * (sent back through req_fd: got_request() reads it), waits delay_ms, sends answer (n
 * bytes) and closes. Its pid. */
static pid_t serve_once(const char *answer, size_t n, int delay_ms, int *port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t l = sizeof sa;
	int s = socket(AF_INET, SOCK_STREAM, 0), p[2];

	assert_true(s >= 0 && !bind(s, (struct sockaddr *)&sa, sizeof sa) && !listen(s, 1) &&
		    !getsockname(s, (struct sockaddr *)&sa, &l) && !pipe(p));
	*port = ntohs(sa.sin_port);
	pid_t pid = fork();
	if (pid == 0) {
		int c = accept(s, NULL, NULL);
		ssize_t k, got = 0;
		while (got < (ssize_t)sizeof request - 1 &&
		       (k = read(c, request + got, sizeof request - 1 - (size_t)got)) > 0) {
			got += k;
			request[got] = 0;
			if (strstr(request, "\r\n\r\n"))
				break;
		}
		(void)!write(p[1], request, (size_t)got);
		usleep((useconds_t)delay_ms * 1000);
		(void)!write(c, answer, n);
		close(c);
		_exit(0);
	}
	close(s);
	close(p[1]);
	req_fd = p[0];
	return pid;
}

/* The request the server got, into request (after the client is done). */
static void got_request(void)
{
	ssize_t k = read(req_fd, request, sizeof request - 1);

	request[k > 0 ? k : 0] = 0;
	close(req_fd);
	req_fd = -1;
}

/* One request to a canned answer: http_request()'s return, the answer in *a. */
static int ask(const char *answer, size_t n, int delay_ms, int timeout_ms, struct http_answer *a)
{
	int port, st;
	pid_t pid = serve_once(answer, n, delay_ms, &port);
	int r = http_request("GET", "127.0.0.1", port, "metadata.google.internal", "/x",
			     "Metadata-Flavor: Google\r\n", body, sizeof body, a, timeout_ms, err,
			     sizeof err);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	got_request();
	return r;
}
#define ASK(s, delay, tmo, a) ask(s, sizeof s - 1, delay, tmo, a)

static void whole_answer(void **st)
{
	struct http_answer a;

	(void)st;
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\nMetadata-Flavor: Google\r\nContent-Length: 5"
			     "\r\n\r\nhello", 0, 2000, &a), 0);
	assert_int_equal(a.status, 200);
	assert_string_equal(a.body, "hello");
	assert_int_equal(a.len, 5);
	assert_string_equal(a.flavor, "Google");
	assert_non_null(strstr(request, "GET /x HTTP/1.1\r\nHost: metadata.google.internal\r\n"));
	assert_non_null(strstr(request, "\r\nMetadata-Flavor: Google\r\n"));
	assert_non_null(strstr(request, "\r\nConnection: close\r\n"));
}

static void chunked_and_404(void **st)
{
	struct http_answer a;

	(void)st;
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
			     "6;ext=1\r\n world\r\n0\r\n\r\n", 0, 2000, &a), 0);
	assert_string_equal(a.body, "hello world");
	assert_string_equal(a.flavor, "");
	assert_int_equal(ASK("HTTP/1.0 404 Not Found\r\n\r\n", 0, 2000, &a), 0);
	assert_int_equal(a.status, 404);
	assert_int_equal(a.len, 0);
}

static void refusals(void **st)
{
	struct http_answer a;

	(void)st;
	assert_int_equal(ASK("\x00\x17garbage, not HTTP\xff\r\n\r\n", 0, 2000, &a), -EPROTO);
	/* its first 20 bytes as they came, a NUL as \x00 (issue 51: it printed as '') */
	assert_string_equal(err, "not an HTTP answer (it begins '\\x00\\x17garbage, not HTTP\\xff')");
	/* the status code is three digits between single spaces: no sign, no fourth digit */
	assert_int_equal(ASK("HTTP/1.1 +20 OK\r\n\r\n", 0, 2000, &a), -EPROTO);
	assert_int_equal(ASK("HTTP/1.1 2000 OK\r\n\r\n", 0, 2000, &a), -EPROTO);
	assert_int_equal(ASK("HTTP/1.1  200 OK\r\n\r\n", 0, 2000, &a), -EPROTO);
	assert_int_equal(ASK("HTTP/1.1 200\r\n\r\n", 0, 2000, &a), 0);
	assert_int_equal(a.status, 200);
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", 0, 2000, &a),
			 -EPROTO);
	assert_non_null(strstr(err, "cut: 5 of 10"));
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nhello",
			     0, 2000, &a), -EPROTO);
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\nContent-Length: 70\r\n\r\n0123456789012345678901"
			     "234567890123456789012345678901234567890123456789", 0, 2000, &a),
			 -EFBIG);
	assert_int_equal(ASK("HTTP/1.1 200 OK\r\n\r\nslow", 600, 200, &a), -ETIMEDOUT);
	assert_non_null(strstr(err, "within the time allowed"));
	/* Nobody listening: refused at once. */
	int port;
	pid_t pid = serve_once("", 0, 0, &port);
	kill(pid, SIGKILL);	/* its listening socket goes with it */
	waitpid(pid, NULL, 0);
	close(req_fd);
	assert_int_equal(http_request("GET", "127.0.0.1", port, "h", "/", "", body, sizeof body,
				      &a, 2000, err, sizeof err), -ECONNREFUSED);
}

static void base64(void **st)
{
	char s[64];

	(void)st;
	strcpy(s, "aXNvYmVuY2gu\ndGVzdHM9Z2V0cGlk");
	assert_int_equal(http_base64_decode(s, strlen(s)), 21);
	assert_string_equal(s, "isobench.tests=getpid");
	strcpy(s, "aXM=");
	assert_int_equal(http_base64_decode(s, strlen(s)), 2);
	assert_string_equal(s, "is");
	strcpy(s, "aXN*");
	assert_int_equal(http_base64_decode(s, strlen(s)), -EPROTO);
}

static void user_data_format(void **st)
{
	char t[256];

	(void)st;
	strcpy(t, "#!/bin/sh comment\nisobench.suite=quick  # one more\r\n"
		  "isobench.tests=\"a b\" isobench.copies=1\n");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), 3);
	assert_null(strchr(t, '#'));	/* the comments blanked */
	strcpy(t, "#cloud-config\npackages:\n - fio\n");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	assert_string_equal(err, "word 1, 'packages:', is not isobench.KEY=VALUE");
	strcpy(t, "isobench.suite");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	strcpy(t, "isobench.suite=quick\x01");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	assert_string_equal(err, "not text: byte 0x01 at offset 20");
	/* a leading UTF-8 byte-order mark (Notepad's) is no garbage; one later on is */
	strcpy(t, "\xef\xbb\xbfisobench.suite=quick\r\n");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), 1);
	assert_int_equal(t[0], ' ');
	strcpy(t, "isobench.suite=quick \xef\xbb\xbf");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	assert_string_equal(err, "not text: byte 0xef at offset 21");
	/* a quote not closed on its line would swallow the lines after it into one value */
	strcpy(t, "isobench.peer=\"10.0.0.1\nisobench.suite=quick\n");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	assert_string_equal(err, "word 1, 'isobench.peer=\"10.0.0.1', has a quote not closed on "
			    "its line");
	strcpy(t, "isobench.peer=\"10.0.0.1");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), -EPROTO);
	strcpy(t, "  \n# nothing\n");
	assert_int_equal(cloud_check_text(t, strlen(t), err, sizeof err), 0);
}

/* params_from_cmdline_keys(): the keys taken, each once, in the order first set (the suite
 * first, as it is applied first); a refused word's key is not taken. */
static void keys_taken(void **st)
{
	struct params p;
	char taken[64];

	(void)st;
	params_init(&p);
	params_from_cmdline_keys(&p, "isobench.tests=getpid\r\nisobench.copies=x other=1 "
				 "isobench.suite=quick isobench.tests=pipe", NULL, NULL, taken,
				 sizeof taken);
	assert_string_equal(taken, "suite,tests");
	assert_string_equal(p.tests, "pipe");
	assert_int_equal(p.suite, SUITE_QUICK);
}

/* cloud_apply_text(): user data whose tests= names an unknown test is refused whole, an
 * ERROR, and the command line's list stays (as any bad value in user data: docs/clouds.md);
 * its other words still apply. A wholly unknown list used to replace the command line's, so
 * the run measured nothing. */
static void user_data_applied(void **st)
{
	struct params p;
	char t[256], keys[128];

	(void)st;
	params_init(&p);
	params_from_cmdline(&p, "isobench.tests=pipe isobench.suite=standard", NULL, NULL);
	errors[0] = 0;
	strcpy(t, "isobench.suite=quick isobench.tests=nosuchtest isobench.image=x");
	cloud_apply_text(&p, t, NULL, keys, sizeof keys);
	assert_string_equal(p.tests, "pipe");
	assert_int_equal(p.suite, SUITE_QUICK);
	assert_string_equal(keys, "suite");
	assert_non_null(strstr(errors, "isobench.image=x: only the kernel command line"));
	assert_non_null(strstr(errors, "isobench.tests=nosuchtest: unknown test or group: "
			       "nosuchtest"));
	/* one unknown name among known ones: the whole value refused too */
	errors[0] = 0;
	strcpy(t, "isobench.tests=getpid,nosuch isobench.copies=1");
	cloud_apply_text(&p, t, NULL, keys, sizeof keys);
	assert_string_equal(p.tests, "pipe");
	assert_string_equal(keys, "copies");
	assert_non_null(strstr(errors, "isobench.tests=getpid,nosuch: unknown test or group: "
			       "nosuch"));
	/* a refused word with a quoted value is blanked whole: the words after it still
	 * apply (its quote's second half used to open a quote that swallowed them) */
	errors[0] = 0;
	strcpy(t, "isobench.image=\"x y\" isobench.sample_ms=50");
	cloud_apply_text(&p, t, NULL, keys, sizeof keys);
	assert_int_equal(p.sample_ms, 50);
	assert_string_equal(keys, "sample_ms");
	assert_non_null(strstr(errors, "isobench.image=\"x y\": only the kernel command line"));
	/* known names: taken */
	errors[0] = 0;
	strcpy(t, "isobench.tests=getpid,net");
	cloud_apply_text(&p, t, NULL, keys, sizeof keys);
	assert_string_equal(p.tests, "getpid,net");
	assert_string_equal(keys, "tests");
	assert_string_equal(errors, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_answer),
		cmocka_unit_test(chunked_and_404),
		cmocka_unit_test(refusals),
		cmocka_unit_test(base64),
		cmocka_unit_test(user_data_format),
		cmocka_unit_test(keys_taken),
		cmocka_unit_test(user_data_applied),
	};
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
