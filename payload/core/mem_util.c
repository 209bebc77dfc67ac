/* mem_util.c — see mem_util.h. */
#define _GNU_SOURCE
#include "mem_util.h"
#include "../sysfs.h"
#include "rng.h"
#include "io.h"
#include "num.h"
#include "arch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>


/* The decimal at *s (a CPU or node number of a list) into *v, *s past its digits; -EINVAL
 * when there is none or it is past a long long. */
static int list_num(const char **s, long long *v)
{
	char tok[24];
	size_t n = strspn(*s, "0123456789");

	if (!n || n >= sizeof tok)
		return -EINVAL;
	memcpy(tok, *s, n);
	tok[n] = 0;
	*s += n;
	return num_ll(tok, 0, 0, LLONG_MAX, v);
}

int mem_list_parse(const char *s, unsigned char *set, int cap)
{
	int n = 0;
	memset(set, 0, (size_t)cap);
	while (*s >= '0' && *s <= '9') {
		long long a, b;
		if (list_num(&s, &a))
			return -EINVAL;
		b = a;
		if (*s == '-' && (++s, list_num(&s, &b)))
			return -EINVAL;
		if (b < a || b >= cap)
			return -EINVAL;
		for (long long i = a; i <= b; i++)
			n += !set[i], set[i] = 1;
		s += *s == ',';
	}
	return *s && *s != '\n' ? -EINVAL : n;
}

/* A cgroup file's number in bytes; UINT64_MAX for "max", a missing file, a v1 "no limit"
 * (the page-rounded LONG_MAX, anything >= 2^62), or text that is no decimal count (then the
 * limit is unknown and taken as none: the test's size is then bounded by MemAvailable). */
static uint64_t cg_bytes(const char *dir, const char *file)
{
	char path[600], buf[64];
	unsigned long long v;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (read_line(path, buf, sizeof buf) <= 0 || num_ull(buf, 0, 0, ULLONG_MAX, &v))
		return UINT64_MAX;
	return v >= (1ull << 62) ? UINT64_MAX : v;
}

/* The room (limit - usage) of the cgroup directory dir and each ancestor below root. */
static uint64_t cg_walk(char *dir, size_t rootlen, const char *max, const char *cur)
{
	uint64_t room = UINT64_MAX;
	for (;;) {
		uint64_t lim = cg_bytes(dir, max), use = cg_bytes(dir, cur);
		if (lim != UINT64_MAX) {
			uint64_t r = use == UINT64_MAX ? lim : use >= lim ? 0 : lim - use;
			room = r < room ? r : room;
		}
		char *slash = strrchr(dir + rootlen, '/');
		if (!slash)
			return room;
		*slash = 0;
	}
}

uint64_t mem_cgroup_room(const char *proc_cgroup, const char *root)
{
	FILE *f = fopen(proc_cgroup, "re");
	char line[512], dir[600];
	uint64_t room = UINT64_MAX;
	if (!f)
		return room;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = 0;
		const char *ctl = c1 + 1, *path = !strcmp(c2 + 1, "/") ? "" : c2 + 1;
		uint64_t r = UINT64_MAX;
		size_t n;
		if (!*ctl && !strncmp(line, "0:", 2)) {	/* v2: "0::/path" */
			n = (size_t)snprintf(dir, sizeof dir, "%s", root);
			snprintf(dir + n, sizeof dir - n, "%s", path);
			r = cg_walk(dir, n, "memory.max", "memory.current");
		} else if (strstr(ctl, "memory")) {	/* v1: "N:memory:/path" */
			n = (size_t)snprintf(dir, sizeof dir, "%s/memory", root);
			snprintf(dir + n, sizeof dir - n, "%s", path);
			r = cg_walk(dir, n, "memory.limit_in_bytes", "memory.usage_in_bytes");
		}
		room = r < room ? r : room;
	}
	fclose(f);
	return room;
}

/* The "Key:  N kB" field of /proc/PID/status in KiB, -1 when absent or not "N kB". */
static int64_t status_kib(const char *proc, long pid, const char *key)
{
	char path[300];
	long long v;
	snprintf(path, sizeof path, "%s/%ld/status", proc, pid);
	return read_kv_ll(path, key, ':', "kB", &v) || v < 0 ? -1 : v;
}

