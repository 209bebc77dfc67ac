/* cloud.c — see cloud.h. The providers' facts: docs/clouds.md and ../shared DESIGN §8. */
#define _GNU_SOURCE
#include "cloud.h"
#include "dhcp.h"
#include "http.h"
#include "../out.h"
#include "../sysfs.h"
#include "vocab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DMI_DIR "/sys/class/dmi/id"
/* The fetch buffer: the user data in base64 (Azure, Oracle) is 4/3 of its bytes. */
#define FETCH_CAP (CLOUD_USER_DATA_MAX / 3 * 4 + 8)

/* A DMI fact that says a provider: the file's first line equals value (or contains it,
 * any case, when contains). */
struct dmi_mark {
	const char *file, *value;
	int contains;
};

/* Fetch a provider's user data into buf (cap bytes): its length (0: none given), or
 * -errno with why in err; the address asked into url. */
typedef long fetch_fn(char *buf, size_t cap, char *url, size_t ulen, char *err, size_t errlen);

struct provider {
	const char *name;
	struct dmi_mark marks[4];	/* any one of them; a NULL file ends */
	fetch_fn *fetch;
};

static fetch_fn fetch_aws, fetch_gce, fetch_azure, fetch_oci;

/* Azure's sys_vendor and product_name ("Microsoft Corporation", "Virtual Machine") are any
 * Hyper-V guest's: only its chassis asset tag is Azure's own. */
static const struct provider providers[] = {
	{"aws", {{"sys_vendor", "Amazon EC2", 0}, {"bios_vendor", "Amazon EC2", 0},
		 {"bios_version", "amazon", 1}}, fetch_aws},
	{"gce", {{"product_name", "Google Compute Engine", 0}, {"sys_vendor", "Google", 0},
		 {"bios_vendor", "Google", 0}}, fetch_gce},
	{"azure", {{"chassis_asset_tag", "7783-7084-3265-9085-8269-3286-77", 0}}, fetch_azure},
	{"oci", {{"chassis_asset_tag", "OracleCloud.com", 0}}, fetch_oci},
};
#define NPROVIDERS (sizeof providers / sizeof providers[0])

static const struct provider *detect(char *why, size_t len)
{
	for (size_t i = 0; i < NPROVIDERS; i++)
		for (const struct dmi_mark *m = providers[i].marks; m->file; m++) {
			char v[128];
			if (!sysfs_line(DMI_DIR, m->file, v, sizeof v))
				continue;
			if (m->contains ? strcasestr(v, m->value) != NULL : !strcmp(v, m->value)) {
				snprintf(why, len, "%s=%s", m->file, v);
				return &providers[i];
			}
		}
	snprintf(why, len, "-");
	return NULL;
}

const char *cloud_detect(char *why, size_t len)
{
	const struct provider *pv = detect(why, len);
	return pv ? pv->name : NULL;
}

/* One request to the metadata service: 0 with *a, or -errno with err. A status other than
 * 200 and 404 is an error (404: nothing there, for the caller to say). */
static int ask(const char *method, const char *host, const char *path, const char *headers,
	       char *buf, size_t cap, struct http_answer *a, char *err, size_t errlen)
{
	int r = http_request(method, CLOUD_IMDS_IP, 80, host, path, headers, buf, cap, a,
			     CLOUD_HTTP_MS, err, errlen);
	if (!r && a->status != 200 && a->status != 404) {
		snprintf(err, errlen, "%s %s: HTTP status %d", method, path, a->status);
		return -EPROTO;
	}
	return r;
}

#define URL(path) snprintf(url, ulen, "http://" CLOUD_IMDS_IP "%s", path)

