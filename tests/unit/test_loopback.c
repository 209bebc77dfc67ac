/* test_loopback.c — probe_listen_loopback() (payload/core/probe_util.h), the listener of the
 * sockwrite and tbench tests: bound to 127.0.0.1 on a port the kernel chose, reachable at the
 * address it returns, close-on-exec; -errno and no socket left open when it cannot listen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../payload/core/probe_util.h"

static void listens_and_answers(void **st)
{
	struct sockaddr_in sa;
	char c = 0;
	(void)st;
	int lst = probe_listen_loopback(1, &sa);
	assert_true(lst >= 0);
	assert_int_equal(sa.sin_family, AF_INET);
	assert_int_equal(ntohl(sa.sin_addr.s_addr), INADDR_LOOPBACK);
	assert_int_not_equal(ntohs(sa.sin_port), 0);
	assert_true(fcntl(lst, F_GETFD) & FD_CLOEXEC);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	int acc = accept(lst, NULL, NULL);
	assert_true(acc >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(read(acc, &c, 1), 1);
	assert_int_equal(c, 'x');
	close(acc);
	close(fd);
	close(lst);
}

/* No descriptor left: socket() fails with EMFILE, returned as -EMFILE. */
static void error_is_minus_errno(void **st)
{
	struct rlimit old, low;
	struct sockaddr_in sa;
	(void)st;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	int top = dup(0);	/* the lowest free descriptor: limit the process to those below */
	assert_true(top >= 0);
	close(top);
	low = old;
	low.rlim_cur = (rlim_t)top;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	int r = probe_listen_loopback(1, &sa);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(r, -EMFILE);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(listens_and_answers),
		cmocka_unit_test(error_is_minus_errno),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
