#!/usr/bin/env bash
# tests/test-metadata.sh — parameters without a keyboard (issue 33 item 1): the image in an
# imitated cloud takes its isobench.* words from the instance metadata's user data. First,
# without booting: the imitation of each provider's metadata service (qemu/imds.py) answers
# only requests carrying that provider's header, and no file outside payload/pid1/ reaches
# the metadata code (the native runner never contacts a metadata service). Then one boot
# under QEMU TCG per provider (qemu/run --cloud P: its DMI strings by -smbios, its service by
# guestfwd on user networking with restrict=on, no ip=: the image recognises the cloud and
# takes a DHCP lease itself), each user data selecting the suite, a test and the peer (an
# `isobench --serve` this script starts on the loopback), the imitation's log holding exactly
# the provider's requests; the Azure boot's user data also names a word only the command line
# may set (an ERROR, the run goes on). Last, one boot whose service answers too late: a WARN,
# and the run goes on with the command line's parameters.
#
# In:  $OUT/isobench, $OUT/isobench-report, $OUT/bzImage + $OUT/initramfs.cpio.gz,
#      qemu-system-x86_64, socat, python3.
# Out: one line per assertion, then "N passed, M failed, K skipped". Exit 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
kill_at_exit peer_pid
imds=$top/qemu/imds.py

# ---- the imitation by itself ------------------------------------------------------------------
# ask_imds PROVIDER REQUEST: the imitation's answer's status line to REQUEST (with CRLFs added),
# serving the user data "isobench.tests=getpid".
echo 'isobench.tests=getpid' >"$tmp/ud0"
ask_imds() {
	printf '%s\r\n' "${@:2}" "" | python3 "$imds" "$1" none "$tmp/imds0.log" "$tmp/ud0" |
		head -n 1 | tr -d '\r'
}
for c in "aws|PUT /latest/api/token HTTP/1.1|X-aws-ec2-metadata-token-ttl-seconds: 60|200" \
	"aws|PUT /latest/api/token HTTP/1.1||400" \
	"aws|GET /latest/user-data HTTP/1.1|X-aws-ec2-metadata-token: isobench-imitation-token|200" \
	"aws|GET /latest/user-data HTTP/1.1|X-aws-ec2-metadata-token: wrong|401" \
	"gce|GET /computeMetadata/v1/instance/attributes/isobench HTTP/1.1|Metadata-Flavor: Google|200" \
	"gce|GET /computeMetadata/v1/instance/attributes/isobench HTTP/1.1||403" \
	"azure|GET /metadata/instance/compute/userData?api-version=2021-01-01&format=text HTTP/1.1|Metadata: true|200" \
	"azure|GET /metadata/instance/compute/userData?api-version=2021-01-01&format=text HTTP/1.1||400" \
	"oci|GET /opc/v2/instance/metadata/user_data HTTP/1.1|Authorization: Bearer Oracle|200" \
	"oci|GET /opc/v2/instance/metadata/user_data HTTP/1.1||401" \
	"oci|GET /opc/v1/instance/metadata/user_data HTTP/1.1|Authorization: Bearer Oracle|404"; do
	IFS='|' read -r p req hdr want <<<"$c"
	if [ -n "$hdr" ]; then got=$(ask_imds "$p" "$req" "$hdr"); else got=$(ask_imds "$p" "$req"); fi
	if [ "${got#HTTP/1.1 }" != "${got#HTTP/1.1 "$want"}" ]; then
		pass "imitation $p: '$req' ${hdr:-without its header}: $want"
	else fail "imitation $p: '$req' ${hdr:-without its header}: want $want, got '$got'"; fi
done
b64=$(printf '%s\r\n' "GET /opc/v2/instance/metadata/user_data HTTP/1.1" "Authorization: Bearer Oracle" "" |
	python3 "$imds" oci none "$tmp/imds0.log" "$tmp/ud0" | tail -n 1)
if [ "$(base64 -d <<<"$b64" 2>/dev/null)" = 'isobench.tests=getpid' ]; then pass "imitation oci: the user data in base64"
else fail "imitation oci: base64 of the user data expected, got '$b64'"; fi

