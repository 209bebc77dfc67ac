/* image.c — see image.h. */
#define _GNU_SOURCE
#include "image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LABEL "ISOBENCHEFI"

struct fat {
	FILE *f;
	uint64_t base;			/* partition start, bytes */
	unsigned bps, spc, type;	/* bytes per sector, sectors per cluster, 12/16/32 */
	uint64_t fat_off, root_off, data_off;	/* bytes from base */
	uint32_t root_entries, root_cluster, nclusters;
};

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static int rd(FILE *f, uint64_t off, void *buf, size_t n)
{
	return fseeko(f, (off_t)off, SEEK_SET) || fread(buf, 1, n, f) != n ? -1 : 0;
}

/* A FAT boot sector at byte off with the image's label: fill fs. */
static int fat_open(FILE *f, uint64_t off, struct fat *fs)
{
	unsigned char b[512];
	if (rd(f, off, b, sizeof b) || b[510] != 0x55 || b[511] != 0xaa)
		return -1;
	uint32_t spf = le16(b + 0x16), total = le16(b + 0x13);
	const unsigned char *ext = spf ? b + 0x26 : b + 0x42;
	if (ext[0] != 0x29 || memcmp(ext + 5, LABEL, strlen(LABEL)))
		return -1;
	memset(fs, 0, sizeof *fs);
	fs->f = f;
	fs->base = off;
	fs->bps = le16(b + 0x0b);
	fs->spc = b[0x0d];
	if (!spf)
		spf = le32(b + 0x24);
	if (!total)
		total = le32(b + 0x20);
	if (fs->bps < 512 || fs->bps > 4096 || !fs->spc || !b[0x10])
		return -1;
	fs->root_entries = le16(b + 0x11);
	fs->fat_off = (uint64_t)le16(b + 0x0e) * fs->bps;
	fs->root_off = fs->fat_off + (uint64_t)b[0x10] * spf * fs->bps;
	fs->data_off = fs->root_off + ((uint64_t)fs->root_entries * 32 + fs->bps - 1) / fs->bps *
						fs->bps;
	uint64_t data_sectors = total - fs->data_off / fs->bps;
	fs->nclusters = (uint32_t)(data_sectors / fs->spc);
	fs->type = fs->nclusters < 4085 ? 12 : fs->nclusters < 65525 ? 16 : 32;
	fs->root_cluster = fs->type == 32 ? le32(b + 0x2c) : 0;
	return 0;
}

static uint32_t next_cluster(const struct fat *fs, uint32_t c)
{
	unsigned char b[4] = {0};
	if (fs->type == 12) {
		if (rd(fs->f, fs->base + fs->fat_off + c + c / 2, b, 2))
			return 0;
		uint32_t v = le16(b);
		v = c & 1 ? v >> 4 : v & 0xfff;
		return v >= 0xff8 ? 0 : v;
	}
	if (fs->type == 16) {
		if (rd(fs->f, fs->base + fs->fat_off + (uint64_t)c * 2, b, 2))
			return 0;
		return le16(b) >= 0xfff8 ? 0 : le16(b);
	}
	if (rd(fs->f, fs->base + fs->fat_off + (uint64_t)c * 4, b, 4))
		return 0;
	uint32_t v = le32(b) & 0x0fffffff;
	return v >= 0x0ffffff8 ? 0 : v;
}

/* Read a cluster chain (or the fixed FAT12/16 root when cluster is 0) into a new buffer,
 * at most max bytes. */
