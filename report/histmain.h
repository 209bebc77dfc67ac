/* histmain.h — isobench-report --db FILE COMMAND ...: the results store's commands (store.h,
 * history.h; docs/history.md): add, runs, compare, trend, check, verify. Its own options
 * (--format, --machine, --test, --baseline, --svg, --verbose) are read here; main.c hands
 * over the whole command line when it holds --db.
 * Exit status (lib/status.h, README "Exit status"): EXIT_OK; EXIT_USAGE (bad option or
 * selector, the store cannot be opened or written, output failed, a baseline of fewer than
 * SIG_REP_MIN runs); EXIT_INCOMPLETE (add: some LOG refused; check: a LOG without a
 * complete run; verify: the store is not consistent; compare/check: a selector selects no
 * run); EXIT_FAILS (check: a LOG holds FAIL/ERROR records); EXIT_DIFFERS (compare with
 * replicates: a test differs, as main.c); EXIT_REGRESSED (check). Several: the first of
 * USAGE, INCOMPLETE, FAILS, REGRESSED/DIFFERS. */
#ifndef ISOBENCH_HISTMAIN_H
#define ISOBENCH_HISTMAIN_H

/* 1 when argv holds --db (or --db=FILE) before a lone "--". */
int hist_wanted(int argc, char **argv);
int hist_main(int argc, char **argv);

#endif
