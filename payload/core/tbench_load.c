/* tbench_load.c — load files and the synthetic load of the tbench probe; see tbench_load.h.
 * Own code: the file format and the packet sizes are facts about dbench 4, not its source. */
#include "tbench_load.h"
#include "rng.h"
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct spec {
	const char *name;
	int paths, nums;
};

static const struct spec specs[TB_NKINDS] = {
	[TB_NTCREATEX] = {"NTCreateX", 1, 3},
	[TB_CLOSE] = {"Close", 0, 1},
	[TB_READX] = {"ReadX", 0, 4},
	[TB_WRITEX] = {"WriteX", 0, 4},
	[TB_QPATHINFO] = {"QUERY_PATH_INFORMATION", 1, 1},
	[TB_QFILEINFO] = {"QUERY_FILE_INFORMATION", 0, 2},
	[TB_QFSINFO] = {"QUERY_FS_INFORMATION", 0, 1},
	[TB_SFILEINFO] = {"SET_FILE_INFORMATION", 0, 2},
	[TB_FINDFIRST] = {"FIND_FIRST", 1, 3},
	[TB_UNLINK] = {"Unlink", 1, 1},
	[TB_RENAME] = {"Rename", 2, 0},
	[TB_FLUSH] = {"Flush", 0, 1},
	[TB_LOCKX] = {"LockX", 0, 3},
	[TB_UNLOCKX] = {"UnlockX", 0, 3},
	[TB_MKDIR] = {"Mkdir", 1, 0},
	[TB_RMDIR] = {"Rmdir", 1, 0},
	[TB_DELTREE] = {"Deltree", 1, 0},
};

const char *tb_kind_name(int kind)
{
	return kind >= 0 && kind < TB_NKINDS ? specs[kind].name : "?";
}

/* Request/reply sizes of one exchange (tbench_load.h's table). l1, l2: path lengths as
 * dbench builds them (strlen + 1); n[]: the op's numbers. */
static struct tb_op make_op(int kind, uint32_t l1, uint32_t l2, const uint64_t *n)
{
	struct tb_op o = {.kind = (uint8_t)kind, .req = 39 + 2, .rep = 39};

	switch (kind) {
	case TB_NTCREATEX: o.req = 70 + 2 + 2 * l1 + 2; o.rep = 39 + 48; break;
	case TB_CLOSE: o.req = 39 + 8; break;
	case TB_READX:
		o.req = 39 + 20;
		o.rep = 39 + 20 + (uint32_t)n[3];
		o.payload = (uint32_t)n[3];
		break;
	case TB_WRITEX:
		o.req = 39 + 20 + (uint32_t)n[2];
		o.rep = 39 + 16;
		o.payload = (uint32_t)n[2];
		break;
	case TB_QPATHINFO: o.req = 39 + 16 + 2 * l1; o.rep = 39 + 32; break;
	case TB_QFILEINFO:
	case TB_QFSINFO: o.req = 39 + 20; o.rep = 39 + 32; break;
	case TB_SFILEINFO: o.req = 39 + 32; o.rep = 39 + 8; break;
	case TB_FINDFIRST: o.req = 39 + 20 + 2 * l1; o.rep = 39 + 90 * (uint32_t)n[2]; break;
	case TB_UNLINK:
	case TB_MKDIR:
	case TB_RMDIR: o.req = 39 + 2 + 2 * l1 + 2; break;
	case TB_RENAME: o.req = 39 + 8 + 2 * l1 + 2 * l2; break;
	case TB_FLUSH: o.req = 39 + 2; break;
	case TB_LOCKX:
	case TB_UNLOCKX: o.req = 39 + 12; break;
	default: break;
	}
	return o;
}

#define ERR(...) do { \
		int k_ = snprintf(err, errlen, "line %u: ", lineno); \
		if (k_ >= 0 && (size_t)k_ < errlen) \
			snprintf(err + k_, errlen - (size_t)k_, __VA_ARGS__); \
		return -1; \
	} while (0)