# ---- the metadata code is PID 1's only --------------------------------------------------------
# reach ROOT: lines of ROOT's payload/ outside pid1/ that include or call the metadata code.
reach() {
	(cd "$1" && grep -rnE '#include "(\.\./)?pid1/(cloud|dhcp|http)\.h"|cloud_params|dhcp_up|http_request' \
		payload --include='*.[ch]' | grep -v '^payload/pid1/') || true
}
none "$(reach "$top")" "only payload/pid1/ reaches the metadata, DHCP and HTTP code (the native runner never does)" \
	"the metadata code reached from outside pid1/"
mkdir -p "$tmp/plant/payload/pid1"
sed 's|#include "status.h"|#include "status.h"\n#include "pid1/cloud.h"|' "$top/payload/main.c" >"$tmp/plant/payload/main.c"
if [ -n "$(reach "$tmp/plant")" ]; then pass "planted: main.c including pid1/cloud.h is found"
else fail "planted: main.c including pid1/cloud.h is not found"; fi
expect_status EXIT_OK "--check-params takes isobench.metadata=off" -- "$bin" --check-params --metadata off
expect_status EXIT_USAGE "--check-params refuses isobench.metadata=maybe" -- "$bin" --check-params --metadata maybe

# ---- one boot per provider ----------------------------------------------------------------
if [ ! -f "$out/bzImage" ] || ! command -v qemu-system-x86_64 >/dev/null || ! command -v socat >/dev/null; then
	skip "the boots: no $out/bzImage, qemu-system-x86_64 or socat"
	finish
	exit $?
fi
id=$(head -n 1 "$out/IDENTITY")
start_peer p1
[ -n "$peer_port" ] || fail "the peer did not start: $(head -c 300 "$tmp/p1.peer.err")"
t_all=$(_lib_usec)
# fields LOG KEY: the values of INFO KEY in LOG's verified records, one per line.
# (encoded: a blank is %20), one per line.
fields() { grep -a '^@isobench/1 [0-9]* INFO ' "$1" | sed -n "s/.* ${2//./\\.}=\([^ ]*\) .*/\1/p"; }
# is GOT WANT DESCRIPTION: GOT equals WANT.
is() { if [ "$1" = "$2" ]; then pass "$3"; else fail "$3: got '$1', want '$2'"; fi; }
# Each provider's user data picks another test and names the peer; the azure one also a
# word only the command line may set. Requests each provider's service must get, in order.
declare -A pick=([aws]=getpid [gce]=dupclose [azure]=syscall [oci]=getpid)
declare -A reqs=([aws]='PUT /latest/api/token|GET /latest/user-data'
	[gce]='GET /computeMetadata/v1/instance/attributes/isobench'
	[azure]='GET /metadata/instance/compute/userData?api-version=2021-01-01&format=text'
	[oci]='GET /opc/v2/instance/metadata/user_data')
declare -A hdrs=([aws]='x-aws-ec2-metadata-token=isobench-imitation-token'
	[gce]='metadata-flavor=Google' [azure]='metadata=true' [oci]='authorization=Bearer Oracle')
