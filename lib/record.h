/* record.h — isobench console records, grammar version 1 (docs/records.md).
 *
 * Writer: build a body ("KIND key=value ...") with rec_begin()/rec_*(), then rec_seal() adds
 * the tag, the sequence number and the CRC-32. Reader: rec_parse() finds the tag anywhere in
 * a line, checks the CRC and splits the fields (values decoded) into a struct record, the
 * room of one line; rec_keep() keeps one as a struct rec_kept of its own size (the host keeps
 * a whole log so, each line decoded once). rec_get*() read either. One grammar, one place: the
 * payload writes with this code and every reader (report/, tests) parses with it.
 */
#ifndef ISOBENCH_RECORD_H
#define ISOBENCH_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define REC_TAG "@isobench/1"
#define REC_MAX 16384		/* bytes in a sealed line, newline included */
#define REC_MAX_FIELDS 256

/* A record body under construction. Overflowing fields are dropped and counted. */
/* Bytes of a body kept free for " dropped_fields=N": the count of fields left out because they
 * would not fit is itself never left out. */
#define REC_DROPPED_ROOM 24

struct rec_body {
	char buf[REC_MAX - 64];
	size_t len;
	int dropped;
};

void rec_begin(struct rec_body *b, const char *kind);
void rec_str(struct rec_body *b, const char *key, const char *val);	/* encoded */
void rec_u64(struct rec_body *b, const char *key, uint64_t v);
void rec_i64(struct rec_body *b, const char *key, int64_t v);
void rec_dbl(struct rec_body *b, const char *key, double v, int decimals);
void rec_fmt(struct rec_body *b, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* End a body: append dropped_fields=N when rec_*() left fields out (into the room they keep
 * for it, so it always fits), once; a body then takes no more fields that were dropped. Every
 * writer calls it before the body leaves: out_record(), the harness's send_body(). */
void rec_close(struct rec_body *b);
/* Append an already-encoded " key=value" run (used when relaying a body). */
void rec_raw(struct rec_body *b, const char *fields);

/* Seal a body into a line "@isobench/1 SEQ BODY *crc\n" in out (cap >= REC_MAX).
 * Returns the line length, or 0 if the body is not a valid body. */
size_t rec_seal(char *out, size_t cap, uint64_t seq, const char *body, size_t body_len);

/* Encode val for a record value into out (cap bytes); returns its length. */
size_t rec_encode(char *out, size_t cap, const char *val);

/* A line decoded: rec_parse()'s room for one line (about 20 KB, REC_MAX and REC_MAX_FIELDS),
 * for a reader that decodes a line, reads it and moves on (the runner, --follow, the tests).
 * Keys and values point into store and are decoded. */
struct record {
	uint64_t seq;
	char kind[16];
	int nfields;
	const char *key[REC_MAX_FIELDS];
	const char *val[REC_MAX_FIELDS];
	char store[REC_MAX];
};

/* A decoded record kept after its line is gone (the host keeps every record of a log, and
 * reads them again and again: report/log.h): the same kind, seq and fields as the struct
 * record it was made from, and optionally the sealed line, in one allocation of about their
 * own size (a few hundred bytes for a SAMPLE) instead of a struct record's 20 KB. Made by
 * rec_keep(), freed by free(); read with rec_get*() as a struct record. */
struct rec_kept {
	uint64_t seq;
	char kind[16];
	int nfields;
	const char **key, **val;	/* nfields each, decoded, NUL-terminated */
	const char *line;	/* the sealed line it came from, tag to checksum (no line end),
				 * byte for byte; NULL when not kept */
	size_t line_len;
};

enum rec_status {
	REC_NONE = 0,		/* no tag in the line: not a record */
	REC_OK = 1,
	REC_BAD_CRC = -1,	/* damaged: checksum does not match */
	REC_BAD_SYNTAX = -2,	/* damaged: checksum missing or line malformed */
};

/* Parse one line (without or with trailing \r\n). */
enum rec_status rec_parse(const char *line, size_t len, struct record *r);
/* Parse a body "KIND k=v ..." (no tag/seq/crc) into r (seq = 0). */
enum rec_status rec_parse_body(const char *body, size_t len, struct record *r);
/* r kept: a struct rec_kept of r's fields and, when line is not NULL, of the len bytes at
 * line (the sealed line r was parsed from, as it should be kept). NULL when out of memory. */
struct rec_kept *rec_keep(const struct record *r, const char *line, size_t len);

/* The reads below take a struct record or a struct rec_kept (const or not), the one name
 * for each read whatever holds the record (C11 _Generic picks the function). */
#define REC_READ_(r, fn)                                                                     \
	_Generic((r), struct record *: fn##_line, const struct record *: fn##_line,          \
		 struct rec_kept *: fn##_kept, const struct rec_kept *: fn##_kept)
/* Value of key, or NULL. */
#define rec_get(r, key) REC_READ_(r, rec_get)(r, key)
/* Typed values of key, read with lib/num.h's strict parsers (num_dbl; num_ull and num_ll
 * without blank or '+', in [lo, hi]): 0 and *out set; -ENOENT when the record has no such
 * key, -EINVAL when its value is not such a number, -ERANGE when outside [lo, hi]; *out is
 * untouched on an error. */
#define rec_get_dbl(r, key, out) REC_READ_(r, rec_get_dbl)(r, key, out)
#define rec_get_ull(r, key, lo, hi, out) REC_READ_(r, rec_get_ull)(r, key, lo, hi, out)
#define rec_get_ll(r, key, lo, hi, out) REC_READ_(r, rec_get_ll)(r, key, lo, hi, out)
/* What the macros above call: *_line for a struct record, *_kept for a struct rec_kept. */
const char *rec_get_line(const struct record *r, const char *key);
const char *rec_get_kept(const struct rec_kept *r, const char *key);
int rec_get_dbl_line(const struct record *r, const char *key, double *out);
int rec_get_dbl_kept(const struct rec_kept *r, const char *key, double *out);
int rec_get_ull_line(const struct record *r, const char *key, unsigned long long lo,
		     unsigned long long hi, unsigned long long *out);
int rec_get_ull_kept(const struct rec_kept *r, const char *key, unsigned long long lo,
		     unsigned long long hi, unsigned long long *out);
int rec_get_ll_line(const struct record *r, const char *key, long long lo, long long hi,
		    long long *out);
int rec_get_ll_kept(const struct rec_kept *r, const char *key, long long lo, long long hi,
		    long long *out);
/* 1 when an ERROR what=param's reason says what the run kept instead of the bad value ("...
 * (the command line's list kept)"); a reason that does not meant the default, and printers
 * add "default kept" to it (runner.c, report/text.c), never to one that says otherwise. */
int rec_reason_says_kept(const char *reason);
/* 1 if kind is one of the grammar's kinds (vocab.h). */
int rec_kind_known(const char *kind);
/* 1 if the body under construction (or relayed) is a record of kind (RK_FAIL, ...). */
int rec_body_is(const struct rec_body *b, const char *kind);

#endif
