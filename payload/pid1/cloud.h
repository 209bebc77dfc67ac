/* cloud.h — parameters without a keyboard (issue 33): where DMI says the machine is a cloud
 * instance, PID 1 brings the network up (DHCP, dhcp.h) and reads the user's isobench.*
 * words from the cloud's instance metadata service; nowhere else is anything sent. The
 * native runner never calls this (only init.c does).
 *
 * The user data format (docs/clouds.md "Parameters without a keyboard", defined here once):
 * text of printable ASCII, at most CLOUD_USER_DATA_MAX bytes (after the provider's base64,
 * where it has one), made of isobench.KEY=VALUE words as on the kernel command line (white
 * space or new lines between them, "..." around a value with blanks, closed on its line);
 * '#' at the start of a word comments out the rest of its line. Any other word, or a quote
 * left open at its line's end, makes the whole text garbage: a WARN, and none of it is
 * taken.
 * Precedence: user data over the kernel command line over the defaults (the command line in
 * a cloud is the image's fixed boot entry; the user data is this instance's choice), but
 * for isobench.image (the build's), isobench.console (the consoles are open before the
 * metadata is read) and isobench.metadata, which user data cannot set (an ERROR each). */
#ifndef ISOBENCH_PID1_CLOUD_H
#define ISOBENCH_PID1_CLOUD_H

#include "../params.h"
#include "../runner.h"

#define CLOUD_USER_DATA_MAX 16384	/* bytes: AWS's own cap on user data */
#define CLOUD_HTTP_MS 3000		/* one request to a metadata service, all of it */
#define CLOUD_DHCP_MS 6000		/* a DHCP lease, per interface tried */
#define CLOUD_IMDS_IP "169.254.169.254"	/* every provider's metadata service */

/* The provider DMI recognises (/sys/class/dmi/id; reading only): its short name (aws, gce,
 * azure, oci), and the DMI fact that says so into why (len bytes); NULL when none does. */
const char *cloud_detect(char *why, size_t len);

/* Apply the instance metadata's words to p (after the kernel command line's, whose keys
 * are cmd_keys, a comma list): recognise the cloud, bring the network up when nothing
 * configured it, fetch, check and apply the user data. Where each parameter came from,
 * the cloud and the lease go to cfg's facts (INFO params.cmdline, params.metadata,
 * cloud.provider, cloud.dmi, cloud.user_data, nic.dhcp); a metadata service absent, slow
 * or answering garbage is a WARN (what=metadata) and p keeps the command line's values;
 * a refused word is an ERROR as on the command line. Progress lines go to the consoles. */
void cloud_params(struct params *p, struct runner_cfg *cfg, const char *cmd_keys);

/* Check user data text t (len bytes, NUL-terminated) against the format above and blank
 * its comments and a leading UTF-8 byte-order mark in place: the number of isobench.* words (0: none), or -EPROTO with why in
 * err (errlen bytes). */
int cloud_check_text(char *t, size_t len, char *err, size_t errlen);

/* Apply user data t (checked by cloud_check_text) to p, over the command line's values:
 * the words only the command line may set refused (blanked in t), the rest parsed as on the
 * command line, and a tests= list naming a test or group the runner does not have
 * (runner_unknown_tests) refused whole; each refused word is an ERROR (runner_pending_error,
 * "from the user data") and p keeps the command line's value. The keys taken go into keys (cap bytes, a comma
 * list, "" when none). */
void cloud_apply_text(struct params *p, char *t, struct runner_cfg *cfg, char *keys, size_t cap);

#endif