/* The parent pid in /proc/PID/stat ("pid (comm) state ppid ...": comm may hold anything,
 * so after its last ')'); -1 when unreadable. */
static long stat_ppid(const char *proc, const char *pid)
{
	char path[300], buf[512], *fd[2];	/* state ppid */
	long long ppid;
	snprintf(path, sizeof path, "%s/%s/stat", proc, pid);
	read_file_str(path, buf, sizeof buf);
	char *c = strrchr(buf, ')');
	if (!c || split_fields(c + 1, fd, 2) != 2 || fd[0][1] || num_ll(fd[1], 0, 0, LONG_MAX, &ppid))
		return -1;
	return (long)ppid;
}

uint64_t mem_others_kib(const char *proc, long self, long parent)
{
	DIR *d = opendir(proc);
	struct dirent *e;
	int64_t shared = status_kib(proc, parent, "RssAnon");
	uint64_t held = 0;

	while (d && (e = readdir(d))) {
		long long pid;
		if (num_ll(e->d_name, 0, 1, LONG_MAX, &pid) || pid == self ||
		    stat_ppid(proc, e->d_name) != parent)
			continue;
		int64_t anon = status_kib(proc, (long)pid, "RssAnon");
		if (anon > shared)
			held += (uint64_t)(anon - (shared > 0 ? shared : 0));
	}
	if (d)
		closedir(d);
	return held;
}

int mem_budget(const struct mem_budget *b, char *why, size_t len)
{
	int by_cg = b->cg_kib < b->avail_kib;
	uint64_t room = (by_cg ? b->cg_kib : b->avail_kib) + b->others_kib;
	uint64_t need = b->bytes * (uint64_t)b->copies >> 10;
	/* 1/32 of the budget that binds: MemTotal for MemAvailable, the room itself for a cgroup
	 * (a 300 MiB container on a 24 GiB host got a 832 MiB margin and SKIPped a 16 KiB set) */
	uint64_t margin = (64u << 10) + (by_cg ? b->cg_kib : b->total_kib) / 32;
	if (need + margin <= room) {
		uint64_t pages = b->page ? b->bytes / b->page : 0;
		if (!b->map_limit || pages + MEM_MAP_SLACK <= b->map_limit)
			return 0;
		/* why is a note (160 bytes): short */
		snprintf(why, len, "UML maps each page on the host: %" PRIu64 " pages pass "
			 "vm.max_map_count (host default %" PRIu64 ", less %u kept; unreadable in "
			 "the guest)", pages, b->map_limit, MEM_MAP_SLACK);
		return BENCH_SKIP;
	}
	snprintf(why, len, "needs %" PRIu64 " MiB (%d cop%s) + %" PRIu64 " MiB margin, %s is %"
		 PRIu64 " MiB", need >> 10, b->copies, b->copies == 1 ? "y" : "ies", margin >> 10,
		 by_cg ? "the memory cgroup's room" : "MemAvailable", (room - b->others_kib) >> 10);
	if (b->others_kib >> 10) {	/* a whole MiB at least: "+ 0 MiB" says nothing */
		size_t l = strlen(why);
		snprintf(why + l, len - l, " + %" PRIu64 " MiB the other copies hold",
			 b->others_kib >> 10);
	}
	return BENCH_SKIP;
}

int mem_spare(struct bench_ctx *ctx, uint64_t bytes)
{
	/* The other copies first: what they touch after this read is still in MemAvailable
	 * below (counted once, never twice). */
	uint64_t others = ctx->copies > 1 ? mem_others_kib("/proc", getpid(), getppid()) : 0;
	int64_t avail = proc_meminfo_kib("MemAvailable"), total = proc_meminfo_kib("MemTotal");
	if (avail < 0 || total < 0) {
		bench_note(ctx, "cannot read MemAvailable in /proc/meminfo");
		return BENCH_SKIP;
	}
	/* A memory cgroup (container, systemd MemoryMax) can allow far less than the machine
	 * has: past its limit the kernel OOM-kills inside the cgroup, the runner included. */
	struct mem_budget b = {
		.avail_kib = (uint64_t)avail, .total_kib = (uint64_t)total,
		.cg_kib = mem_cgroup_room("/proc/self/cgroup", "/sys/fs/cgroup") >> 10,
		.others_kib = others, .bytes = bytes, .copies = ctx->copies,
		.map_limit = mem_host_map_limit("/proc/cpuinfo"), .page = (uint64_t)sysconf(_SC_PAGESIZE),
	};
	return mem_budget(&b, ctx->note, sizeof ctx->note);
}

