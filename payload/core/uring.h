/* uring.h — a minimal io_uring (Linux 5.6+) through raw syscalls, for the disk tests that keep
 * several reads in flight (musl has no liburing and ships no kernel headers: the ABI
 * structures below are include/uapi/linux/io_uring.h's, the fields we use, same layout).
 *
 * One ring of `depth` entries, reads only (IORING_OP_READ, 22): uring_read() queues one,
 * uring_submit_wait() submits what is queued and waits for at least `min` completions,
 * uring_reap() takes one completion. Errors are -errno. */
#ifndef ISOBENCH_URING_H
#define ISOBENCH_URING_H

#include <stdint.h>

struct uring {
	int fd;
	unsigned depth;
	/* submission ring */
	_Atomic unsigned *sq_head, *sq_tail;
	unsigned *sq_mask, *sq_array;
	struct uring_sqe *sqes;
	/* completion ring */
	_Atomic unsigned *cq_head, *cq_tail;
	unsigned *cq_mask;
	struct uring_cqe *cqes;
	void *sq_map, *cq_map;
	unsigned long sq_len, cq_len, sqe_len;
	unsigned queued;	/* sqes written since the last submit */
};

struct uring_cqe {
	uint64_t user_data;
	int32_t res;		/* bytes read, or -errno */
	uint32_t flags;
};

/* Set up a ring of depth entries (a power of two). 0 or -errno (-ENOSYS: kernel without
 * IO_URING). */
int uring_init(struct uring *u, unsigned depth);
void uring_exit(struct uring *u);
/* Queue a read of len bytes at off of fd into buf, tagged data. -EBUSY when the ring is full. */
int uring_read(struct uring *u, int fd, void *buf, uint32_t len, uint64_t off, uint64_t data);
/* Submit the queued reads, wait for at least min completions. 0 or -errno. */
int uring_submit_wait(struct uring *u, unsigned min);
/* Take one completion into *c: 1, or 0 when none is ready. */
int uring_reap(struct uring *u, struct uring_cqe *c);

#endif
