/* init.c — see init.h. */
#define _GNU_SOURCE
#include "init.h"
#include "../harness.h"
#include "io.h"
#include "num.h"
#include "vocab.h"
#include "../out.h"
#include "../params.h"
#include "../sys.h"
#include "../sysfs.h"
#include "../runner.h"
#include "cloud.h"
#include "console.h"
#include "dhcp.h"
#include "peer.h"
#include "summary.h"
#include "resultsfile.h"
#include "../version.h"
#include "arch.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* Power-off waits at most DRAIN_MS for the consoles to send everything; a console without
 * progress for STALL_MS (no byte left its output queue) is given up on. At 115200 baud the
 * final tables take ~0.3 s; a slow emulated line may pause for seconds and go on. */
#define DRAIN_MS 120000
#define STALL_MS 10000
/* isobench.serve=1: the watchdog's time past the peer's life (its sessions' end, the drain). */
#define SERVE_GRACE_S 120
/* Before power-off every other process is ended: SIGTERM, up to TERM_MS for them to go, then
 * SIGKILL, up to KILL_MS (a process in uninterruptible sleep is not waited for longer); the
 * watchdog and the power button stop them instead, waiting up to KILL_MS. */
#define TERM_MS 1000
#define KILL_MS 3000
#define PF_KTHREAD 0x00200000	/* include/linux/sched.h: /proc/PID/stat's flags, a kernel thread */
/* statfs(2) f_type of ramfs (RAMFS_MAGIC, include/uapi/linux/magic.h): the kernel's rootfs
 * without CONFIG_TMPFS (with it, rootfs is a tmpfs: SYS_TMPFS_MAGIC). */
#define RAMFS_MAGIC 0x858458f6

int init_is_image(void)
{
	struct statfs sf;

	return getpid() == 1 && statfs("/", &sf) == 0 &&
	       (sf.f_type == RAMFS_MAGIC || sf.f_type == SYS_TMPFS_MAGIC) &&
	       access(INIT_IDENTITY, F_OK) == 0;
}

/* The signals init_as_program() passes on to its child. */
static const int passed_on[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

int init_as_program(void)
{
	sigset_t set, orig;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof passed_on / sizeof passed_on[0]; i++)
		sigaddset(&set, passed_on[i]);
	sigprocmask(SIG_BLOCK, &set, &orig);
	pid_t child = fork();
	if (child < 0) {
		fprintf(stderr, "isobench: PID 1: fork failed (%s); running without a reaper\n",
			strerror(errno));
		sigprocmask(SIG_SETMASK, &orig, NULL);
		return -1;
	}
	if (child == 0) {
		sigprocmask(SIG_SETMASK, &orig, NULL);
		return -1;
	}
	int passed = 0;	/* the last signal passed on: the program says itself what it did */
	for (;;) {
		siginfo_t si;
		int sig = sigwaitinfo(&set, &si), status;
		if (sig < 0)
			continue;	/* EINTR */
		if (sig != SIGCHLD) {
			kill(child, sig);
			passed = sig;
			continue;
		}
		for (pid_t pid; (pid = waitpid(-1, &status, WNOHANG)) > 0;) {
			if (pid != child)
				continue;	/* an orphan, reaped */
			if (WIFEXITED(status))	/* what is left dies with the namespace */
				return WEXITSTATUS(status);
			/* A signal nobody passed on (SIGKILL from outside, the OOM killer, a
			 * crash): the program could not say so, and no shell is there to. */
			if (WTERMSIG(status) != passed)
				fprintf(stderr, "isobench: PID 1: the run (pid %d) died of signal %d "
					"(%s); no END, status %d\n", (int)child, WTERMSIG(status),
					strsignal(WTERMSIG(status)), 128 + WTERMSIG(status));
			return 128 + WTERMSIG(status);
		}
	}
}

static struct params p;
static struct runner_cfg cfg;
static int have_begin;