uint64_t mem_host_map_limit(const char *cpuinfo)
{
	char vendor[64];
	proc_field(cpuinfo, "vendor_id", vendor, sizeof vendor);
	return strcmp(vendor, "User Mode Linux") ? 0 : MEM_UML_MAX_MAP_COUNT;
}

int mem_thp_usable(struct bench_ctx *ctx)
{
	char mode[128];
	if (read_line(SYSFS_THP "enabled", mode, sizeof mode) <= 0) {
		bench_note(ctx, "no transparent huge pages (" SYSFS_THP "enabled absent)");
		return BENCH_SKIP;
	}
	if (strstr(mode, "[never]")) {
		/* Linux 6.1 mm/huge_memory.c hugepage_init(): with totalram (MemTotal) below
		 * 512 MiB it clears transparent_hugepage_flags at boot, after the command line's
		 * transparent_hugepage= was applied and whatever CONFIG_TRANSPARENT_HUGEPAGE_MADVISE
		 * says; only a write to sysfs turns THP on then. Neither our config nor init
		 * does it (checked: a 256 MiB guest booted with transparent_hugepage=madvise
		 * still has "[never]"), so name the kernel's rule and the figures. */
		int64_t total = proc_meminfo_kib("MemTotal");
		if (total >= 0 && total < (512 << 10))
			bench_note(ctx, "transparent huge pages off (mode never): the kernel turns them "
				   "off at boot below 512 MiB of RAM (MemTotal %" PRId64 " MiB), "
				   "whatever transparent_hugepage= says", total >> 10);
		else
			bench_note(ctx, "transparent huge pages off (mode never): set so by "
				   "transparent_hugepage=never or in " SYSFS_THP "enabled");
		return BENCH_SKIP;
	}
	return 0;
}

int mem_advise_4k(void *p, size_t len)
{
	if (!madvise(p, len, MADV_NOHUGEPAGE))
		return 0;
	int e = -errno;
	return e == -EINVAL && access(SYSFS_THP "enabled", F_OK) ? 0 : e;
}

