/* clocksrc.c — see clocksrc.h. */
#include "clocksrc.h"
#include "io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_CURRENT "/sys/devices/system/clocksource/clocksource0/current_clocksource"

void clocksource_current(char *out, size_t cap)
{
	const char *path = getenv("ISOBENCH_CLOCKSOURCE_FILE");

	if (read_line(path && *path ? path : SYSFS_CURRENT, out, cap) < 0)
		out[0] = 0;
	out[strcspn(out, " \t")] = 0;	/* the first word: one name */
	if (!out[0])
		snprintf(out, cap, "-");
}

int clocksource_requested(const char *cmdline, char *out, size_t cap)
{
	static const char key[] = "clocksource=";
	const char *s = cmdline;
	int found = 0;

	out[0] = 0;
	while (s && *s) {
		s += strspn(s, " \t\n");
		size_t len = strcspn(s, " \t\n");
		if (len > sizeof key - 1 && !strncmp(s, key, sizeof key - 1)) {
			size_t v = len - (sizeof key - 1);
			snprintf(out, cap, "%.*s", (int)v, s + sizeof key - 1);
			found = 1;
		}
		s += len;
	}
	return found;
}
