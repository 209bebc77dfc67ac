/* unixbench.c — see unixbench.h. */
#include "unixbench.h"

#include <math.h>
#include <stdio.h>

int ub_valid(double value, double baseline)
{
	return value > 0 && baseline > 0 && isfinite(value) && isfinite(baseline);
}

double ub_index(double value, double baseline)
{
	return ub_valid(value, baseline) ? value / baseline * 10 : 0;
}

void ub_score_init(struct ub_score *s)
{
	s->n = 0;
	s->logsum = 0;
}

void ub_score_add(struct ub_score *s, double value, double baseline)
{
	if (!ub_valid(value, baseline))
		return;
	s->logsum += log(value / baseline);
	s->n++;
}

double ub_score_value(const struct ub_score *s)
{
	return s->n > 0 ? 10 * exp(s->logsum / s->n) : 0;
}

int ub_score_partial(const struct ub_score *s)
{
	return s->n < UB_INDEX_TESTS;
}

int ub_score_complete(const struct ub_score *s)
{
	return s->n == UB_INDEX_TESTS;
}

const char *ub_score_label(const struct ub_score *s)
{
	return ub_score_partial(s) ? "System Benchmarks Index Score (Partial Only)"
				   : "System Benchmarks Index Score";
}

const char *ub_row(char *buf, size_t cap, const char *title, double baseline, double value,
		   const char *why)
{
	if (ub_valid(value, baseline))
		snprintf(buf, cap, "%-40.40s%13.1f%13.1f%9.1f", title, baseline, value,
			 ub_index(value, baseline));
	else
		snprintf(buf, cap, "%-40.40s%13.1f%13s%9s%s%s", title, baseline, "---", "---",
			 why && *why ? "  " : "", why ? why : "");
	return buf;
}

const char *ub_footer(char *buf, size_t cap, const struct ub_score *s)
{
	char label[80];

	/* A partial score says what it is made of: it is not UnixBench's score of the machine. */
	if (ub_score_partial(s))
		snprintf(label, sizeof label, "%s: %d of %d index tests)",
			 "System Benchmarks Index Score (Partial Only", s->n, UB_INDEX_TESTS);
	else
		snprintf(label, sizeof label, "%s", ub_score_label(s));
	if (s->n > 0)
		snprintf(buf, cap, "%75s\n%-66s%9.1f", "========", label, ub_score_value(s));
	else
		snprintf(buf, cap, "%75s\n%-66s%9s", "========", "System Benchmarks Index Score",
			 "---");
	return buf;
}
