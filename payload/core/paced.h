/* paced.h — a writer paced at a fixed rate, and the time it spends inside write(): the
 * shared loop of sockwrite-paced* (loopback) and net-paced-write (to a network peer).
 *
 * One call writes `iters` messages of size bytes to fd, each at its slot of an absolute
 * schedule (period ns apart): the writer sleeps until the slot (clock_nanosleep
 * TIMER_ABSTIME; the caller sets the timer slack), as a server blocked in epoll between
 * requests does; a late write is followed by the next ones without sleeping until the
 * schedule is caught up (as queued requests would be), unless it is over PACED_CATCHUP_NS
 * behind: then the missed slots are dropped (writes / wall time shows the achieved rate).
 * Each message starts with the CLOCK_MONOTONIC time of its write (8 bytes; a reader on the
 * same clock gets its wake-up delay from it). The clock IS read around every write(): the
 * time inside write() is the measurement. */
#ifndef ISOBENCH_PACED_H
#define ISOBENCH_PACED_H

#include <stddef.h>
#include <stdint.h>

/* The seed case's shape: 50,000 writes/s of 512 bytes (a server's small socket writes). */
#ifndef PACED_RATE_HZ
#define PACED_RATE_HZ 50000
#endif
#ifndef PACED_SIZE
#define PACED_SIZE 512
#endif
#ifndef PACED_CATCHUP_NS
#define PACED_CATCHUP_NS 1000000	/* late by more: drop slots, do not burst */
#endif

struct paced {
	uint64_t period;	/* ns between slots */
	uint64_t next;		/* the next slot (CLOCK_MONOTONIC ns) */
	uint64_t t0;		/* start of the sample */
	uint64_t busy;		/* ns inside write() this sample */
	uint64_t writes;	/* writes this sample */
};

/* A new sample from now, period ns apart (rate = 1e9 / period writes per second). */
void paced_start(struct paced *p, uint64_t period);
/* iters paced writes of buf[0..size) (size >= 8) to fd. 0, or -errno of the write (-ETIMEDOUT
 * for a send timeout). */
int paced_writes(struct paced *p, int fd, char *buf, size_t size, uint64_t iters);
/* Share of one CPU inside write() since paced_start, x 10000 (busy / wall). */
int64_t paced_busy_x10000(const struct paced *p);
/* Writes per second achieved since paced_start. */
int64_t paced_rate(const struct paced *p);

/* write_all() to a socket, its send timeout (SO_SNDTIMEO's EAGAIN) as -ETIMEDOUT. */
int sock_write_all(int fd, const void *buf, size_t len);

#endif