static unsigned char *read_chain(const struct fat *fs, uint32_t cluster, size_t max, size_t *len)
{
	size_t csize = (size_t)fs->bps * fs->spc, n = 0;
	unsigned char *buf;

	if (!cluster && fs->type != 32) {
		size_t sz = (size_t)fs->root_entries * 32;
		if (!(buf = malloc(sz ? sz : 1)) || rd(fs->f, fs->base + fs->root_off, buf, sz)) {
			free(buf);
			return NULL;
		}
		*len = sz;
		return buf;
	}
	if (!cluster)
		cluster = fs->root_cluster;
	if (!(buf = malloc(max + csize)))
		return NULL;
	for (uint32_t hops = 0; cluster >= 2 && cluster < fs->nclusters + 2 && n < max &&
				hops <= fs->nclusters; hops++) {
		if (rd(fs->f, fs->base + fs->data_off + (uint64_t)(cluster - 2) * csize, buf + n,
		       csize))
			break;
		n += csize;
		cluster = next_cluster(fs, cluster);
	}
	*len = n < max ? n : max;
	return buf;
}

/* In a directory's entries: the subdirectory named name83 (11 bytes), or with ext set the
 * newest file whose extension is ext (by date, time, then position). 0 if none. */
static const unsigned char *find_entry(const unsigned char *d, size_t len, const char *name83,
				       const char *ext)
{
	const unsigned char *best = NULL;
	uint32_t best_t = 0;
	for (size_t o = 0; o + 32 <= len; o += 32) {
		const unsigned char *e = d + o;
		if (e[0] == 0)
			break;
		if (e[0] == 0xe5 || e[0x0b] == 0x0f || (e[0x0b] & 0x08))
			continue;	/* deleted, long-name part, volume label */
		if (name83 && (e[0x0b] & 0x10) && !memcmp(e, name83, 11))
			return e;
		if (ext && !(e[0x0b] & 0x10) && !memcmp(e + 8, ext, 3)) {
			uint32_t t = le16(e + 0x18) << 16 | le16(e + 0x16);
			if (!best || t >= best_t) {
				best = e;
				best_t = t;
			}
		}
	}
	return best;
}

static FILE *extract(FILE *f, uint64_t off)
{
	struct fat fs;
	size_t len;
	unsigned char *root, *sub = NULL, *res = NULL, *data = NULL;
	const unsigned char *e;
	FILE *out = NULL;

	if (fat_open(f, off, &fs) || !(root = read_chain(&fs, 0, 1 << 20, &len)))
		return NULL;
	if ((e = find_entry(root, len, "ISOBENCH   ", NULL)) &&
	    (sub = read_chain(&fs, le16(e + 0x1a) | le16(e + 0x14) << 16, 1 << 20, &len)) &&
	    (e = find_entry(sub, len, "RESULTS    ", NULL)) &&
	    (res = read_chain(&fs, le16(e + 0x1a) | le16(e + 0x14) << 16, 1 << 22, &len)) &&
	    (e = find_entry(res, len, NULL, "LOG"))) {
		size_t size = le32(e + 0x1c);
		if ((data = read_chain(&fs, le16(e + 0x1a) | le16(e + 0x14) << 16, size, &len)) &&
		    len == size && (out = tmpfile())) {
			if (fwrite(data, 1, len, out) != len || fseek(out, 0, SEEK_SET)) {
				fclose(out);
				out = NULL;
			}
		}
	}
	free(root);
	free(sub);
	free(res);
	free(data);
	return out;
}

FILE *image_fopen(const char *path, int *is_image)
{
	FILE *f = fopen(path, "rb");
	unsigned char mbr[512];

	*is_image = 0;
	if (!f || rd(f, 0, mbr, sizeof mbr) || mbr[510] != 0x55 || mbr[511] != 0xaa) {
		if (f)
			rewind(f);
		return f;
	}
	/* The four MBR partition entries (the hybrid ISO's second one is the FAT partition). */
	for (int i = 0; i < 4; i++) {
		const unsigned char *p = mbr + 446 + 16 * i;
		uint64_t start = (uint64_t)le32(p + 8) * 512;
		FILE *log;
		if (!p[4] || !start)
			continue;
		if ((log = extract(f, start))) {
			fclose(f);
			*is_image = 1;
			return log;
		}
	}
	rewind(f);
	return f;
}
