// SPDX-License-Identifier: GPL-2.0
/*
 * ibp_arch.c (aarch64) — arm64's probe of isobench's ring-0 driver and arm64's probe table
 * (ibp_probes[], in the order of isobench_probe_arch.h beside this file). The generic part
 * (char device, ioctl, worker, batching, clock check, IPIs, timer wake-up) is
 * ../../isobench_probe.c. One iteration of each:
 *   hvc       an SMCCC call over the firmware's conduit when that conduit is HVC, i.e. a
 *             hypervisor's (kvm-unit-tests' arm/micro-bench.c "hvc" is the same round trip):
 *             SMCCC_VERSION (0x80000000) when the kernel found SMCCC >= 1.1 (the function
 *             is defined from 1.1 on, and KVM/arm64 implements 1.1: a full exit to the host
 *             kernel, handled by kvm_hvc_call_handler(), kvm_smccc_call_handler() from Linux
 *             6.4, in arch/arm64/kvm/hypercalls.c); else PSCI_VERSION (0x84000000, PSCI
 *             0.2's mandatory function: KVM's kvm_psci_call(); under QEMU TCG, whose PSCI answers
 *             PSCI_FEATURES(SMCCC_VERSION) with NOT_SUPPORTED so Linux stays at SMCCC 1.0,
 *             QEMU's PSCI emulation). Both are calls the kernel's own PSCI driver made at
 *             boot, so they are known to be safe here. Refused (EOPNOTSUPP) when the conduit
 *             is SMC (firmware at EL3: bare metal, or a hypervisor that forwards SMCs — not a
 *             hypervisor round trip) or there is none (no PSCI 0.2+)
 *   self_ipi, ipi, ipi_halt, wfi  the generic probes (isobench_probe.c). On KVM/arm64 with
 *             a GICv3, sending an SGI is a write of ICC_SGI1R_EL1, trapped to KVM
 *             (vgic_v3_dispatch_sgi(); with a GICv2 a GICD_SGIR MMIO write, a stage-2 abort to
 *             the vgic's MMIO emulation), which makes the SGI pending on the target vCPU
 *             and kicks it; a spinning target exits on the host's IPI and takes the
 *             SGI on re-entry (ipi), an idle one (WFI trapped to kvm_handle_wfx(), the vCPU
 *             blocked on the host) is woken and scheduled first (ipi_halt); wfi: the guest's
 *             virtual timer (CNTV_CVAL_EL0, not trapped) fires on the host, KVM injects its
 *             PPI and wakes the vCPU blocked in WFI
 * Not here: mmio_read_vgic (the GIC driver keeps its distributor mapping private in
 * drivers/irqchip/irq-gic-v3.c; a second mapping would mean parsing DT and ACPI ourselves)
 * and eoi (kvm-unit-tests writes the spurious INTID 1023 to ICC_EOIR1_EL1; with a GICv3
 * that write goes to the CPU's virtual interface, ICV_EOIR1_EL1, and KVM does not trap it:
 * no exit to measure, and the kernel's irqchip owns the register).
 */
#include <linux/acpi.h>
#include <linux/arm-smccc.h>
#include <linux/of.h>
#include <linux/psci.h>
#include <linux/string.h>
#include <uapi/linux/psci.h>

#include "ibp.h"

/* The conduit PSCI uses when SMCCC is 1.0 (arm_smccc_1_1_get_conduit() then says none): as
 * the kernel's PSCI driver found it (drivers/firmware/psci/psci.c: ACPI's FADT flag, else
 * the device tree's psci node's "method"). */
static enum arm_smccc_conduit ibp_psci_conduit(void)
{
	struct device_node *np;
	const char *method = NULL;

	if (!acpi_disabled)
		return acpi_psci_use_hvc() ? SMCCC_CONDUIT_HVC : SMCCC_CONDUIT_SMC;
	np = of_find_compatible_node(NULL, NULL, "arm,psci-0.2");
	if (!np)
		return SMCCC_CONDUIT_NONE;
	if (of_property_read_string(np, "method", &method))
		method = NULL;
	of_node_put(np);
	if (method && !strcmp(method, "hvc"))
		return SMCCC_CONDUIT_HVC;
	if (method && !strcmp(method, "smc"))
		return SMCCC_CONDUIT_SMC;
	return SMCCC_CONDUIT_NONE;
}

/* One call of r->arch.fn over HVC; its a0 (a version, or as s32 a negative SMCCC/PSCI error). */
static __always_inline unsigned long ibp_hvc(struct ibp_run *r)
{
	struct arm_smccc_res res;

	if (r->arch.smccc_1_1)
		arm_smccc_1_1_hvc(r->arch.fn, &res);
	else	/* SMCCC 1.0 may clobber x4-x17: the kernel's out-of-line helper saves them */
		arm_smccc_hvc(r->arch.fn, 0, 0, 0, 0, 0, 0, 0, &res);
	return res.a0;
}

static int ibp_check_hvc(struct ibp_run *r)
{
	enum arm_smccc_conduit c;

	r->arch.smccc_1_1 = arm_smccc_get_version() >= ARM_SMCCC_VERSION_1_1;
	if (r->arch.smccc_1_1) {
		c = arm_smccc_1_1_get_conduit();
		r->arch.fn = ARM_SMCCC_VERSION_FUNC_ID;
	} else {
		c = ibp_psci_conduit();
		r->arch.fn = PSCI_0_2_FN_PSCI_VERSION;
		if (c != SMCCC_CONDUIT_NONE && !psci_ops.get_version)
			return ibp_refuse(r, "PSCI 0.1 firmware: no PSCI_VERSION to call");
	}
	if (c == SMCCC_CONDUIT_SMC)
		return ibp_refuse(r, "the SMCCC conduit is SMC (firmware at EL3), not a hypervisor");
	if (c != SMCCC_CONDUIT_HVC)
		return ibp_refuse(r, "no SMCCC conduit (no PSCI 0.2+ firmware node)");
	if ((s32)ibp_hvc(r) < 0)	/* SMCCC results are 32-bit in w0 */
		return ibp_refuse(r, r->arch.smccc_1_1 ? "SMCCC_VERSION over HVC returned an error"
				  : "PSCI_VERSION over HVC returned an error");
	return 0;
}

IBP_LOOP(hvc, , r->sink += ibp_hvc(r))

/* ---- arm64's table: what each probe needs, how a batch runs ---- */

const struct ibp_probe ibp_probes[ISOBENCH_PROBE_COUNT] = {
	[ISOBENCH_PROBE_HVC] = { 0, 0, ibp_check_hvc, hvc_batch },
	[ISOBENCH_PROBE_SELF_IPI] = IBP_PROBE_SELF_IPI,
	[ISOBENCH_PROBE_IPI] = IBP_PROBE_IPI,
	[ISOBENCH_PROBE_IPI_HALT] = IBP_PROBE_IPI_HALT,
	[ISOBENCH_PROBE_WFI] = IBP_PROBE_TIMER_WAKE,
};