#define MAXTOK 24

struct tok {
	const char *s;
	size_t len;
	int quoted;
};

static int parse_num(const struct tok *t, uint64_t *out)
{
	char buf[32];
	unsigned long long v;

	if (t->quoted || t->len == 0 || t->len >= sizeof buf || !isdigit((unsigned char)t->s[0]))
		return t->len >= sizeof buf && isdigit((unsigned char)t->s[0]) ? -ERANGE : -EINVAL;
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	/* decimal or 0x hex (dbench writes both; a leading 0 is decimal, never octal); a
	 * decimal past 2^64 (num_ull's -EINVAL) is out of range like one past UINT32_MAX */
	int r = num_ull(buf, NUM_HEX, 0, UINT32_MAX, &v);
	if (r)
		return r == -ERANGE || strspn(buf, "0123456789") == t->len ? -ERANGE : -EINVAL;
	*out = v;
	return 0;
}

/* Phase 1: line into at most MAXTOK tokens (a quoted path is one, quotes dropped). Returns
 * their count, or -1 with err set. */
static int tokenize(const char *line, struct tok *t, unsigned lineno, char *err, size_t errlen)
{
	int nt = 0;
	const char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (nt == MAXTOK)
			ERR("more than %d fields", MAXTOK);
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');
			if (!q)
				ERR("unterminated quoted path");
			t[nt++] = (struct tok){p + 1, (size_t)(q - p - 1), 1};
			p = q + 1;
		} else {
			const char *q = p;
			while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
				q++;
			t[nt++] = (struct tok){p, (size_t)(q - p), 0};
			p = q;
		}
	}
	return nt;
}

/* Phase 2: an optional leading timestamp. Returns the index of the operation's name (0 or
 * 1), or -1 with err set. */
static int skip_timestamp(const struct tok *t, int nt, unsigned lineno, char *err,
			  size_t errlen)
{
	int first = 0;
	if (!t[0].quoted && isdigit((unsigned char)t[0].s[0])) {	/* timestamp */
		char buf[40];
		double ts;
		if (t[0].len >= sizeof buf)
			ERR("bad timestamp");
		memcpy(buf, t[0].s, t[0].len);
		buf[t[0].len] = 0;
		if (num_dbl(buf, &ts))
			ERR("bad timestamp '%s'", buf);
		first = 1;
		if (nt == 1)
			ERR("timestamp without an operation");
	}
	return first;
}

/* Phase 3: the operation t[first] names, with its status last and as many fields between
 * as specs[] says. Returns its kind, or -1 with err set. */
static int op_kind(const struct tok *t, int first, int nt, unsigned lineno, char *err,
		   size_t errlen)
{
	const struct tok *opt = &t[first];
	int kind = -1;
	for (int k = 0; k < TB_NKINDS; k++)
		if (!opt->quoted && strlen(specs[k].name) == opt->len &&
		    !strncmp(specs[k].name, opt->s, opt->len))
			kind = k;
	if (kind < 0)
		ERR("unknown operation '%.*s'", (int)(opt->len > 60 ? 60 : opt->len), opt->s);

	const struct spec *sp = &specs[kind];
	const struct tok *st = &t[nt - 1];
	int nargs = nt - first - 2;	/* between the name and the status */
	if (nt - first < 2 || st->quoted ||
	    (strncmp(st->s, "NT_STATUS_", 10) && strncmp(st->s, "0x", 2)) ||
	    (st->len < 10 && strncmp(st->s, "0x", 2)))
		ERR("%s: missing or bad status (expected NT_STATUS_... or 0x... last)", sp->name);
	if (nargs != sp->paths + sp->nums)
		ERR("%s: expected %d path%s and %d number%s, got %d field%s", sp->name, sp->paths,
		    sp->paths == 1 ? "" : "s", sp->nums, sp->nums == 1 ? "" : "s", nargs,
		    nargs == 1 ? "" : "s");
	return kind;
}