for p in aws gce azure oci; do
	{
		echo "#!/bin/sh: a comment line, as a launch script's first line may be"
		echo "isobench.suite=standard isobench.tests=${pick[$p]}"
		echo "isobench.copies=1   # one pass"
		echo "isobench.samples=3 isobench.sample_ms=100"
		echo "isobench.peer=169.254.0.100:$peer_port"
		[ "$p" != azure ] || echo "isobench.image=not-the-build"
	} >"$tmp/$p.ud"
	: >"$tmp/$p.imds"
	log=$tmp/$p.log
	# The command line's own choice, quick and short (a boot whose user data is lost ends
	# soon): another suite and test, which the user data's must override.
	cmdline=(--direct --accel tcg --cpus 1 --nic virtio --cloud "$p" --suite quick --copies 1 --tests pipe)
	if [ "$p" = azure ]; then	# an ERROR record: the run is complete, with an error
		st=0
		_lib_qemu_run "$p" "$log" 300 "${cmdline[@]}" \
			--user-data "$tmp/$p.ud" --imds-log "$tmp/$p.imds" --peer "127.0.0.1:$peer_port"
		complete "$log" "$p: a complete run whose ERROR is the refused word" EXIT_FAILS
		has "$log" ' ERROR .*param=isobench\.image value=not-the-build reason=only%20the%20kernel%20command%20line' \
			"$p: isobench.image in user data is refused (only the command line sets it)"
		is "$(fields "$log" image.identity)" "$id" "$p: the image identity stays the build's"
		boot_rows+=("$(printf '%-22s %-5s %9s %9s' "$p" ok "$t_end" "$t_exit")")
	else
		qboot "$p" qemu/run "$log" 300 "${cmdline[@]}" \
			--user-data "$tmp/$p.ud" --imds-log "$tmp/$p.imds" --peer "127.0.0.1:$peer_port"
	fi
	want=$(tr '|' '\n' <<<"${reqs[$p]}")
	got=$(cut -d' ' -f1,2 "$tmp/$p.imds")
	if [ "$got" = "$want" ]; then pass "$p: the service got exactly its requests ($(tr '\n' ';' <<<"$got"))"
	else fail "$p: the service got '$(tr '\n' ';' <<<"$got")', want '$(tr '\n' ';' <<<"$want")'"; fi
	contains "$tmp/$p.imds" "${hdrs[$p]}" "$p: the requests carry the provider's header (${hdrs[$p]})"
	is "$(fields "$log" cloud.provider)" "$p" "$p: INFO cloud.provider=$p"
	is "$(fields "$log" params.metadata)" suite,tests,copies,samples,sample_ms,peer "$p: INFO params.metadata, the user data's keys"
	is "$(fields "$log" params.cmdline)" image "$p: INFO params.cmdline=image (the user data's suite, tests and copies won)"
	lease=$(fields "$log" nic.dhcp)
	is "${lease%%%20netmask*}" eth0:%20169.254.0.15 "$p: the image took a DHCP lease itself (no ip=)"
	is "$(fields "$log" run.suite)" standard "$p: the suite from the user data (the command line's was quick)"
	tests=$(grep -a '^@isobench/1 [0-9]* TEST ' "$log" | sed -n 's/.* test=\([^ ]*\) .*/\1/p' | tr '\n' ' ') || true
	is "$tests" "${pick[$p]} " "$p: the one test the user data picked ran, one pass"
	host=$(fields "$log" peer.host)
	case $host in '' | - | unreachable*) fail "$p: the peer from the user data: peer.host is '$host'" ;;
	*) pass "$p: the peer from the user data answered (peer.host=$host)" ;; esac
done

# ---- a service that answers too late: WARN, the command line's parameters ----------------
echo "isobench.tests=dupclose" >"$tmp/slow.ud"
: >"$tmp/slow.imds"
qboot slow qemu/run "$tmp/slow.log" 300 --direct --accel tcg --cpus 1 --nic virtio --cloud gce \
	--user-data "$tmp/slow.ud" --imds-fault slow --imds-log "$tmp/slow.imds" \
	--suite quick --copies 1 --tests getpid
has "$tmp/slow.log" ' WARN .*what=metadata reason=gce%20metadata%20service.*no%20complete%20answer%20within%20the%20time%20allowed' \
	"slow: a WARN what=metadata says the service did not answer in time"
is "$(fields "$tmp/slow.log" params.metadata)" - "slow: INFO params.metadata=- (nothing taken)"
is "$(fields "$tmp/slow.log" run.tests)" getpid "slow: the command line's tests ran"
count_is "$tmp/slow.imds" '^GET ' 1 "slow: one request, not retried"
stop_peer
secs=$(_lib_secs $(($(_lib_usec) - t_all)))
boot_table "one test, one pass, 3 samples of 100 ms, 1 vCPU; all five boots: $secs s"
finish
