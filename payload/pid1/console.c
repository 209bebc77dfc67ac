/* console.c — see console.h. */
#define _GNU_SOURCE
#include "console.h"
#include "../out.h"
#include "io.h"
#include "num.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int rfds[OUT_MAX_CONSOLES], nrfds;
static char names[OUT_MAX_CONSOLES][16];
static int nnames, screen_fd[OUT_MAX_CONSOLES];

static int kernel_console(const char *name)
{
	char buf[1024];
	if (read_file_str("/proc/consoles", buf, sizeof buf) <= 0)
		return 0;
	char *save;
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(l, " ");
		if (n == strlen(name) && !strncmp(l, name, n))
			return 1;
	}
	return 0;
}

/* A serial port's name: an 8250 (ttyS) or a PL011 (ttyAMA). */
static int is_uart(const char *name)
{
	return !strncmp(name, CONSOLE_UART_PREFIX, strlen(CONSOLE_UART_PREFIX)) ||
	       !strncmp(name, CONSOLE_PL011_PREFIX, strlen(CONSOLE_PL011_PREFIX));
}

/* serial_core port type from sysfs: 0 is PORT_UNKNOWN (no 8250 answered at that address);
 * a PL011 says PORT_AMBA. */
static int uart_type(const char *name)
{
	char path[96], buf[32];
	long long t;
	snprintf(path, sizeof path, "/sys/class/tty/%s/type", name);
	return read_line(path, buf, sizeof buf) <= 0 || num_ll(buf, 0, INT_MIN, INT_MAX, &t)
		? -1 : (int)t;	/* unreadable, or no number: unknown */
}

/* A VGA or frame buffer console is bound to the VTs (not only the dummy one). */
static int screen_present(void)
{
	char path[96], buf[128];
	for (int i = 0; i < 8; i++) {
		snprintf(path, sizeof path, "/sys/class/vtconsole/vtcon%d/name", i);
		if (read_file_str(path, buf, sizeof buf) <= 0)
			continue;
		if (!strstr(buf, "dummy"))
			return 1;
	}
	return 0;
}

static void absent(const char *name)
{
	size_t l = strlen(out_console_absent);
	if (l + strlen(name) + 2 < sizeof out_console_absent)
		snprintf(out_console_absent + l, sizeof out_console_absent - l, "%s%s",
			 l ? "," : "", name);
}

static int known(const char *name)
{
	for (int i = 0; i < nnames; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static int use(const char *name)
{
	char path[64];
	struct termios t;

	if (known(name) || nnames >= OUT_MAX_CONSOLES)
		return 0;
	snprintf(path, sizeof path, "/dev/%s", name);
	/* O_NONBLOCK: opening a serial port must not wait for carrier. */
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		absent(name);
		return 0;
	}
	if (tcgetattr(fd, &t) == 0) {
		if (is_uart(name) && !kernel_console(name)) {
			cfsetispeed(&t, B115200);
			cfsetospeed(&t, B115200);
			t.c_cflag = (t.c_cflag & ~(CSIZE | PARENB | CSTOPB | CRTSCTS)) | CS8;
			t.c_iflag &= ~(IXON | IXOFF);
		}
		t.c_cflag |= CLOCAL | CREAD;
		t.c_oflag |= OPOST | ONLCR;
		tcsetattr(fd, TCSANOW, &t);
		rfds[nrfds++] = fd;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (out_console_add(name, fd)) {
		close(fd);
		return 0;
	}
	screen_fd[nnames] = fd;
	snprintf(names[nnames++], sizeof names[0], "%s", name);
	return 1;
}

int consoles_open(const char *spec)
{
	char name[16], buf[1024];
	int n = 0;

	out_console_absent[0] = 0;
	if (spec && strcmp(spec, "auto") && strcmp(spec, "all")) {
		char list[160];
		snprintf(list, sizeof list, "%s", spec);
		char *save;
		for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save))
			n += use(s);
		return n;
	}
	int all = spec && !strcmp(spec, "all");
	/* The kernel's own consoles first: they surely exist. */
	char *save;
	if (read_file_str("/proc/consoles", buf, sizeof buf) > 0)
		for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (sscanf(l, "%15s", name) == 1 && strcmp(name, "ttyprintk"))
				n += use(name);
		}
	for (int i = 0; i <= CONSOLE_UART_LAST; i++) {
		snprintf(name, sizeof name, CONSOLE_UART_PREFIX "%d", i);
		if (known(name))
			continue;
		if (uart_type(name) > 0 || (all && uart_type(name) == 0))
			n += use(name);
		else
			absent(name);
	}
	/* PL011s exist only where a board has them (arm64): used when there, never "absent". */
	for (int i = 0; i <= CONSOLE_PL011_LAST; i++) {
		snprintf(name, sizeof name, CONSOLE_PL011_PREFIX "%d", i);
		if (!known(name) && uart_type(name) > 0)
			n += use(name);
	}
	for (int i = 0; i <= CONSOLE_HVC_LAST; i++) {
		snprintf(name, sizeof name, CONSOLE_HVC_PREFIX "%d", i);
		if (known(name))
			continue;
		int before = nnames;
		char keep[sizeof out_console_absent];
		snprintf(keep, sizeof keep, "%s", out_console_absent);
		n += use(name);
		if (nnames == before) {
			/* hvc1-7 are nodes without a backend everywhere: only hvc0 is named. */
			snprintf(out_console_absent, sizeof out_console_absent, "%s", keep);
			if (i == 0)
				absent(name);
		}
	}
	if (!known("tty0") && !known("tty1")) {
		if (screen_present() || all)
			n += use("tty0");
		else
			absent("tty0");
	}
	return n;
}

int consoles_screen_fd(void)
{
	for (int i = 0; i < nnames; i++)
		if (!strcmp(names[i], "tty0") || !strcmp(names[i], "tty1"))
			return screen_fd[i];
	return -1;
}

int consoles_read_fds(int *fds, int max)
{
	int n = 0;
	for (int i = 0; i < nrfds && n < max; i++)
		fds[n++] = rfds[i];
	return n;
}