/* Phase 4: the fields a[] of an operation of this kind: path lengths (strlen + 1) into len,
 * numbers into num, each within its limit. Returns 0, or -1 with err set. */
static int op_fields(int kind, const struct tok *a, uint32_t *len, uint64_t *num,
		     unsigned lineno, char *err, size_t errlen)
{
	const struct spec *sp = &specs[kind];
	for (int i = 0; i < sp->paths; i++) {
		if (!a[i].quoted)
			ERR("%s: field %d must be a quoted path", sp->name, i + 1);
		if (a[i].len > TB_MAX_PATH)
			ERR("%s: path longer than %d characters", sp->name, TB_MAX_PATH);
		len[i] = (uint32_t)a[i].len + 1;
	}
	for (int i = 0; i < sp->nums; i++) {
		const struct tok *x = &a[sp->paths + i];
		int r = parse_num(x, &num[i]);
		if (r == -ERANGE)
			ERR("%s: number '%.*s' too large (max %u)", sp->name,
			    (int)(x->len > 40 ? 40 : x->len), x->s, UINT32_MAX);
		if (r)
			ERR("%s: field %d: '%.*s' is not a number", sp->name, sp->paths + i + 1,
			    (int)(x->len > 40 ? 40 : x->len), x->s);
	}
	if (kind == TB_READX && num[3] > TB_MAX_IO)
		ERR("ReadX: size %llu exceeds %u", (unsigned long long)num[3], TB_MAX_IO);
	if (kind == TB_WRITEX && num[2] > TB_MAX_IO)
		ERR("WriteX: size %llu exceeds %u", (unsigned long long)num[2], TB_MAX_IO);
	if (kind == TB_FINDFIRST && num[2] > TB_MAX_FIND)
		ERR("FIND_FIRST: count %llu exceeds %u", (unsigned long long)num[2], TB_MAX_FIND);
	return 0;
}

int tb_parse_line(const char *line, unsigned lineno, struct tb_op *op, char *err,
		  size_t errlen)
{
	struct tok t[MAXTOK];
	int nt, first, kind;
	uint32_t len[2] = {0, 0};
	uint64_t num[4] = {0, 0, 0, 0};

	if ((nt = tokenize(line, t, lineno, err, errlen)) < 0)
		return -1;
	if (nt == 0 || (!t[0].quoted && t[0].s[0] == '#'))
		return 0;
	if ((first = skip_timestamp(t, nt, lineno, err, errlen)) < 0 ||
	    (kind = op_kind(t, first, nt, lineno, err, errlen)) < 0 ||
	    op_fields(kind, &t[first + 1], len, num, lineno, err, errlen))
		return -1;
	if (kind == TB_DELTREE)
		return 0;
	*op = make_op(kind, len[0], len[1], num);
	return 1;
}

static int push(struct tb_load *ld, const struct tb_op *o)
{
	if (ld->n == ld->cap) {
		size_t cap = ld->cap ? ld->cap * 2 : 1024;
		struct tb_op *p = realloc(ld->ops, cap * sizeof *p);
		if (!p)
			return -ENOMEM;
		ld->ops = p;
		ld->cap = cap;
	}
	ld->ops[ld->n++] = *o;
	if (o->kind == TB_READX)
		ld->read_bytes += o->payload;
	else if (o->kind == TB_WRITEX)
		ld->write_bytes += o->payload;
	if (o->req > ld->max_req)
		ld->max_req = o->req;
	if (o->rep > ld->max_rep)
		ld->max_rep = o->rep;
	return 0;
}

