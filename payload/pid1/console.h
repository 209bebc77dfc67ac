/* console.h — find the consoles PID 1 writes to (the image only).
 *
 * In:  spec, isobench.console=: "auto" (default) — every 8250 or PL011 UART the kernel found
 *      (sysfs type not PORT_UNKNOWN), every hvc device that opens (Xen, virtio-console), the screen
 *      (tty0, when a VGA or frame buffer console is bound), and every console named in
 *      /proc/consoles; "all" — the same plus UARTs of unknown type; or a comma list of
 *      CONSOLE_NAMES (ttyS1,hvc0,tty0; params.c refuses any other name).
 * Out: each console registered with out_console_add() (fd open read-write: the pumps write,
 *      isobench.halt=wait reads Enter from it); serial ports that are not kernel consoles are
 *      set to 115200 8N1, no flow control, CLOCAL. Devices looked for and not usable go to
 *      out_console_absent ("ttyS2,ttyS3"). Returns the number of consoles registered.
 * Errors: a named device that cannot be opened is listed as absent, never waited for.
 */
#ifndef ISOBENCH_CONSOLE_H
#define ISOBENCH_CONSOLE_H

#include <string.h>

/* The consoles there are to look for, and all that a list may name: COM1-COM4 (8250), the
 * ARM PL011 UARTs (arm64 boards such as Ampere's, QEMU virt; Graviton's is an 8250), the
 * hypervisor consoles, the screen. The last number of each (one digit). */
#define CONSOLE_UART_PREFIX "ttyS"	/* the kernel's 8250 names (drivers/tty/serial/8250) */
#define CONSOLE_PL011_PREFIX "ttyAMA"	/* amba-pl011's */
#define CONSOLE_HVC_PREFIX "hvc"	/* hvc_console's */
#define CONSOLE_UART_LAST 3	/* ttyS0..ttyS3 */
#define CONSOLE_PL011_LAST 3	/* ttyAMA0..ttyAMA3 */
#define CONSOLE_HVC_LAST 7	/* hvc0..hvc7 */
#define CONSOLE_XSTR(x) #x
#define CONSOLE_STR(x) CONSOLE_XSTR(x)
#define CONSOLE_NAMES CONSOLE_UART_PREFIX "0-" CONSOLE_STR(CONSOLE_UART_LAST) ", " \
	CONSOLE_PL011_PREFIX "0-" CONSOLE_STR(CONSOLE_PL011_LAST) ", " CONSOLE_HVC_PREFIX "0-" \
	CONSOLE_STR(CONSOLE_HVC_LAST) ", tty0"
#define CONSOLE_NAMEABLE (CONSOLE_UART_LAST + 1 + CONSOLE_PL011_LAST + 1 + CONSOLE_HVC_LAST + 1 + 1)

/* 1 when name is one of CONSOLE_NAMES (a device PID 1 may open and write to), else 0. */
static inline int console_name_ok(const char *name)
{
	static const struct { const char *prefix; int last; } nums[] = {
		{CONSOLE_UART_PREFIX, CONSOLE_UART_LAST}, {CONSOLE_PL011_PREFIX, CONSOLE_PL011_LAST},
		{CONSOLE_HVC_PREFIX, CONSOLE_HVC_LAST}};

	if (!strcmp(name, "tty0"))
		return 1;
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		size_t l = strlen(nums[i].prefix);
		if (!strncmp(name, nums[i].prefix, l) && name[l] >= '0' &&
		    name[l] <= '0' + nums[i].last && !name[l + 1])
			return 1;
	}
	return 0;
}

int consoles_open(const char *spec);
/* fds of the registered consoles that can be read (ttys), for Enter; returns the count. */
int consoles_read_fds(int *fds, int max);

/* The screen's fd (tty0), or -1 when the screen is not among the consoles. */
int consoles_screen_fd(void);

#endif
