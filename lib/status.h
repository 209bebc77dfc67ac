/* status.h — the exit statuses of isobench (the host CLI), isobench-report and qemu/run: the
 * one table. The C programs return these names; qemu/run reads the numbers from the
 * "#define EXIT_<NAME> <N>" lines below; docs/exit-status.md's table lists exactly these
 * numbers (tests/test-meanings.sh checks both). Each comment is the status's meaning in
 * short; docs/exit-status.md's row says it in full. */
#ifndef ISOBENCH_STATUS_H
#define ISOBENCH_STATUS_H

#define EXIT_OK 0		/* one complete, valid run; no FAIL or ERROR records */
#define EXIT_FAILS 1		/* a complete run, but it holds FAIL or ERROR records */
#define EXIT_USAGE 2		/* usage error before anything runs; output cannot be written */
#define EXIT_INCOMPLETE 3	/* log incomplete or corrupt: no complete run */
#define EXIT_DIFFERS 4		/* comparing replicates (>= 3 runs a side): a test differs */
#define EXIT_TIMEOUT 5		/* qemu/run: the guest did not power off in time */
#define EXIT_CRASHED 6		/* the guest crashed, or neither powered off nor rebooted */
#define EXIT_NOSTART 7		/* qemu/run: could not start (image, QEMU, firmware, KVM) */
#define EXIT_REGRESSED 8	/* isobench-report --db check: a test worse than the baseline */

/* A status as a string literal, for help texts: EXIT_STR(EXIT_USAGE) is "2". */
#define EXIT_STR_(n) #n
#define EXIT_STR(name) EXIT_STR_(name)

#endif