int tb_load_stream(FILE *f, struct tb_load *ld, char *err, size_t errlen)
{
	char line[TB_LINE_MAX + 2];
	unsigned lineno = 0;
	struct tb_op o;

	while (fgets(line, sizeof line, f)) {
		lineno++;
		size_t l = strlen(line);
		if (l && line[l - 1] != '\n' && !feof(f)) {
			snprintf(err, errlen, "line %u: longer than %d characters", lineno,
				 TB_LINE_MAX);
			return -1;
		}
		int r = tb_parse_line(line, lineno, &o, err, errlen);
		if (r < 0)
			return -1;
		if (r && push(ld, &o)) {
			snprintf(err, errlen, "out of memory at line %u", lineno);
			return -1;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "read error after line %u", lineno);
		return -1;
	}
	if (ld->n == 0 || ld->read_bytes + ld->write_bytes == 0) {
		snprintf(err, errlen, "load has %s (%u lines)",
			 ld->n ? "no ReadX/WriteX payload" : "no operations", lineno);
		return -1;
	}
	return 0;
}

int tb_load_file(const char *path, struct tb_load *ld, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int r = tb_load_stream(f, ld, err, errlen);
	fclose(f);
	return r;
}

/* ---- synthetic load ---- */

struct wt {
	uint32_t v, w;
};

/* Op counts of client.txt (per 458,341 exchanges). */
static const struct wt kind_w[] = {
	{TB_READX, 124199}, {TB_NTCREATEX, 79230}, {TB_QPATHINFO, 71814}, {TB_CLOSE, 58200},
	{TB_WRITEX, 39502}, {TB_FINDFIRST, 27765}, {TB_UNLINK, 16000}, {TB_QFSINFO, 13168},
	{TB_QFILEINFO, 12585}, {TB_SFILEINFO, 6454}, {TB_FLUSH, 5553}, {TB_RENAME, 3355},
	{TB_LOCKX, 258}, {TB_UNLOCKX, 258},
};
static const struct wt read_w[] = {	/* per 10,000 ReadX */
	{4096, 6697}, {61440, 1340}, {2048, 374}, {8192, 374}, {16384, 156}, {2256, 1059},
};
static const struct wt write_w[] = {	/* per 10,000 WriteX */
	{65536, 3204}, {4096, 2517}, {1, 1879}, {2048, 425}, {8192, 295}, {20000, 1680},
};
static const struct wt find_w[] = {{0, 55}, {11, 45}};

static uint32_t pick(uint64_t *rng, const struct wt *t, size_t n)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += t[i].w;
	uint64_t r = splitmix64(rng) % total;
	for (size_t i = 0; i < n; i++) {
		if (r < t[i].w)
			return t[i].v;
		r -= t[i].w;
	}
	return t[n - 1].v;
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define SYNTH_PATHLEN 39	/* 38 characters + dbench's "." prefix */

struct tb_op tb_synth_op(uint64_t *rng)
{
	uint64_t n[4] = {0, 0, 0, 0};
	int kind = (int)pick(rng, kind_w, NELEM(kind_w));

	if (kind == TB_READX)
		n[2] = n[3] = pick(rng, read_w, NELEM(read_w));
	else if (kind == TB_WRITEX)
		n[2] = n[3] = pick(rng, write_w, NELEM(write_w));
	else if (kind == TB_FINDFIRST)
		n[2] = pick(rng, find_w, NELEM(find_w));
	return make_op(kind, SYNTH_PATHLEN, SYNTH_PATHLEN, n);
}

int tb_synth(uint64_t seed, size_t n, struct tb_load *ld)
{
	uint64_t rng = seed;

	for (size_t i = 0; i < n; i++) {
		struct tb_op o = tb_synth_op(&rng);
		if (push(ld, &o))
			return -ENOMEM;
	}
	return 0;
}

void tb_load_free(struct tb_load *ld)
{
	free(ld->ops);
	memset(ld, 0, sizeof *ld);
}

const char *tbench_load_path(void)
{
	const char *env = getenv("ISOBENCH_TBENCH_LOAD");

	if (env && *env)
		return env;
	if (access(TBENCH_LOAD_BUILTIN, R_OK) == 0)
		return TBENCH_LOAD_BUILTIN;
	return NULL;
}
