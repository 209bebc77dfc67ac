/* fs.h — UnixBench fstime mechanics (copy, read, write), shared by the nine file tests. */
#ifndef ISOBENCH_FS_H
#define ISOBENCH_FS_H

#include <stdint.h>

/* The documented content of every source file: byte at offset o. */
static inline uint8_t fs_pattern_byte(uint64_t o)
{
	return (uint8_t)((o ^ (o >> 8) ^ (o >> 16)) * 31u + 7u);
}

#endif
