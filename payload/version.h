/* version.h — the build's identity: the version (git describe) and the compiler flags, as
 * recorded in every log. Defined only in version.c, which the Makefile compiles on every
 * build, so a stale object can never carry an old version. */
#ifndef ISOBENCH_VERSION_H
#define ISOBENCH_VERSION_H

extern const char isobench_version[];
extern const char isobench_cflags[];

#endif