static int do_mounts(char *err, size_t len)
{
	static const struct {
		const char *src, *dst, *type, *opts;
	} m[] = {
		{"devtmpfs", "/dev", "devtmpfs", NULL},
		{"proc", "/proc", "proc", NULL},
		{"sysfs", "/sys", "sysfs", NULL},
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

/* The earliest console: /dev/console as the kernel gave it to us (fd 1), else the node we
 * make. Used only when setup fails before the consoles are known. */
static int early_console(void)
{
	int fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		mkdir("/dev", 0755);
		mknod("/dev/.console", S_IFCHR | 0600, makedev(5, 1));
		fd = open("/dev/.console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	}
	return fd >= 0 ? fd : 1;
}

static void halt_system(enum halt h);
static void wait_for_enter(void);

/* Setup failed before the runner could start: a run of its own (BEGIN, FAIL test=setup,
 * END) so the host sees what went wrong, on every console found so far (or /dev/console),
 * then power off. Never returns. */
static void fatal(const char *what, const char *reason)
{
	struct rec_body b;

	if (!have_begin)
		out_begin("0000000000000000", REC_MODE_INIT);
	rec_begin(&b, RK_FAIL);
	rec_str(&b, RK_TESTNAME, REC_SETUP);
	rec_str(&b, RK_WHAT, what);
	rec_str(&b, RK_REASON, reason);
	out_record(&b);
	out_end(REC_STATUS_FATAL, NULL);
	out_text("isobench: fatal: %s: %s; powering off\n", what, reason);
	if (!out_consoles_start())
		out_stream_flush_to(early_console(), 10);
	halt_system(HALT_POWEROFF);
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

/* The user processes besides PID 1 and the caller that can still run: neither kernel threads
 * nor zombies (an exited process holds no lock), nor, when stopped_ok, stopped ones (state T
 * or t). 0 when /proc cannot be read. */
static int others_alive(int stopped_ok)
{
	DIR *d = opendir("/proc");
	int n = 0;
	pid_t self = getpid();

	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[64], buf[512], *fd[7];
		unsigned long long flags;
		long long pid;	/* not a process's directory: no number */
		if (num_ll(e->d_name, 0, 2, INT_MAX, &pid) || pid == self)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
		if (read_file_str(path, buf, sizeof buf) <= 0)
			continue;	/* gone meanwhile */
		char *p = strrchr(buf, ')');	/* after the name, which may hold anything */
		/* state ppid pgrp session tty_nr tpgid flags (proc_pid_stat(5)) */
		if (!p || split_fields(p + 1, fd, 7) != 7 || fd[0][1] ||
		    num_ull(fd[6], 0, 0, UINT_MAX, &flags))
			continue;
		char state = fd[0][0];
		n += state != 'Z' && state != 'X' && !(flags & PF_KTHREAD) &&
		     !(stopped_ok && (state == 'T' || state == 't'));
	}
	closedir(d);
	return n;
}

/* Wait up to ms for every other process to end (or, for SIGSTOP, to stop), sending sig again
 * each round (a process forked meanwhile gets it too); PID 1 reaps them. 0 when none is left
 * running. The bound is on the monotonic clock, not a count of rounds: with thousands of
 * processes (a fork storm) one round's /proc scan alone can take most of a second under TCG. */
static int others_end(int sig, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000u;

	for (;;) {
		kill(-1, sig);
		if (getpid() == 1)
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		int left = others_alive(sig == SIGSTOP);
		if (!left || now_ns() >= end)
			return left;
		struct timespec d = {0, 10000000};
		nanosleep(&d, NULL);
	}
}

/* The last step before PID 1's reboot(): end every other process (the watchdog and the power
 * button's process stop them instead: power_off_beside_run()). The kernel prints "reboot:
 * Power down" (or "Restarting system") only if it gets the console lock at once; a process
 * writing to a VT holds that lock (do_con_write) and may be preempted with it, and the
 * machine then powers off with the line never printed: the log would say the run crashed
 * (report: no power-off after END). The consoles' pumps are among those ended: drain them
 * first. */
static void end_other_processes(void)
{
	if (others_end(SIGTERM, TERM_MS))
		others_end(SIGKILL, KILL_MS);
}

/* Power off (or reboot) from the watchdog or the power button's process, while PID 1's run
 * goes on; never returns. The consoles drained and the disks synced, then every other
 * process stopped (SIGSTOP), not ended: ended, the run's test processes would let PID 1 go
 * on to the run's end — its own results file, a second one — while this process waits;
 * stopped, nothing but PID 1 moves, and PID 1 then waits on a stopped test or on a stopped
 * console pump's full pipe (the kernel gives PID 1 no signal it has no handler for, so it
 * cannot be stopped). A stopped process holds no console lock: a stop takes effect on the
 * way back to user space, after its write. If reboot() fails, every stopped process resumes
 * (the consoles' pumps among them), the reason goes to the consoles, and this process ends. */
static _Noreturn void power_off_beside_run(enum halt h)
{
	out_drain(DRAIN_MS, STALL_MS);
	sync();
	others_end(SIGSTOP, KILL_MS);
	reboot(h == HALT_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
	int e = errno;
	kill(-1, SIGCONT);
	out_text("isobench: power-off failed (%s)\n", strerror(e));
	out_drain(DRAIN_MS, STALL_MS);
	_exit(1);
}

/* Power off (or reboot) from a vfork()ed child: if PID 1 itself called reboot() and it
 * failed, the kernel would panic on PID 1's exit path. Never returns. */
static void halt_system(enum halt h)
{
	sync();
	if (h == HALT_WAIT) {
		static char page[4096];
		int scr = consoles_screen_fd();
		out_drain(DRAIN_MS, STALL_MS);
		if (scr >= 0) {	/* the screen ends with a summary that fits 80x25 */
			int n = summary_build(page, sizeof page, isobench_version);
			write_all(scr, page, (size_t)n);
		}
		out_text("isobench: done. Press Enter (keyboard or serial) or the power button.\n");
		out_drain(DRAIN_MS, STALL_MS);
		wait_for_enter();
	}
	/* The last bytes must reach a slow line before the power goes (bounded: a stalled
	 * console is given up on after STALL_MS without progress). */
	out_drain(DRAIN_MS, STALL_MS);
	end_other_processes();
	for (;;) {
		pid_t pid = vfork();
		if (pid == 0) {
			reboot(h == HALT_REBOOT ? RB_AUTOBOOT : RB_POWER_OFF);
			_exit(1);
		}
		int e = errno;	/* reboot()'s, set in the vfork()ed child (shared memory) */
		if (pid > 0)
			waitpid(pid, NULL, 0);
		out_consoles_start();	/* their pumps were ended with the other processes */
		out_text("isobench: power-off failed (%s); halted — switch the machine off\n",
			 strerror(e));
		for (;;) {
			struct timespec t = {3600, 0};
			nanosleep(&t, NULL);
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		}
	}
}

/* Enter on any console (serial or screen keyboard): read until a newline or CR. */
static void wait_for_enter(void)
{
	struct pollfd pf[OUT_MAX_CONSOLES + 1];
	int fds[OUT_MAX_CONSOLES], n = consoles_read_fds(fds, OUT_MAX_CONSOLES);

	for (int i = 0; i < n; i++) {
		struct termios t;
		pf[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		if (tcgetattr(fds[i], &t) == 0) {	/* one byte at a time, no echo */
			t.c_lflag &= ~(ICANON | ECHO);
			t.c_cc[VMIN] = 1;
			t.c_cc[VTIME] = 0;
			tcsetattr(fds[i], TCSANOW, &t);
		}
	}
	if (!n) {
		pf[0] = (struct pollfd){.fd = 0, .events = POLLIN};
		n = 1;
	}
	for (;;) {
		if (poll(pf, (nfds_t)n, -1) < 0 && errno != EINTR)
			return;
		for (int i = 0; i < n; i++) {
			char c[64];
			ssize_t k;
			if (!(pf[i].revents & POLLIN))
				continue;
			k = read(pf[i].fd, c, sizeof c);
			if (k <= 0)
				pf[i].fd = -1;	/* a port that hung up is not waited on */
			for (ssize_t j = 0; j < k; j++)
				if (c[j] == '\n' || c[j] == '\r')
					return;
		}
	}
}

/* The ACPI power button (an input device with KEY_POWER, drivers/acpi/button.c): a process
 * that reads every /dev/input/event* and, on a press, reports it, drains the consoles and
 * powers off. Linux ABI (include/uapi/linux/input.h): struct input_event's layout is the
 * architecture's (struct arch_input_event); EV_KEY = 1, KEY_POWER = 116. */
static pid_t start_power_button(enum halt h)
{
	struct pollfd pf[16];
	int n = 0;

	for (int i = 0; i < 16 && n < 16; i++) {
		char path[32];
		snprintf(path, sizeof path, "/dev/input/event%d", i);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			pf[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
	}
	if (!n)
		return 0;
	pid_t pid = fork();
	if (pid != 0) {
		for (int i = 0; i < n; i++)
			close(pf[i].fd);
		return pid;
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (;;) {
		struct arch_input_event ev[16];
		if (poll(pf, (nfds_t)n, -1) < 0)
			continue;
		for (int i = 0; i < n; i++) {
			if (!(pf[i].revents & POLLIN))
				continue;
			ssize_t k = read(pf[i].fd, ev, sizeof ev);
			if (k <= 0) {
				pf[i].fd = -1;
				continue;
			}
			for (size_t j = 0; j < (size_t)k / sizeof ev[0]; j++) {
				if (ev[j].type != 1 || ev[j].code != 116 || ev[j].value != 1)
					continue;
				out_text("\nisobench: power button pressed: powering off\n");
				power_off_beside_run(h);
			}
		}
	}
}

/* A separate process that ends the run if it outlives its budget: a FAIL record, the results
 * file (image: isobench.image=, as at a normal end), power-off. */
static pid_t start_watchdog(int seconds, enum halt h, const char *image)
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
		rec_begin(&b, RK_FAIL);
		rec_str(&b, RK_TESTNAME, REC_WATCHDOG);
		rec_fmt(&b, RK_REASON, "the run exceeded its %d s budget; powering off", seconds);
		out_record(&b);
		out_drain(DRAIN_MS, STALL_MS);	/* never blocks on a stalled console */
		/* The log so far as the results file too: a stalled run is the one a user most
		 * needs to read afterwards. */
		char msg[300];
		resultsfile_write(image, msg, sizeof msg);
		out_text("isobench: %s\n", msg);
		power_off_beside_run(h);
	}
	return pid;
}

static pid_t watchdog_pid, button_pid;

static void other_child(pid_t pid)
{
	if (pid == watchdog_pid)
		watchdog_pid = 0;
	if (pid == button_pid)
		button_pid = 0;
}

/* Countdown before BEGIN (isobench.delay=): time to attach a capture after power-on. */
static void delay_start(int seconds)
{
	for (int left = seconds; left > 0; left--) {
		if (left == seconds || left <= 5 || left % 10 == 0)
			out_text("isobench: the run starts in %d s (isobench.delay=%d)\n", left, seconds);
		struct timespec t = {1, 0};
		while (nanosleep(&t, &t) && errno == EINTR)
			;
	}
}

/* A peer (isobench.peer=, or this machine as one: isobench.serve=1) needs the network: when
 * nothing configured an interface (no ip= on the command line, no cloud's DHCP), DHCP. */
static void network_for_peer(const struct params *pp, struct runner_cfg *c)
{
	char ifname[32], msg[200];

	if ((!pp->peer[0] && !pp->serve) || dhcp_configured(ifname, sizeof ifname))
		return;
	out_text("isobench: %s and no network configured: DHCP\n", pp->serve ?
		 "isobench.serve=1" : "a peer named");
	int r = dhcp_up(CLOUD_DHCP_MS, msg, sizeof msg);
	out_text("isobench: DHCP: %s\n", msg);
	runner_pending_fact(c, RK_NIC_DHCP, r ? "failed" : msg);
}

/* A key the kernel command line gives more than once (params_cmdline_twice()): a WARN naming
 * the values, the last kept. */
static void cmdline_twice(void *arg, const char *key, const char *first, const char *kept,
			  int times)
{
	runner_pending_warn(arg, REC_WHAT_PARAM, "isobench.%s given %d times on the kernel command "
			    "line: %.100s first, %.100s last; the last is kept", key, times, first, kept);
}

int init_main(int argc, char **argv)
{
	char err[200], cmdline[4096] = "", cmd_keys[512];
	int fd;

	(void)argc;
	/* Records go to an in-memory stream from the first moment, so that a failure anywhere
	 * below is reported (fatal()) on whatever console exists. */
	out_init();
	out_stream_init();
	if (do_mounts(err, sizeof err))
		fatal("mount", err);
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

	cfg.mode = REC_MODE_INIT;
	cfg.self = argv[0][0] == '/' ? argv[0] : "/init";
	cfg.tmpdir = "/tmp";
	params_init(&p);
	proc_cmdline(cmdline, sizeof cmdline);
	params_from_cmdline_keys(&p, cmdline, runner_pending_error, &cfg, cmd_keys,
				 sizeof cmd_keys);
	params_cmdline_twice(cmdline, cmdline_twice, &cfg);
	if (!consoles_open(p.console) && strcmp(p.console, "auto"))
		consoles_open("auto");	/* none of the named ports exists: do not go silent */
	if (!out_consoles_start())
		out_add_fd(early_console());
	if (loopback_up())
		runner_pending_error(&cfg, "setup.loopback", "lo", "cannot bring lo up");
	/* The user data's words where DMI says a cloud (nothing is sent elsewhere); then the
	 * suite's presets fill what neither source gave. */
	cloud_params(&p, &cfg, cmd_keys[0] ? cmd_keys : "-");
	params_finish(&p, (int)sysconf(_SC_NPROCESSORS_ONLN));
	network_for_peer(&p, &cfg);
	if (p.delay_s)
		delay_start(p.delay_s);

	button_pid = start_power_button(p.halt);
	if (p.serve) {	/* the image as the peer: no run, no results file */
		runner_say_pending(&cfg);	/* no run's log to hold them as records */
		watchdog_pid = start_watchdog(p.serve_s + SERVE_GRACE_S, p.halt, p.image);
		int r = pid1_serve(cfg.self, p.serve_s);
		if (r < 0)
			out_text("isobench: the peer could not start: %s\n", strerror(-r));
		halt_system(p.halt);
	}
	watchdog_pid = start_watchdog(p.watchdog_s ? p.watchdog_s : runner_budget(&p), p.halt,
				      p.image);
	have_begin = 1;
	cfg.watch = summary_note;	/* the screen's last page, told as the run goes */
	runner_runs(&p, &cfg, other_child);	/* isobench.repeat=N: N runs, one stream */
	if (watchdog_pid > 0)
		kill(watchdog_pid, SIGKILL);
	if (p.replay)
		out_replay();
	/* The complete log as a file on the image's own FAT partition, when booted from it. */
	char msg[300];
	resultsfile_write(p.image, msg, sizeof msg);
	out_text("isobench: %s\n", msg);
	halt_system(p.halt);
	return 0;
}