int mem_map(struct mem_map *m, size_t len, enum mem_page page)
{
	size_t unit = page == MEM_PAGE_2M ? MEM_HUGE_BYTES : (size_t)sysconf(_SC_PAGESIZE);
	size_t want = (len + unit - 1) / unit * unit, slack = page == MEM_PAGE_2M ? unit : 0;
	char *p = mmap(NULL, want + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (slack) {	/* keep the 2 MiB-aligned part only: one VMA, whole huge pages */
		char *a = (char *)(((uintptr_t)p + unit - 1) & ~(uintptr_t)(unit - 1));
		if (a > p)
			munmap(p, (size_t)(a - p));
		if (a + want < p + want + slack)
			munmap(a + want, (size_t)(p + want + slack - (a + want)));
		p = a;
	}
	int e = page == MEM_PAGE_2M ? (madvise(p, want, MADV_HUGEPAGE) ? -errno : 0)
				    : mem_advise_4k(p, want);
	if (e) {
		munmap(p, want);
		return e;
	}
	m->base = p;
	m->len = want;
	m->page = page;
	return 0;
}

/* A smaps VMA header's start ("lo-hi perms ...", hex) into *lo: 1, or 0 when line is no such
 * header. line is left as it is. */
static int vma_start(const char *line, unsigned long long *lo)
{
	char h[80], *fd[1], *dash;
	unsigned long long hi;
	snprintf(h, sizeof h, "%.*s", (int)sizeof h - 1, line);
	if (split_fields(h, fd, 1) != 1 || !(dash = strchr(fd[0], '-')))
		return 0;
	*dash = 0;
	return !num_ull(fd[0], NUM_XDIGITS, 0, UINTPTR_MAX, lo) &&
	       !num_ull(dash + 1, NUM_XDIGITS, 0, UINTPTR_MAX, &hi);
}

int64_t mem_anon_huge_kib(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[256];
	int in = 0;
	int64_t kib = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo;
		/* A VMA's header is "lo-hi perms ..." (lower-case hex); its fields follow as
		 * "Name:  value kB", names starting with an upper-case letter. */
		if (((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) &&
		    vma_start(line, &lo))
			in = lo == (uintptr_t)addr;
		else if (in && !strncmp(line, "AnonHugePages:", 14)) {
			long long v;	/* not "N kB": -EINVAL, the caller's SKIP says so */
			kib = kv_ll(line, "AnonHugePages", ':', "kB", &v) || v < 0 ? -EINVAL : v;
			break;
		}
	}
	fclose(f);
	return kib;
}

int mem_map_verify(struct bench_ctx *ctx, const struct mem_map *m)
{
	int64_t huge = mem_anon_huge_kib(m->base), want = (int64_t)(m->len >> 10);
	if (huge < 0) {
		bench_note(ctx, "cannot read AnonHugePages of the mapping in /proc/self/smaps");
		return BENCH_SKIP;
	}
	if (m->page == MEM_PAGE_2M && huge != want) {
		bench_note(ctx, "THP granted %" PRId64 " of %" PRId64 " KiB (AnonHugePages)",
			   huge, want);
		return BENCH_SKIP;
	}
	if (m->page == MEM_PAGE_4K && huge != 0) {
		bench_note(ctx, "MADV_NOHUGEPAGE ignored: AnonHugePages %" PRId64 " KiB", huge);
		return BENCH_SKIP;
	}
	return 0;
}

void mem_unmap(struct mem_map *m)
{
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
}

/* Size in bytes of "32768K"/"1M"-style sysfs cache size text (a count, then at most one of
 * K, M, G); 0 (unknown) for any other text. */
static uint64_t cache_size(const char *s)
{
	char num[24];
	size_t n = strspn(s, "0123456789");
	unsigned long long v;
	int shift = s[n] == 'K' ? 10 : s[n] == 'M' ? 20 : s[n] == 'G' ? 30 : 0;

	if (n >= sizeof num || (s[n] && (!shift || s[n + 1])))
		return 0;
	memcpy(num, s, n);
	num[n] = 0;
	return num_ull(num, 0, 0, UINT64_MAX >> shift, &v) ? 0 : v << shift;
}

/* One cache index of one CPU: level, size and sharing; 0 when it is data or unified. */
static int cache_index(int cpu, int idx, int *level, uint64_t *size, char *shared, size_t cap)
{
	char path[128], buf[64];
	snprintf(path, sizeof path, SYSFS_CPU "cpu%d/cache/index%d/type", cpu, idx);
	if (read_line(path, buf, sizeof buf) <= 0)
		return -ENOENT;
	if (!strcmp(buf, "Instruction"))
		return 1;
	snprintf(path, sizeof path, SYSFS_CPU "cpu%d/cache/index%d/level", cpu, idx);
	if (read_line(path, buf, sizeof buf) <= 0)
		return -ENOENT;
	long long lv;
	if (num_ll(buf, 0, 0, INT_MAX, &lv))
		return -ENOENT;	/* a level that is no number: the index is unknown */
	*level = (int)lv;
	snprintf(path, sizeof path, SYSFS_CPU "cpu%d/cache/index%d/size", cpu, idx);
	if (read_line(path, buf, sizeof buf) <= 0)
		return -ENOENT;
	*size = cache_size(buf);
	snprintf(path, sizeof path, SYSFS_CPU "cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
	if (read_line(path, shared, cap) <= 0)
		snprintf(shared, cap, "cpu%d", cpu);
	return 0;
}

#define MEM_MAX_LLC 64

uint64_t mem_llc_bytes(int *level)
{
	char seen[MEM_MAX_LLC][64];
	int nseen = 0, best = 0;
	uint64_t total = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (int cpu = 0; cpu < ncpu && cpu < 4096; cpu++)
		for (int idx = 0; idx < 8; idx++) {
			int lv;
			uint64_t sz;
			char sh[64];
			int r = cache_index(cpu, idx, &lv, &sz, sh, sizeof sh);
			if (r < 0)
				break;
			if (r > 0 || lv < best)
				continue;
			if (lv > best) {	/* a higher level: start over */
				best = lv;
				nseen = 0;
				total = 0;
			}
			int dup = 0;
			for (int k = 0; k < nseen; k++)
				dup |= !strcmp(seen[k], sh);
			if (dup || nseen == MEM_MAX_LLC)
				continue;
			snprintf(seen[nseen++], sizeof seen[0], "%s", sh);
			total += sz;
		}
	*level = best;
	return total;
}

uint64_t mem_cpu_llc_bytes(int cpu, int *sharing)
{
	uint64_t size = 0;
	int best = 0;
	char shared[4096];
	static unsigned char set[MEM_MAX_CPUS];
	for (int idx = 0; idx < 8; idx++) {
		int lv;
		uint64_t sz;
		char sh[4096];
		int r = cache_index(cpu, idx, &lv, &sz, sh, sizeof sh);
		if (r < 0)
			break;
		if (r == 0 && lv > best) {
			best = lv;
			size = sz;
			snprintf(shared, sizeof shared, "%s", sh);
		}
	}
	int n = size ? mem_list_parse(shared, set, MEM_MAX_CPUS) : 0;
	*sharing = n > 0 ? n : 1;
	return size;
}

uint64_t mem_array_default(uint64_t memtotal)
{
	uint64_t cap = MEM_ARRAY_DEFAULT;
	while (cap > (1u << 20) && cap > memtotal / 6)
		cap >>= 1;
	return cap;
}

int64_t mem_host_page_kib(int64_t page_kib)
{
	char hv[16] = "";
	arch_hypervisor_id(hv);
	return hv[0] ? 0 : page_kib;
}

const char *mem_fact_page_sizes(void)
{
	static char out[64];
	char pmd[32];
	long base = sysconf(_SC_PAGESIZE);
	if (read_line(SYSFS_THP "hpage_pmd_size", pmd, sizeof pmd) <= 0)
		snprintf(out, sizeof out, "%ld", base);
	else
		snprintf(out, sizeof out, "%ld,%s", base, pmd);
	return out;
}

const char *mem_fact_numa_nodes(void)
{
	static char out[128];
	if (read_line("/sys/devices/system/node/online", out, sizeof out) <= 0)
		snprintf(out, sizeof out, "-");
	return out;
}

const char *mem_fact_llc(void)
{
	static char out[64];
	int level;
	uint64_t b = mem_llc_bytes(&level);
	if (!b)
		return "-";
	snprintf(out, sizeof out, "L%d", level);
	return out;
}

const char *mem_fact_llc_total_kib(void)
{
	static char out[32];
	int level;
	uint64_t b = mem_llc_bytes(&level);
	if (!b)
		return "-";
	snprintf(out, sizeof out, "%" PRIu64, b >> 10);
	return out;
}

/* The bit-reversal of i over bits bits (lmbench words_initialize(): 0, n/2, n/4, 3n/4, ...). */
static unsigned bit_reverse(unsigned i, unsigned bits)
{
	unsigned r = 0;
	for (unsigned b = 0; b < bits; b++)
		if (i & (1u << b))
			r |= 1u << (bits - 1 - b);
	return r;
}

void **mem_walk_link(char *base, size_t bytes, uint64_t seed)
{
	enum { LINES = MEM_WALK_PAGE / MEM_WALK_LINE, BITS = 6 };
	_Static_assert(1u << BITS == LINES, "BITS is log2 of the lines per page");
	size_t np = bytes / MEM_WALK_PAGE, *pg;

	if (!np || bytes % MEM_WALK_PAGE || !(pg = malloc(np * sizeof *pg)))
		return NULL;
	for (size_t i = 0; i < np; i++)
		pg[i] = i;
	for (size_t i = np - 1; i > 0; i--) {
		size_t j = (size_t)(((unsigned __int128)splitmix64(&seed) * (i + 1)) >> 64), t = pg[i];
		pg[i] = pg[j];
		pg[j] = t;
	}
	/* Visit k of the cycle is (lap c, page index i) = (k / np, k % np); it points at k + 1. */
	char *first = base + pg[0] * MEM_WALK_PAGE, *cur = first;
	for (size_t c = 0; c < LINES; c++)
		for (size_t i = 0; i < np; i++) {
			size_t nc = c + (i + 1 == np), ni = (i + 1) % np;
			char *next = nc == LINES ? first :
				base + pg[ni] * MEM_WALK_PAGE +
				bit_reverse((unsigned)((nc + ni) % LINES), BITS) * MEM_WALK_LINE;
			*(void **)cur = next;
			cur = next;
		}
	free(pg);
	return (void **)first;
}
