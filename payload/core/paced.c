/* paced.c — see paced.h. */
#include "paced.h"
#include "io.h"
#include "../sys.h"

#include <errno.h>
#include <string.h>
#include <time.h>

int sock_write_all(int fd, const void *buf, size_t len)
{
	int r = write_all(fd, buf, len);

	return r == -EAGAIN ? -ETIMEDOUT : r;
}

void paced_start(struct paced *p, uint64_t period)
{
	p->period = period;
	p->t0 = p->next = now_ns();
	p->busy = p->writes = 0;
}

int paced_writes(struct paced *p, int fd, char *buf, size_t size, uint64_t iters)
{
	uint64_t now = now_ns();

	for (uint64_t i = 0; i < iters; i++) {
		if (now < p->next) {
			struct timespec ts = {(time_t)(p->next / 1000000000u),
					      (long)(p->next % 1000000000u)};
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
			now = now_ns();
		}
		memcpy(buf, &now, sizeof now);
		int r = sock_write_all(fd, buf, size);
		uint64_t t1 = now_ns();
		if (r)
			return r;
		p->busy += t1 - now;
		p->next += p->period;
		if (p->next + PACED_CATCHUP_NS < t1)
			p->next = t1;	/* too far behind: drop the missed slots */
		now = t1;
	}
	p->writes += iters;
	return 0;
}

int64_t paced_busy_x10000(const struct paced *p)
{
	uint64_t wall = now_ns() - p->t0;

	return (int64_t)(wall ? p->busy * 10000 / wall : 0);
}

int64_t paced_rate(const struct paced *p)
{
	uint64_t wall = now_ns() - p->t0;

	return (int64_t)(wall ? p->writes * 1000000000ull / wall : 0);
}
