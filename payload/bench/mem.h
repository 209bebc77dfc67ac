/* mem.h — what the `memory` group's tests share among themselves (the machinery beneath
 * them: ../core/mem_util.h, ../core/mem_numa.h): STREAM's working set and the group's
 * block of the machine header (mem_stream.c). */
#ifndef ISOBENCH_MEM_H
#define ISOBENCH_MEM_H

#include "../core/mem_util.h"
#include "../core/mem_numa.h"

#include <stdint.h>

struct rec_body;
/* STREAM's working set (isobench.mem.array): the size of one array, all copies together,
 * in bytes; 0 is the default rule (mem_stream.c). Set by mem_header() before the tests. */
extern uint64_t mem_array_asked;
struct params;
/* The memory group's header block (bench_headers[], facts.c): keeps p's mem.array for
 * the STREAM tests and adds the NUMA nodes (mem_numa_header()) and mem.stream_array_kib. */
void mem_header(const struct params *p, struct rec_body *b);

#endif
