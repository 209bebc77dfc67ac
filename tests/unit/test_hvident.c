/* test_hvident.c — how a run names its hypervisor where the CPU has no signature (arm64):
 * arch_psci_hvc() on device-tree and FADT files made here (payload/arch/aarch64/psci.c),
 * and the kernel log messages kernel_hypervisor_in() knows (payload/sysinfo.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/arch/aarch64/psci.h"
#include "../../payload/sysinfo.h"

static char dir[] = "/tmp/hvident.XXXXXX";

static const char *put(const char *name, const void *data, size_t n)
{
	static char path[4][96];
	static int k;
	char *p = path[k++ % 4];
	FILE *f;

	snprintf(p, 96, "%s/%s", dir, name);
	assert_non_null(f = fopen(p, "wb"));
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	return p;
}

/* A FADT of revision major.minor with ARM boot flags `flags` (ACPI 6.5 table 5.9). */
static const char *fadt(unsigned major, unsigned minor, unsigned flags, size_t len)
{
	unsigned char b[276] = "FACP";

	b[8] = (unsigned char)major;
	b[129] = flags & 0xff;
	b[130] = flags >> 8;
	b[131] = (unsigned char)minor;
	return put("FACP", b, len);
}

static void psci_conduit(void **st)
{
	(void)st;
	const char *none = "/nonexistent/psci/method";

	assert_int_equal(arch_psci_hvc(put("m1", "hvc", 4), none), 1);	/* NUL as in sysfs */
	assert_int_equal(arch_psci_hvc(put("m2", "smc", 4), none), 0);
	assert_int_equal(arch_psci_hvc(put("m3", "xyz", 4), none), -1);
	assert_int_equal(arch_psci_hvc(none, none), -1);
	assert_int_equal(arch_psci_hvc(none, fadt(6, 5, 0x3, 276)), 1);	/* COMPLIANT|USE_HVC */
	assert_int_equal(arch_psci_hvc(none, fadt(6, 5, 0x1, 276)), 0);	/* SMC */
	assert_int_equal(arch_psci_hvc(none, fadt(6, 5, 0x2, 276)), -1);	/* not PSCI */
	assert_int_equal(arch_psci_hvc(none, fadt(5, 1, 0x3, 276)), 1);	/* ACPI 5.1 */
	assert_int_equal(arch_psci_hvc(none, fadt(5, 0, 0x3, 276)), -1);	/* too old */
	assert_int_equal(arch_psci_hvc(none, fadt(6, 5, 0x3, 131)), -1);	/* too short */
	/* the device tree is asked first */
	assert_int_equal(arch_psci_hvc(put("m4", "smc", 4), fadt(6, 5, 0x3, 276)), 0);
}

static void kernel_messages(void **st)
{
	(void)st;
	char out[64];

	kernel_hypervisor_in("<6>[    0.000000] Hypervisor detected: KVM\n<6>x\n", out, sizeof out);
	assert_string_equal(out, "KVM");
	kernel_hypervisor_in("<6>[0.1] psci: x\n<6>[    0.000000] smccc: KVM: hypervisor services "
			     "detected (0x00000000 0x00000000 0x00000000 0x00000003)\n", out, sizeof out);
	assert_string_equal(out, "KVM");
	kernel_hypervisor_in("<6>[    0.000000] Xen 4.17 support found\n", out, sizeof out);
	assert_string_equal(out, "Xen");
	kernel_hypervisor_in("<6>[0.2] Xen 4.17 support for x\n<6>support found\n", out, sizeof out);
	assert_string_equal(out, "none");
	kernel_hypervisor_in("<6>[0.0] Booting Linux on physical CPU 0x0\n", out, sizeof out);
	assert_string_equal(out, "none");
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[64];

	(void)st;
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(psci_conduit),
		cmocka_unit_test(kernel_messages),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
