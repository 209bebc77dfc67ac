/* log.c — see log.h. */
#include "log.h"

#include <stdlib.h>
#include <string.h>

const char *log_damage_why(int status)
{
	return status == REC_BAD_CRC ? "checksum mismatch" : "malformed";
}

int log_add(struct run *run, size_t line, const struct record *r, const char *text, size_t len)
{
	if (run->nrecs == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 64;
		struct logrec *n = realloc(run->recs, cap * sizeof *n);
		if (!n)
			return -1;
		run->recs = n;
		run->cap = cap;
	}
	struct logrec *lr = &run->recs[run->nrecs];
	if (!(lr->r = rec_keep(r, text, len)))
		return -1;
	lr->line = line;
	run->nrecs++;
	run->last_line = line;
	return 0;
}

int log_last_complete(const struct log *log)
{
	for (size_t i = log->nruns; i-- > 0;)
		if (log->runs[i].complete)
			return (int)i;
	return -1;
}

void log_run_free(struct run *run)
{
	for (size_t k = 0; k < run->nrecs; k++)
		free(run->recs[k].r);
	free(run->recs);
	run->recs = NULL;	/* freed again (its log's log_free()): nothing to free */
	run->nrecs = run->cap = 0;
}

void log_free(struct log *log)
{
	for (size_t i = 0; i < log->nruns; i++)
		log_run_free(&log->runs[i]);
	free(log->runs);
	free(log->damage);
	memset(log, 0, sizeof *log);
}
