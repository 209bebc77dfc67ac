/* noisefloor.c — see noisefloor.h. The built-in rows are for a quiet reference machine
 * (docs/benchmarks/noise-floor.md says which, and why there are none yet); a user's own
 * machine's come from a file (--noise-floor FILE), as docs/benchmarks/noise-floor.sh prints
 * them. */
#include "noisefloor.h"
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct floor_row {
	const char *test;
	int copies;
	double pct;
};

/* Empty: no quiet reference machine measured yet (docs/benchmarks/noise-floor.md says why
 * this project's host's figures are not here). */
static const struct floor_row rows[] = {
	/* NOISE-FLOOR ROWS BEGIN */
	/* NOISE-FLOOR ROWS END */
	{NULL, 0, 0},
};

static double forced = -1;
static struct floor_row loaded[NOISE_FLOOR_FILE_MAX];
static size_t nloaded;

void noise_floor_force(double pct)
{
	forced = pct;
}

/* One "TEST COPIES PCT" line into loaded[]; 0, or -1 when it is not one. */
static int take_line(char *line)
{
	char *test = strtok(line, " \t"), *c = strtok(NULL, " \t"), *p = strtok(NULL, " \t");
	long long copies;
	double pct;

	if (!test || !c || !p || strtok(NULL, " \t") || nloaded == NOISE_FLOOR_FILE_MAX)
		return -1;
	if (num_ll(c, 0, 1, 4096, &copies) || num_dbl(p, &pct) ||
	    !(pct >= 0 && pct <= NOISE_FLOOR_MAX_PCT))
		return -1;
	if (!(loaded[nloaded].test = strdup(test)))
		return -1;
	loaded[nloaded].copies = (int)copies;
	loaded[nloaded++].pct = pct;
	return 0;
}

int noise_floor_load(const char *path, char *err, size_t cap)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int n = 0;

	if (!f) {
		snprintf(err, cap, "%s", strerror(errno));
		return -2;
	}
	errno = 0;
	while (fgets(line, sizeof line, f)) {
		n++;
		line[strcspn(line, "#\r\n")] = 0;	/* a comment, the line's end */
		if (!line[strspn(line, " \t")])
			continue;
		if (take_line(line)) {
			snprintf(err, cap, "%s line %d: not \"TEST COPIES PCT\" (PCT 0 to %g)", path, n,
				 NOISE_FLOOR_MAX_PCT);
			fclose(f);
			return -1;
		}
	}
	if (ferror(f)) {	/* a directory opens, then fails to read (EISDIR): no empty file */
		snprintf(err, cap, "%s: cannot be read: %s", path, strerror(errno ? errno : EIO));
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

double noise_floor_pct(const char *test, int copies, const char **from)
{
	if (forced >= 0) {
		*from = "option";
		return forced;
	}
	for (size_t i = 0; i < nloaded; i++)
		if (loaded[i].copies == copies && !strcmp(loaded[i].test, test)) {
			*from = "file";
			return loaded[i].pct;
		}
	for (const struct floor_row *r = rows; r->test; r++)
		if (r->copies == copies && !strcmp(r->test, test)) {
			*from = "measured";
			return r->pct;
		}
	*from = "default";
	return NOISE_FLOOR_DEFAULT_PCT;
}

int noise_floor_beyond(double ratio, double floor_pct)
{
	if (!isfinite(ratio) || ratio <= 0)
		return 0;
	return (fmax(ratio, 1 / ratio) - 1) * 100 > floor_pct;
}
