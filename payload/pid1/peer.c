/* peer.c — see peer.h: the image as the net tests' peer (isobench.serve=1). */
#define _GNU_SOURCE
#include "peer.h"
#include "../net/netnic.h"
#include "../net/netproto.h"
#include "../out.h"
#include "record.h"
#include "vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One whole line of the peer program's output, decoded once: a BEGIN's run id and an END's
 * counts noted (out.h); any other line, or one that is no record, only relayed. */
static void note_line(const char *line, size_t len)
{
	static struct record r;
	unsigned long long v[4];
	const char *run;

	if (rec_parse(line, len, &r) != REC_OK)
		return;
	if (!strcmp(r.kind, RK_BEGIN) && (run = rec_get(&r, RK_RUN)))
		out_note_begin(run);
	if (strcmp(r.kind, RK_END))
		return;
	static const char *const keys[4] = {RK_RESULTS, RK_FAILS, RK_SKIPS, RK_ERRORS};
	for (int i = 0; i < 4; i++)
		if (rec_get_ull(&r, keys[i], 0, ULLONG_MAX, &v[i]))
			return;	/* an END that does not say its counts: none noted */
	struct out_counts c = {.results = v[0], .fails = v[1], .skips = v[2], .errors = v[3]};
	out_note_end(&c);
}

/* The records as they are (lines of up to REC_MAX bytes, sent in out_text()-sized pieces that
 * only this process writes, so they join up again), with nothing added. */
void pid1_relay(int fd)
{
	static char line[REC_MAX];
	char buf[4000];
	size_t ll = 0;
	ssize_t k;

	while ((k = read(fd, buf, sizeof buf)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		out_text("%.*s", (int)k, buf);
		for (ssize_t i = 0; i < k; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof line)
					line[ll] = buf[i];
				ll++;
				continue;
			}
			if (ll < sizeof line)	/* a longer line is no record */
				note_line(line, ll);
			ll = 0;
		}
	}
}

int pid1_serve(const char *self, int seconds)
{
	char life[16], port[8];
	int fd[2], st = 0;
	pid_t pid;

	net_nic_use_peer("");	/* the default route's interface, else the first one up */
	snprintf(life, sizeof life, "%d", seconds);
	snprintf(port, sizeof port, "%d", NET_DEFAULT_PORT);
	if (!strcmp(net_nic_addr(), "-"))	/* no NIC, or none configured */
		out_text("\nisobench: WARNING: no network address here (a NIC, and ip=dhcp or a "
			 "static ip= on the kernel command line?): nobody can reach this peer; it "
			 "serves the loopback only until its life ends\n");
	out_text("\nisobench: this machine is the net tests' peer (isobench.serve=1): %s, port %s "
		 "(TCP and UDP), on %s, for %s s (isobench.serve_seconds), then power-off.\n",
		 net_nic_addr(), port, net_nic_name(), life);
	if (strcmp(net_nic_addr(), "-"))
		out_text("isobench: on the measuring machine: isobench.peer=%s (or --peer %s:%s)\n\n",
			 net_nic_addr(), net_nic_addr(), port);
	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fd[0]);
		close(fd[1]);
		return -e;
	}
	if (pid == 0) {
		/* Every address: this machine exists to be measured against (a cloud instance or
		 * a guest on a private link), and the caps of netserve.c bound what a client gets.
		 * A new image of this program (not PID 1: main() takes --serve): nothing of PID 1's
		 * consoles and record numbering is shared; its log comes through the pipe. */
		char *argv[] = {(char *)self, "--serve", NET_SERVE_FROM_INIT, "--bind", "0.0.0.0",
				"--port", port, "--max-seconds", life, NULL};
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		execv(self, argv);
		fprintf(stderr, "isobench: cannot run %s --serve: %s\n", self, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	pid1_relay(fd[0]);
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	out_text("isobench: the peer's life is over (%s s): %s\n", life,
		 WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "it ended normally" : "it ended with an error");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
