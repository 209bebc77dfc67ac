/* vocab_dump.c — prints lib/vocab.h's table for tests/test-vocab.sh, and checks a log with it.
 *   vocab-dump --list      one line per field: KIND<TAB>key<TAB>always|one|optional
 *                          (KIND "*": any kind)
 *   vocab-dump --markdown  docs/records.md's generated "Key types" table
 *   vocab-dump --words     docs/records.md's generated table of the groups, units and
 *                          extras (lib/vocab.h's VOCAB_GROUPS, VOCAB_UNITS, VOCAB_EXTRAS)
 *   vocab-dump --names     one line per word: kind|group|unit|extra<TAB>word (the kinds
 *                          VOCAB_KINDS, the rest as --words), for the lint and README check
 *   vocab-dump --check     reads a log on stdin; prints every record that breaks the table (a
 *                          key it does not know, a value of the wrong type, a required key
 *                          missing, a SAMPLE extra not in VOCAB_EXTRAS) as "line N: KIND: what"; exit 1 when one does
 * Exit 2 on a usage error. */
#include "record.h"
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const presence[] = {"always", "one", "optional"};

static void list(void)
{
	for (size_t i = 0; i < vocab_nfields; i++) {
		const struct vocab_field *f = &vocab_fields[i];
		printf("%s\t%s\t%s\n", vocab_kind_names[f->kind], vocab_key_names[f->key],
		       presence[f->presence]);
	}
}

/* "exactly one of `i`, `warmup`": the ONE keys of kind k. */
static void ones_text(enum vocab_kind k, char *o, size_t n)
{
	size_t off = (size_t)snprintf(o, n, "exactly one of ");
	int first = 1;

	for (size_t i = 0; i < vocab_nfields && off < n; i++)
		if (vocab_fields[i].kind == k && vocab_fields[i].presence == VP_ONE) {
			off += (size_t)snprintf(o + off, n - off, "%s`%s`", first ? "" : ", ",
						vocab_key_names[vocab_fields[i].key]);
			first = 0;
		}
}

/* Rows of the markdown table: one per key name and type, with the kinds it appears in. INFO
 * keys that are strings are left out (the INFO table lists them; the table says so). */
static void markdown(void)
{
	char done[256] = {0};

	printf("| key | type | in |\n|---|---|---|\n");
	for (size_t i = 0; i < vocab_nfields && i < sizeof done; i++) {
		const struct vocab_field *f = &vocab_fields[i];
		char type[160], t2[160], in[3][200] = {"", "", ""}, one[100] = "";
		if (done[i] || (f->kind == VK_INFO && f->type == VT_STR))
			continue;
		vocab_type_text(f, type, sizeof type);
		for (size_t j = i; j < vocab_nfields && j < sizeof done; j++) {
			const struct vocab_field *g = &vocab_fields[j];
			if (g->key != f->key)
				continue;
			vocab_type_text(g, t2, sizeof t2);
			if (strcmp(type, t2))
				continue;
			done[j] = 1;
			char *into = in[g->presence];
			size_t l = strlen(into);
			snprintf(into + l, sizeof in[0] - l, "%s%s", l ? ", " : "",
				 g->kind == VK_ANY ? "any kind" : vocab_kind_names[g->kind]);
			if (g->presence == VP_ONE)
				ones_text(g->kind, one, sizeof one);
		}
		printf("| `%s` | %s | ", vocab_key_names[f->key], type);
		if (in[VP_REQ][0])
			printf("%s", in[VP_REQ]);
		if (in[VP_ONE][0])
			printf("%s%s (%s)", in[VP_REQ][0] ? "; " : "", in[VP_ONE], one);
		if (in[VP_OPT][0])
			printf("%soptional in %s", in[VP_REQ][0] || in[VP_ONE][0] ? "; " : "",
			       in[VP_OPT]);
		printf(" |\n");
	}
	printf("\nAny INFO key not in this table is a string.\n");
}

/* "`a`, `b`, ..." of a NULL-terminated list. */
static void word_cell(const char *const *w)
{
	for (int i = 0; w[i]; i++)
		printf("%s`%s`", i ? ", " : "", w[i]);
}

