/* test_sysfs.c — payload/sysfs.c on a tree made here: a first line trimmed at both ends, "-"
 * for a missing, empty or blank file, entries counted by prefix (and -ENOENT for a missing
 * directory), a link's last component, and a block device that does not exist. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../../payload/sysfs.h"

static char root[] = "/tmp/test_sysfs.XXXXXX";

static void put(const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **st)
{
	(void)st;
	char p[256];
	if (!mkdtemp(root))
		return -1;
	snprintf(p, sizeof p, "%s/queues", root);
	mkdir(p, 0755);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/queues/%s-%d", root, i < 2 ? "rx" : "tx", i);
		mkdir(p, 0755);
	}
	put("model", "  QEMU HARDDISK   \nsecond line\n");
	put("mtu", "1500\n");
	put("empty", "");
	put("blank", " \t\n");
	put("vmstat", "nr_free_pages 5\noom_kill_x 3\noom_kill 7\nthp_fault_fallback 12\n");
	snprintf(p, sizeof p, "%s/driver", root);
	return symlink("../../../bus/pci/drivers/virtio-pci", p);
}

static int teardown(void **st)
{
	(void)st;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd);
}

static void first_line_trimmed(void **st)
{
	(void)st;
	char b[64];
	assert_string_equal(sysfs_line(root, "model", b, sizeof b), "QEMU HARDDISK");
	assert_string_equal(sysfs_line(root, "mtu", b, sizeof b), "1500");
	char whole[300];
	snprintf(whole, sizeof whole, "%s/mtu", root);
	assert_string_equal(sysfs_line(whole, NULL, b, sizeof b), "1500");
}

static void dash_when_nothing(void **st)
{
	(void)st;
	char b[64];
	assert_string_equal(sysfs_line(root, "missing", b, sizeof b), "-");
	assert_string_equal(sysfs_line(root, "empty", b, sizeof b), "-");
	assert_string_equal(sysfs_line(root, "blank", b, sizeof b), "-");
	assert_string_equal(sysfs_line(root, "queues", b, sizeof b), "-");	/* a directory */
}

static void entries_and_links(void **st)
{
	(void)st;
	char b[64];
	assert_int_equal(sysfs_count(root, "queues", "rx-"), 2);
	assert_int_equal(sysfs_count(root, "queues", "tx-"), 1);
	assert_int_equal(sysfs_count(root, "queues", NULL), 3);	/* not "." and ".." */
	assert_int_equal(sysfs_count(root, "nothing", NULL), -ENOENT);
	assert_true(sysfs_has(root, "mtu"));
	assert_false(sysfs_has(root, "nothing"));
	assert_string_equal(sysfs_link_base(root, "driver", b, sizeof b), "virtio-pci");
	assert_null(sysfs_link_base(root, "mtu", b, sizeof b));	/* not a link */
}

static void no_such_block_device(void **st)
{
	(void)st;
	char d[4096];
	assert_int_equal(sysfs_block_dir(makedev(4095, 1048575), 1, d, sizeof d), -ENOENT);
}

/* The procfs readers: a vmstat file's counters by exact name (the tests' stand-in file), the
 * machine's own /proc/meminfo and /proc/cmdline. */
static void procfs_readers(void **st)
{
	char p[256], b[4096];
	(void)st;
	snprintf(p, sizeof p, "%s/vmstat", root);
	assert_int_equal(proc_vmstat(p, "oom_kill"), 7);		/* not oom_kill_x's 3 */
	assert_int_equal(proc_vmstat(p, "thp_fault_fallback"), 12);
	assert_int_equal(proc_vmstat(p, "nr_free"), -1);		/* a prefix is no name */
	assert_int_equal(proc_vmstat(p, "pgfault"), -1);
	snprintf(p, sizeof p, "%s/nosuch", root);
	assert_int_equal(proc_vmstat(p, "oom_kill"), -1);
	assert_true(proc_vmstat(NULL, "pgfault") > 0);		/* the machine's /proc/vmstat */
	assert_true(proc_vmstat("", "pgfault") > 0);		/* "" too (an empty variable) */
	long long total = proc_meminfo_kib("MemTotal"), avail = proc_meminfo_kib("MemAvailable");
	assert_true(total > 1024 && avail > 0 && avail <= total);
	assert_int_equal(proc_meminfo_kib("MemTota"), -1);
	assert_int_equal(proc_meminfo_kib("NoSuchField"), -1);
	assert_ptr_equal(proc_cmdline(b, sizeof b), b);
	assert_true(strlen(b) > 0 && !strchr(b, '\n') && b[strlen(b) - 1] != ' ');
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(first_line_trimmed),
		cmocka_unit_test(dash_when_nothing),
		cmocka_unit_test(entries_and_links),
		cmocka_unit_test(no_such_block_device),
		cmocka_unit_test(procfs_readers),
	};
	return cmocka_run_group_tests(t, setup, teardown);
}
