/* fleetmain.h — isobench-report's fleet mode (a directory of logs, fleet.h): the options
 * checked, the logs read and grouped, the rows analysed, then text (a table per row group,
 * text.c) or JSON (json.c) on out; with JSON the comparability warnings go to stderr too.
 * In: dir; by: "hypervisor", "machine" or "hypervisor,machine"; format: "text" or "json".
 * Errors: returns an exit status (lib/status.h): EXIT_USAGE (bad --group-by or format, not a
 * directory, no log in it, output failed), EXIT_INCOMPLETE when some log had no complete run
 * (the others are still reported), EXIT_FAILS when a run holds FAIL/ERROR records, else
 * EXIT_OK. */
#ifndef ISOBENCH_FLEETMAIN_H
#define ISOBENCH_FLEETMAIN_H

#include <stdio.h>

int fleet_report(const char *dir, const char *by, const char *format, FILE *out);

#endif
