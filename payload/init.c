/* init.c — see init.h. */
#define _GNU_SOURCE
#include "init.h"
#include "harness.h"
#include "out.h"
#include "params.h"
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void note(const char *fmt, const char *arg)
{
	char buf[256];
	int n = snprintf(buf, sizeof buf, fmt, arg);
	if (n > 0)
		write_all(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static int do_mounts(char *err, size_t len)
{
	static const struct {
		const char *src, *dst, *type, *opts;
	} m[] = {
		{"proc", "/proc", "proc", NULL},
		{"sysfs", "/sys", "sysfs", NULL},
		{"devtmpfs", "/dev", "devtmpfs", NULL},
		{"tmpfs", "/tmp", "tmpfs", "mode=1777"},
	};

	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		mkdir(m[i].dst, 0755);
		if (mount(m[i].src, m[i].dst, m[i].type, MS_NOSUID, m[i].opts) && errno != EBUSY) {
			snprintf(err, len, "mount %s: %s", m[i].dst, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Open every console the kernel writes to (/proc/consoles), so records reach serial and
 * screen alike; /dev/console alone is only the last console= named. */
static int open_consoles(void)
{
	char line[256], path[80];
	int n = 0;
	FILE *f = fopen("/proc/consoles", "r");

	while (f && fgets(line, sizeof line, f)) {
		char name[64];
		if (sscanf(line, "%63s", name) != 1)
			continue;
		snprintf(path, sizeof path, "/dev/%s", name);
		int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			out_add_fd(fd);
			n++;
		}
	}
	if (f)
		fclose(f);
	if (!n)
		out_add_fd(1);
	return n;
}

/* Bring the loopback interface up; the kernel then adds 127.0.0.1/8 itself. */
static int loopback_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = -1;

	if (s < 0)
		return -errno;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		r = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	r = r ? -errno : 0;
	close(s);
	return r;
}

/* Power off (or reboot) from a vfork()ed child: if PID 1 itself called reboot() and it
 * failed, the kernel would panic on PID 1's exit path. Never returns. */
static void halt_system(enum halt h)
{
	sync();
	if (h == HALT_WAIT) {
		/* Keep the tables on screen until a key is pressed on the console. */
		out_text("\nisobench: done. Press Enter to power off.\n");
		int fd = open("/dev/tty0", O_RDONLY | O_NOCTTY);
		char c;
		if (fd < 0)
			fd = 0;
		while (read(fd, &c, 1) < 0 && errno == EINTR)
			;
	}
	for (;;) {
		pid_t pid = vfork();
		if (pid == 0) {
			reboot(h == HALT_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
			_exit(1);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		out_text("isobench: power-off failed (%s); halted — switch the machine off\n",
			 strerror(errno));
		for (;;) {
			struct timespec t = {3600, 0};
			nanosleep(&t, NULL);
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		}
	}
}

/* A separate process that ends the run if it outlives its budget. */
static pid_t start_watchdog(int seconds, enum halt h)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec t = {seconds, 0};
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		while (nanosleep(&t, &t) && errno == EINTR)
			;
		struct rec_body b;
		rec_begin(&b, "FAIL");
		rec_str(&b, "test", "watchdog");
		rec_fmt(&b, "reason", "the run exceeded its %d s budget; powering off", seconds);
		out_record(&b);
		sync();
		reboot(h == HALT_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
		_exit(1);
	}
	return pid;
}

static pid_t watchdog_pid;

static void other_child(pid_t pid)
{
	if (pid == watchdog_pid)
		watchdog_pid = 0;
}

int init_main(int argc, char **argv)
{
	static struct runner_cfg cfg;
	struct params p;
	char err[200], cmdline[4096] = "";
	int fd;

	(void)argc;
	if (do_mounts(err, sizeof err)) {
		note("isobench: fatal: %s\n", err);
		halt_system(HALT_POWEROFF);
	}
	/* Make sure fds 0-2 exist (no /dev/console in the archive leaves them closed). */
	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd < 3)
		;
	if (fd > 2)
		close(fd);
	setsid();
	setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/root", 1);
	setenv("TERM", "linux", 1);
	chdir("/");
	if (out_init())
		note("isobench: %s\n", "cannot map the shared sequence counter");
	open_consoles();

	cfg.mode = "init";
	cfg.self = argv[0][0] == '/' ? argv[0] : "/init";
	cfg.tmpdir = "/tmp";
	params_init(&p);
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, cmdline, sizeof cmdline - 1);
		cmdline[n > 0 ? n : 0] = 0;
		close(fd);
	}
	params_from_cmdline(&p, cmdline, runner_pending_error, &cfg);
	params_finish(&p, (int)sysconf(_SC_NPROCESSORS_ONLN));
	if (loopback_up())
		runner_pending_error(&cfg, "setup.loopback", "lo", "cannot bring lo up");

	watchdog_pid = start_watchdog(p.watchdog_s ? p.watchdog_s : runner_budget(&p), p.halt);
	runner_run(&p, &cfg, other_child);
	if (watchdog_pid > 0)
		kill(watchdog_pid, SIGKILL);
	halt_system(p.halt);
	return 0;
}
