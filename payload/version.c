/* version.c — see version.h. ISOBENCH_VERSION and ISOBENCH_CFLAGS come from the Makefile. */
#include "version.h"

#ifndef ISOBENCH_VERSION
#define ISOBENCH_VERSION "unknown"
#endif
#ifndef ISOBENCH_CFLAGS
#define ISOBENCH_CFLAGS "unknown"
#endif

const char isobench_version[] = ISOBENCH_VERSION;
const char isobench_cflags[] = ISOBENCH_CFLAGS;
