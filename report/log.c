/* log.c — see log.h. */
#include "log.h"

#include <stdlib.h>
#include <string.h>

const char *log_damage_why(int status)
{
	return status == REC_BAD_CRC ? "checksum mismatch" : "malformed";
}

enum rec_status logrec_parse(const struct logrec *rec, struct record *r)
{
	return rec_parse(rec->text, strlen(rec->text), r);
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
		free(run->recs[k].text);
	free(run->recs);
}

void log_free(struct log *log)
{
	for (size_t i = 0; i < log->nruns; i++)
		log_run_free(&log->runs[i]);
	free(log->runs);
	free(log->damage);
	memset(log, 0, sizeof *log);
}