/* AWS IMDSv2: a session token (PUT), then the user data with it; 404: none given. */
static long fetch_aws(char *buf, size_t cap, char *url, size_t ulen, char *err, size_t errlen)
{
	static const char tpath[] = "/latest/api/token", upath[] = "/latest/user-data";
	struct http_answer a;
	char hdr[600];
	int r;

	URL(tpath);
	r = ask("PUT", CLOUD_IMDS_IP, tpath, "X-aws-ec2-metadata-token-ttl-seconds: 60\r\n", buf,
		512, &a, err, errlen);
	if (!r && (a.status != 200 || !a.len || buf[strspn(buf, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789+/=_-")])) {
		snprintf(err, errlen, "PUT %s: no token (HTTP status %d, %zu bytes)", tpath,
			 a.status, a.len);
		r = -EPROTO;
	}
	if (r)
		return r;
	snprintf(hdr, sizeof hdr, "X-aws-ec2-metadata-token: %s\r\n", buf);
	URL(upath);
	r = ask("GET", CLOUD_IMDS_IP, upath, hdr, buf, cap, &a, err, errlen);
	return r ? r : a.status == 404 ? 0 : (long)a.len;
}

/* Google: the instance attribute "isobench" (gcloud --metadata isobench=...); the answer
 * must carry Metadata-Flavor: Google (Google's server says so; nothing else does). */
static long fetch_gce(char *buf, size_t cap, char *url, size_t ulen, char *err, size_t errlen)
{
	static const char path[] = "/computeMetadata/v1/instance/attributes/isobench";
	struct http_answer a;

	URL(path);
	int r = ask("GET", "metadata.google.internal", path, "Metadata-Flavor: Google\r\n", buf, cap,
		    &a, err, errlen);
	if (!r && strcmp(a.flavor, "Google")) {
		snprintf(err, errlen, "GET %s: the answer has no Metadata-Flavor: Google header "
			 "(not Google's metadata server)", path);
		r = -EPROTO;
	}
	return r ? r : a.status == 404 ? 0 : (long)a.len;
}

/* Base64 text in buf (len bytes, the user data's transport on Azure and Oracle) decoded in
 * place: its bytes, or -EPROTO with err. */
static long unbase64(char *buf, long len, const char *what, char *err, size_t errlen)
{
	long n = len > 0 ? http_base64_decode(buf, (size_t)len) : len;

	if (n < 0) {
		snprintf(err, errlen, "%s is not base64", what);
		return -EPROTO;
	}
	return n;
}

/* Azure IMDS: the VM's userData (az vm create --user-data), base64; empty: none given. The
 * custom data (--custom-data) is not read: it is only on the provisioning medium, a UDF
 * disc this image has no driver for, and IMDS does not serve it. */
static long fetch_azure(char *buf, size_t cap, char *url, size_t ulen, char *err, size_t errlen)
{
	static const char path[] = "/metadata/instance/compute/userData?api-version=2021-01-01"
				   "&format=text";
	struct http_answer a;

	URL(path);
	int r = ask("GET", CLOUD_IMDS_IP, path, "Metadata: true\r\n", buf, cap, &a, err, errlen);
	if (r)
		return r;
	return a.status == 404 ? 0 : unbase64(buf, (long)a.len, "Azure's userData", err, errlen);
}

/* Oracle IMDSv2: the instance metadata key user_data (oci ... --user-data-file, or
 * --metadata '{"user_data": BASE64}'), base64; 404: none given. */
static long fetch_oci(char *buf, size_t cap, char *url, size_t ulen, char *err, size_t errlen)
{
	static const char path[] = "/opc/v2/instance/metadata/user_data";
	struct http_answer a;

	URL(path);
	int r = ask("GET", CLOUD_IMDS_IP, path, "Authorization: Bearer Oracle\r\n", buf, cap, &a,
		    err, errlen);
	if (r)
		return r;
	return a.status == 404 ? 0 : unbase64(buf, (long)a.len, "Oracle's user_data", err, errlen);
}

int cloud_check_text(char *t, size_t len, char *err, size_t errlen)
{
	int words = 0;

	/* A UTF-8 byte-order mark (what Windows editors put first) says nothing: blanked. */
	if (len >= 3 && !memcmp(t, "\xef\xbb\xbf", 3))
		memset(t, ' ', 3);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)t[i];
		if ((c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' && c != '\r') {
			snprintf(err, errlen, "not text: byte 0x%02x at offset %zu", c, i);
			return -EPROTO;
		}
	}
	for (size_t i = 0; i < len;) {
		if (strchr(" \t\r\n", t[i])) {
			i++;
			continue;
		}
		if (t[i] == '#') {	/* a comment: to the end of its line */
			while (i < len && t[i] != '\n')
				t[i++] = ' ';
			continue;
		}
		size_t w = i;
		int q = 0;
		for (; i < len && (q || !strchr(" \t\r\n", t[i])) && !(q && t[i] == '\n'); i++)
			q ^= t[i] == '"';
		if (q) {	/* a quote open at its line's end would take the next lines */
			size_t e = i;
			while (e > w && strchr(" \t\r", t[e - 1]))
				e--;
			snprintf(err, errlen, "word %d, '%.*s', has a quote not closed on its line",
				 words + 1, (int)(e - w > 40 ? 40 : e - w), t + w);
			return -EPROTO;
		}
		if (strncmp(t + w, "isobench.", 9) || !memchr(t + w, '=', i - w)) {
			snprintf(err, errlen, "word %d, '%.*s', is not isobench.KEY=VALUE", words + 1,
				 (int)(i - w > 40 ? 40 : i - w), t + w);
			return -EPROTO;
		}
		words++;
	}
	return words;
}

/* Words of user data that only the command line may hold: blanked in t, an ERROR each. */
static void refuse_keys(char *t, struct runner_cfg *cfg)
{
	static const char *const only_cmdline[] = {"image", "console", "metadata"};

	for (size_t k = 0; k < sizeof only_cmdline / sizeof only_cmdline[0]; k++) {
		char pat[32];
		size_t n = (size_t)snprintf(pat, sizeof pat, "isobench.%s=", only_cmdline[k]);
		for (char *w = strstr(t, pat); w; w = strstr(w, pat)) {
			if (w != t && !strchr(" \t\r\n", w[-1])) {
				w += n;
				continue;
			}
			size_t l = 0;	/* the word's end as the parser sees it: quotes hold blanks */
			for (int q = 0; w[l] && (q || !strchr(" \t\r\n", w[l])); l++)
				q ^= w[l] == '"';
			char param[40], val[128];
			snprintf(param, sizeof param, "%.*s", (int)n - 1, w);
			snprintf(val, sizeof val, "%.*s", (int)(l - n), w + n);
			runner_pending_error(cfg, param, val, "only the kernel command line may set "
					     "it, not user data (command line's value kept)");
			memset(w, ' ', l);
		}
	}
}

/* A refused user data word: an ERROR that says where it came from. */
static void meta_error(void *arg, const char *param, const char *value, const char *reason)
{
	char r[160];

	snprintf(r, sizeof r, "%s (from the user data)", reason);
	runner_pending_error(arg, param, value, r);
}

/* The keys of the comma list a that are not in the comma list b, into out (cap bytes; "-"
 * when none). */
static void keys_minus(const char *a, const char *b, char *out, size_t cap)
{
	char tmp[512], *save = NULL;
	size_t n = 0;

	snprintf(tmp, sizeof tmp, "%s", a);
	out[0] = 0;
	for (char *k = strtok_r(tmp, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		char key[64];
		snprintf(key, sizeof key, ",%s,", k);
		char bb[520];
		snprintf(bb, sizeof bb, ",%s,", b);
		if (!strstr(bb, key) && n < cap)
			n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "," : "", k);
	}
	if (!out[0])
		snprintf(out, cap, "-");
}

/* The network for the metadata service: 0 when an interface has an address (now). */
static int network(struct runner_cfg *cfg, const char *cloud)
{
	char ifname[32], msg[200];

	if (dhcp_configured(ifname, sizeof ifname)) {
		runner_pending_fact(cfg, RK_NIC_DHCP, "-");
		return 0;
	}
	out_text("isobench: %s instance: bringing the network up by DHCP for its metadata\n",
		 cloud);
	int r = dhcp_up(CLOUD_DHCP_MS, msg, sizeof msg);
	out_text("isobench: DHCP: %s\n", msg);
	runner_pending_fact(cfg, RK_NIC_DHCP, r ? "failed" : msg);
	if (r)
		runner_pending_warn(cfg, REC_WHAT_METADATA, "no network for the %s metadata service "
				    "(DHCP: %s): the command line's parameters are used", cloud, msg);
	return r;
}

/* Fetch and check the user data of pv into t (cap bytes): its word count (0: none), or -1
 * after a WARN. */
static int user_data(const struct provider *pv, char *t, size_t cap, struct runner_cfg *cfg)
{
	char url[200] = "-", err[200];
	long n = pv->fetch(t, cap, url, sizeof url, err, sizeof err);

	if (n >= 0 && (size_t)n > CLOUD_USER_DATA_MAX) {
		snprintf(err, sizeof err, "%ld bytes, more than %d", n, CLOUD_USER_DATA_MAX);
		n = -EFBIG;
	}
	if (n < 0) {
		runner_pending_fact(cfg, RK_CLOUD_USER_DATA, url);
		runner_pending_warn(cfg, REC_WHAT_METADATA, "%s metadata service (%s): %s: the "
				    "command line's parameters are used", pv->name, url, err);
		return -1;
	}
	int words = cloud_check_text(t, (size_t)n, err, sizeof err);
	if (words < 0) {
		runner_pending_fact(cfg, RK_CLOUD_USER_DATA, url);
		runner_pending_warn(cfg, REC_WHAT_METADATA, "%s user data (%s, %ld bytes) is not "
				    "isobench's: %s; none of it is used", pv->name, url, n, err);
		return -1;
	}
	char fact[260];
	snprintf(fact, sizeof fact, "%s%s", url, n ? "" : " (none given)");
	runner_pending_fact(cfg, RK_CLOUD_USER_DATA, fact);
	out_text("isobench: %s user data: %ld bytes, %d isobench word%s (%s)\n", pv->name, n, words,
		 words == 1 ? "" : "s", url);
	return words;
}

void cloud_apply_text(struct params *p, char *t, struct runner_cfg *cfg, char *keys, size_t cap)
{
	char before[sizeof p->tests], unknown[64], why[138];	/* why: meta_error adds 21 */

	snprintf(before, sizeof before, "%s", p->tests);
	refuse_keys(t, cfg);
	params_from_cmdline_keys(p, t, meta_error, cfg, keys, cap);
	/* A test name is checked only when the run starts (an unknown one is skipped there):
	 * checked here, a list with an unknown name is a bad value like any other, and the
	 * command line's list stays (else a typo in user data runs nothing at all). */
	if (strcmp(before, p->tests) && runner_unknown_tests(p, unknown, sizeof unknown)) {
		snprintf(why, sizeof why, "unknown test or group: %s (the command line's list kept)",
			 unknown);
		meta_error(cfg, "isobench.tests", p->tests, why);
		snprintf(p->tests, sizeof p->tests, "%s", before);
		char rest[512];
		keys_minus(keys, "tests", rest, sizeof rest);
		snprintf(keys, cap, "%s", strcmp(rest, "-") ? rest : "");
	}
}

void cloud_params(struct params *p, struct runner_cfg *cfg, const char *cmd_keys)
{
	static char t[FETCH_CAP];
	char why[200], meta_keys[512] = "", kept[512];
	const struct provider *pv = p->metadata_off ? NULL : detect(why, sizeof why);

	if (p->metadata_off)
		snprintf(why, sizeof why, "not read: isobench.metadata=off");
	runner_pending_fact(cfg, RK_CLOUD_PROVIDER, pv ? pv->name : "-");
	runner_pending_fact(cfg, RK_CLOUD_DMI, why);
	if (pv) {
		out_text("isobench: %s instance (DMI %s): reading its user data\n", pv->name, why);
		if (!network(cfg, pv->name) && user_data(pv, t, sizeof t, cfg) > 0)
			cloud_apply_text(p, t, cfg, meta_keys, sizeof meta_keys);
	}
	keys_minus(cmd_keys, meta_keys, kept, sizeof kept);
	runner_pending_fact(cfg, RK_PARAMS_CMDLINE, kept);
	runner_pending_fact(cfg, RK_PARAMS_METADATA, meta_keys[0] ? meta_keys : "-");
	if (meta_keys[0])
		out_text("isobench: parameters from the %s user data: %s (over the command line's; "
			 "from the command line: %s)\n", pv->name, meta_keys, kept);
}
