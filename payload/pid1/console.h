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

#include "console_names.h"

int consoles_open(const char *spec);
/* fds of the registered consoles that can be read (ttys), for Enter; returns the count. */
int consoles_read_fds(int *fds, int max);

/* The screen's fd (tty0), or -1 when the screen is not among the consoles. */
int consoles_screen_fd(void);

#endif
