/* crc32.c — bitwise-table CRC-32 (IEEE 802.3). See crc32.h. */
#include "crc32.h"

static uint32_t table[256];

static void init_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

uint32_t crc32_ieee(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t c = 0xFFFFFFFFu;

	if (!table[1])
		init_table();
	while (len--)
		c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}
