/* console_names.h — the consoles PID 1 looks for, and all that isobench.console= may name:
 * their names and console_name_ok(). Names only, nothing opened: params.c checks a list with
 * them, console.c (console.h) finds and opens the devices they name.
 * In: a device name ("ttyS1"). Out: 1 when it is one of CONSOLE_NAMES, else 0. */
#ifndef ISOBENCH_CONSOLE_NAMES_H
#define ISOBENCH_CONSOLE_NAMES_H

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

#endif
