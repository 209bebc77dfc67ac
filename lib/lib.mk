# lib/lib.mk — the code shared by the runner (payload/, musl), the report tool (report/, host
# gcc) and the unit tests: the record grammar (record, crc32), its vocabulary (vocab: kinds, keys, types), the
# statistics (stats) and UnixBench's index (unixbench). Included by those Makefiles, which
# each compile it with their own compiler into their own object folder:
#   LIB_OBJDIR := $(O)/obj-lib-<tag>   (set before including)
#   include ../lib/lib.mk              -> LIB (this folder), LIB_SRCS, LIB_OBJS, LIB_CPPFLAGS
# and link $(LIB_OBJS). Nothing here may include a payload/ or report/ header (tests/test-house.sh).
LIB := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIB_SRCS := record.c vocab.c crc32.c stats.c unixbench.c
# The one strict decimal integer parser (num.h): vocab.c, the runner's parameters and net
# protocol, the report's command line.
LIB_SRCS += num.c
# Whole-buffer read/write loops and the small-file, first-line and "key: value" readers
# (io.h; its numbers through num.c), also linked by payload/proc/ (glibc).
LIB_SRCS += io.c
# Per-operation latency percentiles (latency.h): the disk and net tests.
LIB_SRCS += latency.c
LIB_OBJS := $(patsubst %.c,$(LIB_OBJDIR)/%.o,$(LIB_SRCS))
LIB_CPPFLAGS := -I$(LIB)

$(LIB_OBJDIR)/%.o: $(LIB)/%.c $(LIB)/lib.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(LIB) -MMD -MP -c $< -o $@

# The dependency files define targets: keep them from becoming the including Makefile's
# default goal (its own first rule, e.g. $(O)/isobench, must stay it).
LIB_GOAL := $(.DEFAULT_GOAL)
-include $(LIB_OBJS:.o=.d)
.DEFAULT_GOAL := $(LIB_GOAL)
