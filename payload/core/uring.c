/* uring.c — see uring.h. The ABI layouts and constants are include/uapi/linux/io_uring.h's
 * (Linux 5.6 and later); the memory ordering follows io_uring(7): the kernel's tail is read
 * with acquire, our head and tail are published with release. */
#define _GNU_SOURCE
#include "uring.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IORING_OFF_SQ_RING 0ULL
#define IORING_OFF_CQ_RING 0x8000000ULL
#define IORING_OFF_SQES 0x10000000ULL
#define IORING_ENTER_GETEVENTS 1u
#define IORING_OP_READ 22

struct uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data;
	uint64_t pad[3];
};
_Static_assert(sizeof(struct uring_sqe) == 64, "io_uring_sqe is 64 bytes");

struct sq_off {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t user_addr;
};
struct cq_off {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t user_addr;
};
struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd;
	uint32_t resv[3];
	struct sq_off sq;
	struct cq_off cq;
};
_Static_assert(sizeof(struct uring_params) == 120, "io_uring_params is 120 bytes");

static void *map(int fd, unsigned long len, unsigned long long off)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, (off_t)off);
}

int uring_init(struct uring *u, unsigned depth)
{
	struct uring_params p;

	memset(u, 0, sizeof *u);
	memset(&p, 0, sizeof p);
	u->fd = (int)syscall(SYS_io_uring_setup, depth, &p);
	if (u->fd < 0)
		return -errno;
	u->depth = p.sq_entries;
	u->sq_len = p.sq.array + p.sq_entries * sizeof(unsigned);
	u->cq_len = p.cq.cqes + p.cq_entries * sizeof(struct uring_cqe);
	u->sqe_len = p.sq_entries * sizeof(struct uring_sqe);
	u->sq_map = map(u->fd, u->sq_len, IORING_OFF_SQ_RING);
	u->cq_map = map(u->fd, u->cq_len, IORING_OFF_CQ_RING);
	u->sqes = map(u->fd, u->sqe_len, IORING_OFF_SQES);
	if (u->sq_map == MAP_FAILED || u->cq_map == MAP_FAILED || u->sqes == MAP_FAILED) {
		int e = errno;
		uring_exit(u);
		return -e;
	}
	char *sq = u->sq_map, *cq = u->cq_map;
	u->sq_head = (_Atomic unsigned *)(void *)(sq + p.sq.head);
	u->sq_tail = (_Atomic unsigned *)(void *)(sq + p.sq.tail);
	u->sq_mask = (unsigned *)(void *)(sq + p.sq.ring_mask);
	u->sq_array = (unsigned *)(void *)(sq + p.sq.array);
	u->cq_head = (_Atomic unsigned *)(void *)(cq + p.cq.head);
	u->cq_tail = (_Atomic unsigned *)(void *)(cq + p.cq.tail);
	u->cq_mask = (unsigned *)(void *)(cq + p.cq.ring_mask);
	u->cqes = (struct uring_cqe *)(void *)(cq + p.cq.cqes);
	return 0;
}

void uring_exit(struct uring *u)
{
	if (u->sq_map && u->sq_map != MAP_FAILED)
		munmap(u->sq_map, u->sq_len);
	if (u->cq_map && u->cq_map != MAP_FAILED)
		munmap(u->cq_map, u->cq_len);
	if (u->sqes && (void *)u->sqes != MAP_FAILED)
		munmap(u->sqes, u->sqe_len);
	if (u->fd > 0)
		close(u->fd);
	memset(u, 0, sizeof *u);
}

int uring_read(struct uring *u, int fd, void *buf, uint32_t len, uint64_t off, uint64_t data)
{
	unsigned tail = atomic_load_explicit(u->sq_tail, memory_order_relaxed);
	unsigned head = atomic_load_explicit(u->sq_head, memory_order_acquire);

	if (tail - head >= u->depth)
		return -EBUSY;
	unsigned i = tail & *u->sq_mask;
	struct uring_sqe *s = &u->sqes[i];
	memset(s, 0, sizeof *s);
	s->opcode = IORING_OP_READ;
	s->fd = fd;
	s->off = off;
	s->addr = (uint64_t)(uintptr_t)buf;
	s->len = len;
	s->user_data = data;
	u->sq_array[i] = i;
	atomic_store_explicit(u->sq_tail, tail + 1, memory_order_release);
	u->queued++;
	return 0;
}

int uring_submit_wait(struct uring *u, unsigned min)
{
	for (;;) {
		long r = syscall(SYS_io_uring_enter, u->fd, u->queued, min, IORING_ENTER_GETEVENTS,
				 NULL, 0);
		if (r >= 0) {
			u->queued -= (unsigned)r < u->queued ? (unsigned)r : u->queued;
			return 0;
		}
		if (errno != EINTR)
			return -errno;
	}
}

int uring_reap(struct uring *u, struct uring_cqe *c)
{
	unsigned head = atomic_load_explicit(u->cq_head, memory_order_relaxed);
	unsigned tail = atomic_load_explicit(u->cq_tail, memory_order_acquire);

	if (head == tail)
		return 0;
	*c = u->cqes[head & *u->cq_mask];
	atomic_store_explicit(u->cq_head, head + 1, memory_order_release);
	return 1;
}
