/* fleetmain.c — see fleetmain.h. */
#include "fleetmain.h"
#include "fleet.h"
#include "json.h"
#include "status.h"
#include "text.h"

#include <string.h>

int fleet_report(const char *dir, const char *by, const char *format, FILE *out)
{
	int by_hv = !strcmp(by, "hypervisor") || !strcmp(by, "hypervisor,machine");
	int by_machine = !strcmp(by, "machine") || !strcmp(by, "hypervisor,machine");
	struct fleet f;
	int incomplete = 0, rc;

	if (!by_hv && !by_machine) {
		fprintf(stderr, "isobench-report: --group-by %s: hypervisor, machine or "
				"hypervisor,machine\n", by);
		return EXIT_USAGE;
	}
	if (strcmp(format, "text") && strcmp(format, "json")) {
		fprintf(stderr, "isobench-report: --format %s: a directory of logs is reported as "
				"text or json\n", format);
		return EXIT_USAGE;
	}
	memset(&f, 0, sizeof f);
	rc = fleet_load(&f, dir, by_hv, by_machine, &incomplete);
	if (!rc && !f.nruns) {
		fprintf(stderr, "isobench-report: %s: no log holds a complete run\n", dir);
		rc = EXIT_INCOMPLETE;
	}
	if (!rc && fleet_analyse(&f)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		rc = EXIT_INCOMPLETE;
	}
	if (!rc) {
		for (size_t w = 0; w < f.nwarn && strcmp(format, "text"); w++)
			fprintf(stderr, "isobench-report: warning: %s\n", f.warn[w]);
		if (!strcmp(format, "text"))
			text_fleet(out, &f, dir, by);
		else if (json_fleet(out, &f, by))
			rc = EXIT_USAGE;
		if (fflush(out) || ferror(out)) {
			fprintf(stderr, "isobench-report: output failed\n");
			rc = EXIT_USAGE;
		}
		if (!rc)
			rc = incomplete ? EXIT_INCOMPLETE : f.fails ? EXIT_FAILS : EXIT_OK;
	}
	fleet_free(&f);
	return rc;
}
