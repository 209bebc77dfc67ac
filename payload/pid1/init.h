/* init.h — isobench as PID 1: in the image, set the system up, run, power off; as PID 1 of
 * a container or sandbox, a program whose children a small init reaps.
 * In the image PID 1 never exits: a fatal setup error is reported and followed by power-off,
 * and a watchdog process powers off if the run itself stalls. */
#ifndef ISOBENCH_INIT_H
#define ISOBENCH_INIT_H

/* The file initramfs/build.sh puts in every initramfs it makes (the image's identity). */
#define INIT_IDENTITY "/usr/lib/isobench/initramfs"

/* 1 when this process is the image's /init, else 0. The rule (README, "The runner as PID 1"):
 * PID 1, AND the root file system is the kernel's rootfs (ramfs or tmpfs: an initramfs
 * unpacked into it), AND INIT_IDENTITY is present in it. Arguments do not count: the kernel
 * hands /init the command line's stray words (a word without '=' or '.'), which must not turn
 * the image into a program. A container (docker without --init, a Kubernetes pod),
 * `unshare --pid --fork` and gVisor's `runsc do` make the runner PID 1 on an overlay, the
 * host's or a gofer's root, without the identity: there it is a program. */
int init_is_image(void);

int init_main(int argc, char **argv);

/* PID 1 that is not the image's (a container, a sandbox, a fresh PID namespace): fork. The
 * child returns -1 and goes on as the program (arguments, stdout, its exit status); the
 * parent stays PID 1: it reaps every process that ends in the namespace (orphans are
 * given to PID 1), passes SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 on to the
 * child, and when the child ends returns its exit status (killed by signal S: 128 + S, as a
 * shell says; a signal it did not pass on is said on stderr, "isobench: PID 1: the run (pid
 * N) died of signal S (name); no END, status 128+S"), never powering anything off. A failed fork: -1 after a line on stderr (the
 * program then runs as PID 1 itself, its orphans unreaped). */
int init_as_program(void);

#endif
