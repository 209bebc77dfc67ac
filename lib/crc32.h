/* crc32.h — CRC-32 as in IEEE 802.3 / zlib's crc32(): reflected polynomial 0xEDB88320,
 * initial value and final xor 0xFFFFFFFF. In: bytes; out: the 32-bit check value.
 * Ours because the guest uses only musl; tests/unit compare it against zlib. */
#ifndef ISOBENCH_CRC32_H
#define ISOBENCH_CRC32_H
#include <stddef.h>
#include <stdint.h>
uint32_t crc32_ieee(const void *buf, size_t len);
#endif
