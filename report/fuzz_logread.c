/* fuzz_logread.c — libFuzzer harness: arbitrary bytes as a console log through the whole
 * reader: log_read() (record.c's rec_parse, CRCs, sequence, END counts), then for every run
 * model_build(), a comparison of the runs against the first, and the text, JSON, CSV and SVG
 * writers (output to /dev/null). In: the fuzzer's bytes. A first byte 'S' selects the sealed
 * mode: every further line is a record body ("KIND k=v ...") that the harness seals with
 * rec_seal() (sequence = line number), so mutations get past the CRC into the model and the
 * writers. A first byte 'P' or 'D' checks the noise property (issue 11): the rest of the
 * input is noise, a valid record is embedded at the offset the second byte picks, and the
 * reader must find it byte for byte ('P'); or the record is damaged by one byte (position
 * and value from the input) and must never be used ('D'). Any other input is read as it is.
 * In every mode, a run the reader calls complete must be sound: each field its kind has is
 * of its type and range (validate.h's rule, re-checked here field by field).
 * Out: nothing; a crash, hang, leak, sanitizer report or a broken property (abort) is the
 * finding. Build: make -C report O=DIR fuzz. */
#define _GNU_SOURCE
#include "csv.h"
#include "json.h"
#include "svg.h"
#include "text.h"

#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The property modes: 1 if they handled the input. */
static int property(const uint8_t *data, size_t size)
{
	static const char body[] = "RESULT test=pipe copies=1 unit=lps value=5 samples=3";
	char rec[256], *buf;
	struct log log;

	if (size < 4 || (data[0] != 'P' && data[0] != 'D'))
		return 0;
	size_t rl = rec_seal(rec, sizeof rec, 7, body, sizeof body - 1);	/* ends in \n */
	size_t at = (size_t)data[1] * (size - 4) / 255, nl = size - 4;
	const uint8_t *noise = data + 4;
	if (data[0] == 'D') {
		size_t pos = (size_t)data[2] % (rl - 1);
		if (rec[pos] == (char)data[3])
			return 1;	/* not a damage */
		rec[pos] = (char)data[3];
	}
	buf = malloc(nl + rl);
	if (!buf)
		abort();
	memcpy(buf, noise, at);
	memcpy(buf + at, rec, rl);
	memcpy(buf + at + rl, noise + at, nl - at);
	FILE *f = fmemopen(buf, nl + rl, "rb");
	if (!f || log_read(f, &log))
		abort();
	fclose(f);
	rec[rl - 1] = 0;	/* the text as a reader keeps it: no line end */
	int found = 0;
	for (size_t i = 0; i < log.nruns; i++)
		for (size_t k = 0; k < log.runs[i].nrecs; k++)
			found |= !strcmp(log.runs[i].recs[k].r->line, rec);
	if (data[0] == 'P' && !found)
		abort();	/* noise hid a valid record */
	if (data[0] == 'D' && found)
		abort();	/* a damaged record was used */
	log_free(&log);
	free(buf);
	return 1;
}

/* The validation property: no field of a complete run breaks the vocabulary. */
static void sound(const struct log *log)
{
	for (size_t i = 0; i < log->nruns; i++)
		for (size_t k = 0; log->runs[i].complete && k < log->runs[i].nrecs; k++) {
			const struct rec_kept *r = log->runs[i].recs[k].r;	/* as decoded */
			for (int j = 0; j < r->nfields; j++) {
				const struct vocab_field *f = vocab_key(r->kind, r->key[j]);
				if (f && !vocab_value_ok(f, r->val[j]))
					abort();	/* a complete run with an impossible value */
			}
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct log log;
	FILE *f;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	if (property(data, size))
		return 0;
	static int reader_only = -1;	/* ISOBENCH_FUZZ_READER_ONLY=1: log_read() alone, ~50x
					 * faster, for the long run of the reader */
	if (reader_only < 0)
		reader_only = getenv("ISOBENCH_FUZZ_READER_ONLY") != NULL;
	char *sealed = NULL;
	size_t slen = 0;
	if (size && data[0] == 'S') {
		FILE *w = open_memstream(&sealed, &slen);
		char *line = malloc(REC_MAX);
		uint64_t seq = 1;
		if (!w || !line)
			abort();
		for (size_t i = 1; i < size;) {
			const uint8_t *nl = memchr(data + i, '\n', size - i);
			size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
			size_t n = rec_seal(line, REC_MAX, seq++, (const char *)data + i, len);
			if (n)
				fwrite(line, 1, n, w);
			else
				fwrite(data + i, 1, len, w), fputc('\n', w);
			i += len + 1;
		}
		fclose(w);
		free(line);
		data = (const uint8_t *)sealed;
		size = slen;
	}
	if (!size || !(f = fmemopen((void *)data, size, "rb"))) {
		free(sealed);
		return 0;
	}
	int rd = log_read(f, &log);
	if (rd == 0)
		sound(&log);
	if (rd == 0 && !reader_only) {
		size_t n = log.nruns > 4 ? 4 : log.nruns;
		struct model m[4];
		const struct model *mp[4];
		struct report_in in[4];
		size_t built = 0;
		for (size_t i = 0; i < n; i++) {
			if (model_build(&log.runs[i], &m[built]))
				continue;
			mp[built] = &m[built];
			in[built] = (struct report_in){"fuzz", &log, (int)i, &m[built], built};
			text_run(sink, &m[built], "fuzz");
			built++;
		}
		if (built) {
			struct cmp c;
			if (cmp_build(mp, built, NULL, &c) == 0) {
				text_compare(sink, &c, (char *const[]){"a", "b", "c", "d"});
				json_report(sink, in, built, &c);
				json_bench(sink, in, built, &c, 0);
				csv_report(sink, in, built, &c);
				svg_chart(sink, &c);
				cmp_free(&c);
			}
		}
		for (size_t i = 0; i < built; i++)
			model_free(&m[i]);
	}
	log_free(&log);
	fclose(f);
	free(sealed);
	return 0;
}