static void words(void)
{
	printf("| list | words |\n|---|---|\n| groups | ");
	word_cell(vocab_groups);
	printf(" |\n| units | ");
	word_cell(vocab_units);
	printf(" |\n| extras | ");
	word_cell(vocab_extras);
	printf(" |\n");
}

static void names(void)
{
	static const struct { const char *what; const char *const *w; } lists[] = {
		{"group", vocab_groups}, {"unit", vocab_units}, {"extra", vocab_extras},
	};
	for (int k = 0; k < VK_COUNT; k++)
		printf("kind\t%s\n", vocab_kind_names[k]);
	for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
		for (int i = 0; lists[l].w[i]; i++)
			printf("%s\t%s\n", lists[l].what, lists[l].w[i]);
}

static int in_list(const char *w, const char *const *l)
{
	for (int i = 0; l[i]; i++)
		if (!strcmp(w, l[i]))
			return 1;
	return 0;
}

/* One record against the table; prints what breaks it, returns how many things did. */
static int check_record(const struct record *r, size_t lineno)
{
	int bad = 0, k = vocab_kind(r->kind), ones = 0, has_one = 0, missing = 0;
	const char *dropped = rec_get(r, RK_DROPPED);

	for (int i = 0; i < r->nfields; i++) {
		const struct vocab_field *f = vocab_key(r->kind, r->key[i]);
		if (!f && k == VK_DIGEST)	/* the fields of the record its part restates */
			f = vocab_digest_key(rec_get(r, RK_PART), r->key[i]);
		if (!f) {
			printf("line %zu: %s: unknown key %s\n", lineno, r->kind, r->key[i]);
			bad++;
		} else if (!vocab_value_ok(f, r->val[i])) {
			printf("line %zu: %s: %s=%s is not of its type\n", lineno, r->kind, r->key[i],
			       r->val[i]);
			bad++;
		} else if (f->key == VKEY_EXTRA && !in_list(r->key[i], vocab_extras)) {
			printf("line %zu: %s: extra %s is not in VOCAB_EXTRAS\n", lineno, r->kind,
			       r->key[i]);
			bad++;
		}
	}
	for (size_t i = 0; i < vocab_nfields; i++) {
		const struct vocab_field *f = &vocab_fields[i];
		if (f->kind != (enum vocab_kind)k || f->presence == VP_OPT)
			continue;
		int there = rec_get(r, vocab_key_names[f->key]) != NULL;
		if (f->presence == VP_ONE) {
			has_one = 1;
			ones += there;
		} else if (!there) {
			printf("line %zu: %s: no %s\n", lineno, r->kind, vocab_key_names[f->key]);
			missing++;
		}
	}
	if (has_one && ones != 1) {
		printf("line %zu: %s: %d of its one-of keys\n", lineno, r->kind, ones);
		if (ones)
			bad++;
		else
			missing++;
	}
	/* Keys the writer said it left out (dropped_fields=N, docs/records.md) may be absent. */
	if (missing && dropped && missing <= atoi(dropped))
		printf("line %zu: %s: the %d missing are among its dropped_fields=%s\n", lineno,
		       r->kind, missing, dropped);
	else
		bad += missing;
	return bad;
}

static int check(void)
{
	static char line[REC_MAX * 2];
	static struct record r;
	size_t lineno = 0;
	int bad = 0, n = 0;

	while (fgets(line, sizeof line, stdin)) {
		lineno++;
		if (rec_parse(line, strlen(line), &r) != REC_OK)
			continue;
		n++;
		bad += check_record(&r, lineno);
	}
	printf("%d records, %d problems\n", n, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list"))
		list();
	else if (argc == 2 && !strcmp(argv[1], "--markdown"))
		markdown();
	else if (argc == 2 && !strcmp(argv[1], "--words"))
		words();
	else if (argc == 2 && !strcmp(argv[1], "--names"))
		names();
	else if (argc == 2 && !strcmp(argv[1], "--check"))
		return check();
	else {
		fprintf(stderr, "usage: vocab-dump --list|--markdown|--words|--names|--check <LOG\n");
		return 2;
	}
	return 0;
}
