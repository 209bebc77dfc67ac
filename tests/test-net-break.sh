#!/usr/bin/env bash
# tests/test-net-break.sh — the net group's peer (`isobench --serve`) and qemu/run's network
# options under a user trying to break them (issue 17), natively, in seconds:
#   - clients that send half a request line and stall delay nobody: a hello right after ten
#     of them is answered at once (the peer gathers a line without blocking its loop);
#   - more idle connections than the peer keeps pending (64) do not lock others out: the
#     oldest goes, a hello is still answered;
#   - a request line over 511 bytes, or one holding a NUL byte, is refused with a line saying
#     so (not a reset, not a truncated line read as valid);
#   - garbage is refused; a 17th session beyond the cap of 16 is refused "busy";
#   - crr and udp sessions (a udp session's worker starts at its first datagram) whose client is silent for
#     30 s are ended, as an rr child's socket timeout ends an rr session: 16 stalled or
#     vanished clients do not hold every slot for the hour a session may last;
#   - --peer naming another service (an SSH banner with " host=evil" in it): the header's
#     peer.* say "unreachable: not an ISOBENCH-NET answer: it sent '...'" (the bytes quoted,
#     issue 51), never take the service's words for an identity; the FAIL's reason quotes it,
#     never "Connection refused";
#   - after all that the peer is alive and a net-tcp-rr run against it gives a RESULT;
#   - the peer's global bounds (issue 30): it listens on 127.0.0.1 and lives 3600 s unless told
#     otherwise (--max-seconds 0: forever, when said); 16 clients from 16 addresses trickling a
#     byte every 2 s do not lock out a 17th (the slot of the one idle longest is taken), 16
#     that move data do (busy), none evicted; one address gets 4 sessions at once; a source
#     session with no byte bound stops at the client's egress cap (--max-egress), and that
#     client is refused more while another is served; a sink session with no byte bound ends at
#     its seconds;
#   - the route's NIC (issue 30): in a network namespace with four other interfaces up (veth
#     pairs of its own) and a veth to a peer in a second one, the header's nic.* describe
#     veth0 (the route's), not another one up before it; a peer with no route, veth0 without carrier and veth0 down SKIP at once ("no
#     network: ..."), not FAIL; without a peer the default route's interface is named;
#   - a peer that answers with a datagram 256 before the current one: net-udp-rr's 32-bit
#     sequence (4-byte datagrams) counts a loss, where an 8-bit one took it for the answer;
#   - ISOBENCH_NET_RR_SIZE that is not a size in 1..131072: the rr tests FAIL saying so;
#   - --serve's numbers are digits only: "+0", " 0", "+1" are usage errors (2), not a peer;
#   - the peer's standard output closed, full (/dev/full) or a pipe closed early: status 2
#     with a line (its records are its log), as for a run;
#   - the store (issue 33): a peer without --store refuses a run's log (the run completes and
#     says so); with --store DIR it keeps it as DIR/<run id>.log, byte for byte and complete;
#     the same run again, a cut upload (no file left), a run id that is a path, a log over
#     64 MiB and a full store (1000 files) are refused with a line saying which; so is
#     (issue 51) anything that is not one whole run under the id its BEGIN names: bytes that
#     are no log, a log sent as another run, a record repeated, lost or damaged, no END;
#   - qemu/run --peer: an octet over 255, port 0, a port over 65535, a leading zero are usage
#     errors (2) before anything starts; so are --nic with a bogus model, --peer without --nic,
#     --link without --nic, with a port out of 1..65535, a mode not listen/connect, or a --peer,
#     --peer to a non-loopback address on user networking (restricted networking only).
#
# In:  OUT/isobench, qemu/run, python3 (the hostile clients).
# Out: one line per assertion, then "N passed, M failed, K skipped". Exit 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
export TMPDIR=$tmp
kill_at_exit peer_pid

start_peer peer --max-seconds 120
port=$peer_port
[ -n "$port" ] || { fail "the peer gave no serve.port within 5 s: $(head -c 300 "$tmp/peer.peer.err")"; finish; }

# The hostile clients: one line per case, "NAME<TAB>ANSWER<TAB>SECONDS".
cat >"$tmp/hostile.py" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
def conn(src="127.0.0.1"):
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(src, 0))
def ask(data, wait=5, src="127.0.0.1"):
    s = conn(src); s.settimeout(wait); t = time.time()
    try:
        s.sendall(data); a = s.recv(600).decode(errors="replace").strip()
    except Exception as e:
        a = "error: " + type(e).__name__
    s.close()
    return a, time.time() - t
def say(name, r):
    print("%s\t%s\t%.2f" % (name, r[0], r[1]), flush=True)
HELLO = b"ISOBENCH-NET 1 mode=hello\n"
slow = [conn() for _ in range(10)]
for s in slow: s.sendall(b"I")
time.sleep(0.2)
say("after-slow", ask(HELLO, wait=8))
for s in slow: s.close()
idle = [conn() for _ in range(70)]
time.sleep(0.3)
say("after-idle", ask(HELLO))
for s in idle: s.close()
say("overlong", ask(b"ISOBENCH-NET 1 mode=rr " + b"x" * 2000 + b"\n"))
say("nul", ask(b"ISOBENCH-NET 1 mode=rr\0size=200000\n"))
say("garbage", ask(b"GET / HTTP/1.0\r\n\r\n"))
held = []
for i in range(16):
    s = conn("127.0.0.%d" % (2 + i)); s.sendall(b"ISOBENCH-NET 1 mode=rr size=1 seconds=30\n"); s.recv(600); held.append(s)
say("seventeenth", ask(b"ISOBENCH-NET 1 mode=rr size=1\n"))
for s in held: s.close()
time.sleep(0.5)
say("after-all", ask(HELLO))
ctl = []
for i, m in enumerate(["crr", "udp"] * 8):
    s = conn("127.0.0.%d" % (2 + i)); s.sendall(("ISOBENCH-NET 1 mode=%s size=1 seconds=3600\n" % m).encode()); s.recv(600); ctl.append(s)
say("sixteen-idle", ask(HELLO))
time.sleep(32)
say("after-idle-sessions", ask(HELLO))
PY
timeout 60 python3 "$tmp/hostile.py" "$port" >"$tmp/ans" 2>"$tmp/ans.err" || true
answer() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$tmp/ans"; }
secs() { awk -F'\t' -v n="$1" '$1 == n { print $3 }' "$tmp/ans"; }
quick() { awk -v s="$(secs "$1")" 'BEGIN { exit !(s != "" && s < 1.5) }'; }

case "$(answer after-slow)" in
"ISOBENCH-NET 1 ok "*) if quick after-slow; then pass "ten clients stalled mid-line: a hello is answered at once ($(secs after-slow) s)"
	else fail "ten clients stalled mid-line delay a hello by $(secs after-slow) s"; fi ;;
*) fail "after ten stalled clients: answer '$(answer after-slow)' ($(secs after-slow) s)" ;;
esac
case "$(answer after-idle)" in
"ISOBENCH-NET 1 ok "*) pass "70 idle connections (over the 64 pending): a hello is still answered" ;;
*) fail "70 idle connections lock a client out: answer '$(answer after-idle)'" ;;
esac
case "$(answer overlong)" in
*"refused request line over 511 bytes"*) pass "a 2 KB request line is refused with a line saying so" ;;
*) fail "a 2 KB request line: answer '$(answer overlong)'" ;;
esac
case "$(answer nul)" in
*"refused "*NUL*) pass "a request line holding a NUL byte is refused, not read up to the NUL" ;;
*) fail "a request line with a NUL: answer '$(answer nul)'" ;;
esac
case "$(answer garbage)" in
*"refused not an ISOBENCH-NET request"*) pass "an HTTP request is refused" ;;
*) fail "an HTTP request: answer '$(answer garbage)'" ;;
esac
case "$(answer seventeenth)" in
*"refused busy: 16 sessions open, none idle for 1000 ms"*) pass "a 17th session (16 just started from 16 addresses) is refused busy" ;;
*) fail "a 17th session: answer '$(answer seventeenth)'" ;;
esac
case "$(answer after-all)" in
"ISOBENCH-NET 1 ok "*) pass "the peer still answers after all of that" ;;
*) fail "after the hostile clients: answer '$(answer after-all)'; $(head -c 200 "$tmp/ans.err")" ;;
esac
case "$(answer sixteen-idle)" in
*"refused busy"*) pass "16 crr/udp sessions fill the peer" ;;
*) fail "16 crr/udp sessions: a hello is answered '$(answer sixteen-idle)'" ;;
esac
case "$(answer after-idle-sessions)" in
"ISOBENCH-NET 1 ok "*) pass "crr/udp sessions idle for 30 s are ended: their slots free again" ;;
*) fail "16 crr/udp sessions idle past 30 s still hold the peer: '$(answer after-idle-sessions)'" ;;
esac
has "$tmp/peer.peer.err" 'udp session of 127\.0\.0\.[0-9]+ idle for 30 s: ended' "... and the peer says so"
if kill -0 "$peer_pid" 2>/dev/null; then pass "the peer survived the hostile clients"; else fail "the peer died"; fi
rc=0
timeout 60 "$bin" --tests net-tcp-rr --peer "127.0.0.1:$port" --copies 1 --sample_ms 100 --samples 2 \
	>"$tmp/rr.log" 2>/dev/null || rc=$?
status_is EXIT_OK "$rc" "net-tcp-rr against the peer after the hostile clients"
has "$tmp/rr.log" ' RESULT test=net-tcp-rr ' "... gives a RESULT"
stop_peer

# ---- the peer's global bounds (issue 30): one address, a life, per-client shares, no slot ----
# held by a trickle. A peer with the defaults but a 4 MiB egress cap per client.
start_peer bounds --max-egress 4M
[ -n "$peer_port" ] || fail "the bounded peer gave no serve.port: $(head -c 300 "$tmp/bounds.peer.err")"
has "$tmp/bounds.peer" ' INFO serve\.port=[0-9]+ serve\.bind=127\.0\.0\.1 serve\.max_seconds=3600 serve\.max_egress=4194304 ' \
	"--serve by default: loopback only (127.0.0.1), a life of 3600 s; --max-egress 4M taken"
cat >"$tmp/bounds.py" <<'PY'
import socket, sys, threading, time
port = int(sys.argv[1])
def conn(src):
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(src, 0))
def session(src, req):
    s = conn(src); s.sendall(req + b"\n"); a = b""
    while not a.endswith(b"\n"):
        c = s.recv(1)
        if not c: break
        a += c
    return s, a.decode(errors="replace").strip()
def say(name, a, t=0.0):
    print("%s\t%s\t%.2f" % (name, a, t), flush=True)
# 16 clients from 16 addresses, each trickling one byte every 2 s (8 sinks, 8 rr sessions of
# 64-byte messages): the issue's lock-out, a byte every 29 s, in miniature.
trick, stop = [], threading.Event()
for i in range(16):
    mode = b"sink size=1" if i % 2 else b"rr size=64"
    s, a = session("127.0.0.%d" % (2 + i), b"ISOBENCH-NET 1 mode=" + mode + b" seconds=60")
    if not a.startswith("ISOBENCH-NET 1 ok"): say("trickler-%d" % i, a)
    trick.append(s)
def trickle():
    k = 0
    while not stop.is_set():
        for s in trick:
            try: s.sendall(b"x")
            except OSError: pass
            time.sleep(2.0 / len(trick))
        k += 1
threading.Thread(target=trickle, daemon=True).start()
time.sleep(2.5)
t = time.time()
s17, a = session("127.0.0.18", b"ISOBENCH-NET 1 mode=rr size=1 seconds=10")
ok17 = a
if a.startswith("ISOBENCH-NET 1 ok"):
    s17.sendall(b"y"); ok17 = a + " echo=" + s17.recv(1).decode()
say("seventeenth-after-tricklers", ok17, time.time() - t)
stop.set(); s17.close()
for s in trick: s.close()
time.sleep(0.5)
# 16 clients moving data all the time: a 17th is refused, none of them is evicted.
busy, run = [], threading.Event(); run.set()
def pingpong(s):
    while run.is_set():
        try: s.sendall(b"z"); s.recv(1)
        except OSError: return
for i in range(16):
    s, a = session("127.0.0.%d" % (50 + i), b"ISOBENCH-NET 1 mode=rr size=1 seconds=30")
    busy.append(s); threading.Thread(target=pingpong, args=(s,), daemon=True).start()
time.sleep(1.5)
s, a = session("127.0.0.66", b"ISOBENCH-NET 1 mode=hello"); s.close()
say("seventeenth-after-busy", a)
run.clear()
for s in busy: s.close()
time.sleep(0.5)
# One address: at most 4 sessions at once.
mine = []
for i in range(5):
    s, a = session("127.0.0.70", b"ISOBENCH-NET 1 mode=rr size=1 seconds=30"); mine.append(s)
say("fifth-from-one-address", a)
for s in mine: s.close()
time.sleep(0.5)
# The egress cap: a source session with no byte bound stops at the client's 4 MiB...
s, a = session("127.0.0.80", b"ISOBENCH-NET 1 mode=source size=65536 bytes=0 seconds=60")
got, t = 0, time.time()
while True:
    b = s.recv(1 << 20)
    if not b: break
    got += len(b)
s.close()
say("source-capped", "%s got=%d" % (a[:17], got), time.time() - t)
time.sleep(0.3)
s, a = session("127.0.0.80", b"ISOBENCH-NET 1 mode=source size=65536 seconds=60"); s.close()
say("source-again", a)
s, a = session("127.0.0.81", b"ISOBENCH-NET 1 mode=hello"); s.close()
say("source-other-client", a)
# ... and a sink with no byte bound is bounded by its seconds (2: the peer ends it by 3 s).
s, a = session("127.0.0.82", b"ISOBENCH-NET 1 mode=sink size=1 bytes=0 seconds=2")
t, sent = time.time(), 0
try:
    while time.time() - t < 10:
        s.sendall(b"\0" * 65536); sent += 65536
except OSError:
    pass
say("sink-timed", "%s sent=%d" % (a[:17], sent), time.time() - t)
PY
timeout 60 python3 "$tmp/bounds.py" "$peer_port" >"$tmp/bounds.ans" 2>"$tmp/bounds.ans.err" || true
banswer() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$tmp/bounds.ans"; }
bsecs() { awk -F'\t' -v n="$1" '$1 == n { print $3 }' "$tmp/bounds.ans"; }
case "$(banswer seventeenth-after-tricklers)" in
"ISOBENCH-NET 1 ok "*" echo=y") pass "16 clients trickling a byte every 2 s from 16 addresses: a 17th from another is served ($(bsecs seventeenth-after-tricklers) s)" ;;
*) fail "16 trickling clients lock out a 17th: '$(banswer seventeenth-after-tricklers)'; $(head -c 300 "$tmp/bounds.ans.err")" ;;
esac
has "$tmp/bounds.peer.err" '(rr|sink) session of 127\.0\.0\.[0-9]+ moved no data for [0-9.]+ s: its slot goes to 127\.0\.0\.18' \
	"... by taking the slot of the trickler idle longest, and the peer says so"
case "$(banswer seventeenth-after-busy)" in
*"refused busy: 16 sessions open, none idle for 1000 ms"*) pass "16 clients moving data: a 17th is refused busy, none of them evicted" ;;
*) fail "16 busy clients: a 17th got '$(banswer seventeenth-after-busy)'" ;;
esac
case "$(banswer fifth-from-one-address)" in
*"refused busy: 4 sessions from 127.0.0.70 open, this peer allows 4 per client"*) pass "one address: a 5th session at once is refused" ;;
*) fail "one address, a 5th session: '$(banswer fifth-from-one-address)'" ;;
esac
case "$(banswer source-capped)" in
"ISOBENCH-NET 1 ok got=4194304") pass "a source session without a byte bound stops at the client's egress cap (4 MiB), in $(bsecs source-capped) s" ;;
*) fail "the egress cap: '$(banswer source-capped)'" ;;
esac
case "$(banswer source-again)" in
*"refused egress cap: 4194304 bytes sent to 127.0.0.80, this peer allows 4194304 per client"*) pass "... and the same client is refused another session, saying why" ;;
*) fail "the egress cap, a second session: '$(banswer source-again)'" ;;
esac
case "$(banswer source-other-client)" in
"ISOBENCH-NET 1 ok "*) pass "... while another client is served" ;;
*) fail "the egress cap of one client refuses another: '$(banswer source-other-client)'" ;;
esac
case "$(banswer sink-timed)" in
"ISOBENCH-NET 1 ok sent="*) if awk -v s="$(bsecs sink-timed)" 'BEGIN { exit !(s >= 1.5 && s < 5) }'; then
		pass "a sink session with no byte bound ends at its seconds (2 s asked, ended after $(bsecs sink-timed) s)"
	else fail "a 2 s sink session ended after $(bsecs sink-timed) s"; fi ;;
*) fail "a timed sink session: '$(banswer sink-timed)'" ;;
esac
stop_peer
rc=0
timeout --preserve-status 2 "$bin" --serve --port 0 --max-seconds 0 >"$tmp/forever.peer" \
	2>"$tmp/forever.err" || rc=$?
status_is EXIT_OK "$rc" "--serve --max-seconds 0: a clean stop on SIGTERM"
has "$tmp/forever.err" 'forever \(--max-seconds 0\).*|signal 15: stopping' "... it ran until stopped (SIGTERM after 2 s)"
has "$tmp/forever.peer" ' INFO .*serve\.max_seconds=0 ' "... and its log says max_seconds=0"

# ---- the route's NIC (issue 30): the nic.* facts are the interface the route to the peer ----
# leaves by, not the first interface up; a route absent, an interface down or without carrier
# SKIPs at once. Two network namespaces made here (route_net): ns1 and ns2 (the peer).
# route_net NS1 NS2: the two namespaces' links: in NS1 four veth pairs of its own (a0..a3,
# up, addressed 10.9.1N.1/24, with carrier: no route to the peer through them), made before
# veth0 (10.9.2.1/24) whose other end veth1 (10.9.2.2/24) is in NS2. Non-zero on a failure.
route_net() {
	local i
	ip -n "$1" link set lo up && ip -n "$2" link set lo up || return 1
	for i in 0 1 2 3; do
		ip -n "$1" link add "a$i" type veth peer name "b$i" &&
			ip -n "$1" addr add "10.9.1$i.1/24" dev "a$i" &&
			ip -n "$1" link set "b$i" up && ip -n "$1" link set "a$i" up || return 1
	done
	ip -n "$1" link add veth0 type veth peer name veth1 netns "$2" &&
		ip -n "$1" addr add 10.9.2.1/24 dev veth0 && ip -n "$2" addr add 10.9.2.2/24 dev veth1 &&
		ip -n "$1" link set veth0 up && ip -n "$2" link set veth1 up
}
route_cases() {
	local ns1=isobench-rt1-$$ ns2=isobench-rt2-$$ p i st t0 dt
	if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! ip netns add "$ns1" 2>/dev/null; then
		skip "the route's NIC: needs root and ip netns"
		return
	fi
	at_exit "ip netns del $ns1 2>/dev/null"
	ip netns add "$ns2"
	at_exit "ip netns del $ns2 2>/dev/null"
	if ! route_net "$ns1" "$ns2" 2>"$tmp/rt.ip.err"; then
		skip "the route's NIC: the namespaces could not be set up: $(head -c 200 "$tmp/rt.ip.err")"
		return
	fi
	ip netns exec "$ns2" "$bin" --serve --port 0 --bind 10.9.2.2 --max-seconds 60 >"$tmp/rt.peer" 2>"$tmp/rt.peer.err" &
	peer_pid=$!
	for ((i = 0; i < 50; i++)); do grep -q serve.port "$tmp/rt.peer" && break; sleep 0.1; done
	p=$(sed -n 's/.*serve\.port=\([0-9]*\).*/\1/p' "$tmp/rt.peer")
	# rt NAME PEER: net-tcp-rr in ns1 against PEER; $tmp/NAME.log, $st, $dt (ms).
	rt() {
		st=0 t0=$(_lib_usec)
		timeout 60 ip netns exec "$ns1" "$bin" --tests net-tcp-rr --peer "$2" --copies 1 \
			--sample_ms 100 --samples 2 >"$tmp/$1.log" 2>/dev/null || st=$?
		dt=$((($(_lib_usec) - t0) / 1000))
	}
	rt rt-veth "10.9.2.2:$p"
	status_is EXIT_OK "$st" "ns1 with 4 other interfaces up and veth0: net-tcp-rr against the peer on veth1"
	has "$tmp/rt-veth.log" " INFO .*nic\.name=veth0 .*nic\.addr=10\.9\.2\.1( |$)" \
		"the header's NIC is veth0, the route's interface (address 10.9.2.1), not another one up"
	has "$tmp/rt-veth.log" " RESULT test=net-tcp-rr " "... and the test gives a RESULT"
	rt rt-absent "10.9.3.3:$p"
	status_is EXIT_OK "$st" "a peer with no route to it: the run completes"
	has "$tmp/rt-absent.log" " SKIP test=net-tcp-rr copies=1 reason=no%20network:%20no%20route%20to%2010\.9\.3\.3:%20Network%20(is%20)?unreachable" \
		"... net-tcp-rr SKIPs: no route, with the errno's words"
	if [ "$dt" -lt 3000 ]; then pass "... at once (${dt} ms)"; else fail "... after ${dt} ms"; fi
	ip -n "$ns2" link set veth1 down
	rt rt-nocarrier "10.9.2.2:$p"
	has "$tmp/rt-nocarrier.log" " SKIP test=net-tcp-rr copies=1 reason=no%20network:%20the%20route%20to%20peer%2010\.9\.2\.2:[0-9]+%20leaves%20by%20veth0,%20which%20has%20no%20carrier" \
		"veth0 without carrier (its other end down): SKIP, naming the interface"
	if [ "$dt" -lt 3000 ]; then pass "... at once (${dt} ms)"; else fail "... after ${dt} ms"; fi
	ip -n "$ns1" link set veth0 down
	rt rt-down "10.9.2.2:$p"
	has "$tmp/rt-down.log" " SKIP test=net-tcp-rr copies=1 reason=no%20network:%20no%20route%20to%2010\.9\.2\.2" \
		"veth0 down: SKIP, no route (not a FAIL with ENETUNREACH)"
	if [ "$dt" -lt 3000 ]; then pass "... at once (${dt} ms)"; else fail "... after ${dt} ms"; fi
	ip -n "$ns1" link set veth0 up
	ip -n "$ns2" link set veth1 up
	ip -n "$ns1" route add default via 10.9.2.2
	st=0
	ip netns exec "$ns1" "$bin" --tests net-tcp-rr --copies 1 >"$tmp/rt-nopeer.log" 2>/dev/null || st=$?
	has "$tmp/rt-nopeer.log" " INFO .*nic\.name=veth0 " "no peer: the header's NIC is the default route's (veth0)"
	stop_peer
}
route_cases

# ---- --peer naming a service that is not a peer: the header must not take its words -------
: >"$tmp/fake.port"
python3 -c '
import socket
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(8); print(l.getsockname()[1], flush=True)
for _ in range(20):
    c, _ = l.accept(); c.sendall(b"SSH-2.0-OpenSSH_9.2p1 host=evil kernel=evil\r\n"); c.close()
' >"$tmp/fake.port" &
peer_pid=$!
for ((i = 0; i < 50; i++)); do [ ! -s "$tmp/fake.port" ] || break; sleep 0.1; done
rc=0
timeout 60 "$bin" --tests net-tcp-rr --peer "127.0.0.1:$(head -n 1 "$tmp/fake.port")" --copies 1 \
	--sample_ms 100 --samples 2 >"$tmp/fake.log" 2>/dev/null || rc=$?
status_is EXIT_FAILS "$rc" "net-tcp-rr against an SSH-like service: a complete run with a FAIL"
has "$tmp/fake.log" " INFO .*peer\\.host=unreachable:%20not%20an%20ISOBENCH-NET%20answer:%20it%20sent%20'SSH-2\\.0-OpenSSH_9\\.2p1%20host=evil%20kernel=evil'" \
	"the header's peer.host says the answer was not a peer's, quoting it whole"
hasnt "$tmp/fake.log" 'peer\.(host|kernel)=evil' "the header takes no identity from a non-peer's words"
# What happened, not an errno it did not cause (issue 51): no "Connection refused" where the
# peer answered, in the FAIL's reason and in the progress line.
has "$tmp/fake.log" " FAIL test=net-tcp-rr .*reason=setup:%20peer%20127\\.0\\.0\\.1:[0-9]+%20not%20an%20ISOBENCH-NET%20answer:%20it%20sent%20'SSH-2\\.0" \
	"the FAIL's reason quotes what answered"
hasnt "$tmp/fake.log" "Connection%20refused|refused%20the%20session" "... and says no refusal the peer did not send"
# The log it would send at the end: not sent, saying the peer answered with something else,
# never "it was unreachable" (it answered).
has "$tmp/fake.log" "^isobench: the log was not sent to the peer 127\\.0\\.0\\.1:[0-9]+: it answered the run's hello, but not as a peer: not an ISOBENCH-NET answer: it sent 'SSH-2\\.0" \
	"the log not sent: the non-peer's answer quoted"
hasnt "$tmp/fake.log" "it was unreachable" "... and not called unreachable"
stop_peer

# ---- a stale UDP answer: net-udp-rr's sequence number is 32 bits in a 4-byte datagram ------
# A peer that answers a datagram with the bytes of the one 256 before it (a late duplicate, as
# a queue or a path change delivers), 0.3 s into the session and 0.3 s after each answered
# one (some land in measured samples, past the calibration): with an 8-bit number the duplicate passes for the
# answer (no loss); with 32 bits it is dropped, the real answer never comes: a loss each time.
: >"$tmp/stale.port"
python3 -c '
import socket, threading, time
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(8)
port = t.getsockname()[1]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", port))
print(port, flush=True)
def control():
    while True:
        c, _ = t.accept()
        c.makefile("rb").readline()
        c.sendall(b"ISOBENCH-NET 1 ok host=stale kernel=k machine=m nic=n\n")
        threading.Thread(target=c.recv, args=(1,), daemon=True).start()
threading.Thread(target=control, daemon=True).start()
seen, due = [], 0
while True:
    d, a = u.recvfrom(65536)
    seen.append(d)
    now = time.monotonic()
    due = due or now + 0.3
    stale = now >= due and len(seen) > 256
    u.sendto(seen[-257] if stale else d, a)
    if stale:
        due = 0
' >"$tmp/stale.port" 2>"$tmp/stale.err" &
peer_pid=$!
for ((i = 0; i < 50; i++)); do [ ! -s "$tmp/stale.port" ] || break; sleep 0.1; done
rc=0
ISOBENCH_NET_RR_SIZE=4 timeout 60 "$bin" --tests net-udp-rr --peer "127.0.0.1:$(head -n 1 "$tmp/stale.port")" \
	--copies 1 --sample_ms 200 --samples 2 >"$tmp/stale.log" 2>/dev/null || rc=$?
status_is EXIT_OK "$rc" "net-udp-rr against a peer that sends one stale answer"
lost=$(awk '$3 == "SAMPLE" && $4 == "test=net-udp-rr" { for (i = 5; i <= NF; i++)
	if ($i ~ /^lost=/) n += substr($i, 6) } END { print n + 0 }' "$tmp/stale.log")
if [ "$lost" -ge 1 ]; then pass "a stale answer 256 datagrams late is not taken for the answer ($lost losses)"
else fail "a stale answer 256 datagrams late: no loss counted (taken for the answer: an 8-bit sequence?)"; fi
has "$tmp/stale.log" ' SAMPLE test=net-udp-rr .* msg_bytes=4 ' "... with 4-byte datagrams"
stop_peer
# A size that is not one (atol read "abc" as 0 and ran at 1 byte, a comparison at the wrong size).
for bad in abc 0 131073 "+4" " 4"; do
	rc=0
	ISOBENCH_NET_RR_SIZE=$bad timeout 30 "$bin" --tests net-tcp-rr,net-udp-rr --peer 127.0.0.1:9 --copies 1 \
		>"$tmp/size.log" 2>/dev/null || rc=$?
	status_is EXIT_FAILS "$rc" "ISOBENCH_NET_RR_SIZE='$bad': a complete run with FAILs"
	count_is "$tmp/size.log" " FAIL test=net-(tcp|udp)-rr .*note=ISOBENCH_NET_RR_SIZE=.*not%20a%20size%20in%20bytes%201\.\.131072" 2 \
		"ISOBENCH_NET_RR_SIZE='$bad': both tests FAIL saying the size is not one"
done

# ---- the peer's options: digits only (strtol alone took "+5" and " 5") ----------------------
# (--bind ::1, IPv6, is an address since issue 30; a bracketed or malformed one is not.)
for bad in "--port +0" "--port  0" "--port 0 --max-seconds +1" "--port 0x10" "--port 0 --bind [::1]" "--port 0 --bind ::1:5:x" "--port 0 --max-egress -1" "--port 0 --max-egress 1X"; do
	read -r -a words <<<"$bad"
	[ "$bad" != "--port  0" ] || words=(--port " 0")
	expect_status EXIT_USAGE "--serve ${words[*]} is a usage error" -- timeout 5 "$bin" --serve "${words[@]}"
done

# ---- the peer's own log: stdout closed or full is status 2 (docs/exit-status.md), not 0 ----------
rc=0
"$bin" --serve --port 0 --max-seconds 1 >&- 2>"$tmp/closed.err" || rc=$?
status_is EXIT_USAGE "$rc" "--serve with standard output closed is a usage error"
rc=0
"$bin" --serve --port 0 --max-seconds 1 >/dev/full 2>"$tmp/full.err" || rc=$?
status_is EXIT_USAGE "$rc" "--serve with standard output full: the log is incomplete"
has "$tmp/full.err" 'standard output could not be written .*the log is incomplete' "... and it says so"
rc=0
"$bin" --serve --port 0 --max-seconds 1 >/dev/null 2>&1 || rc=$?
status_is EXIT_OK "$rc" "--serve --max-seconds 1 to a writable stdout"

# ---- the store (issue 33): a run's whole log on its peer ------------------------------------
# A peer without --store refuses an upload; the run completes and says so.
start_peer nostore --max-seconds 60
"$bin" --suite quick --tests pipe --copies 1 --samples 2 --peer "127.0.0.1:$peer_port" \
	>"$tmp/nostore.log" 2>"$tmp/nostore.err" || true
stop_peer
complete "$tmp/nostore.log" "a run whose peer keeps no logs is complete"
contains "$tmp/nostore.err" "the log was not sent to the peer 127.0.0.1:" "... and says its log was not sent"
contains "$tmp/nostore.err" "refused this peer keeps no logs (start it with --store DIR)" "... because the peer refused it"
# A peer with --store DIR keeps the run's whole log as DIR/<run id>.log.
mkdir -p "$tmp/store"
expect_status EXIT_USAGE "--store naming no directory is a usage error" -- \
	"$bin" --serve --port 0 --max-seconds 1 --store "$tmp/no/such/dir"
start_peer store --max-seconds 120 --store "$tmp/store"
store_port=$peer_port
"$bin" --suite quick --tests pipe,net-tcp-rr --copies 1 --samples 2 --peer "127.0.0.1:$store_port" \
	>"$tmp/stored.log" 2>"$tmp/stored.err" || true
run=$(sed -n 's/^@isobench\/1 1 BEGIN run=\([0-9a-f]*\) .*/\1/p' "$tmp/stored.log")
if [ -n "$run" ] && [ -f "$tmp/store/$run.log" ]; then pass "the peer keeps the run's log as $run.log"
else fail "no $tmp/store/<run>.log for run '$run': $(find "$tmp/store" -mindepth 1 | head -n 3 | tr '\n' ' ')"; fi
contains "$tmp/stored.err" "which keeps it as $run.log" "... and the run says where it went"
cp "$tmp/store/$run.log" "$tmp/kept.log" 2>/dev/null || : >"$tmp/kept.log"
complete "$tmp/kept.log" "... a complete run, as checked by isobench-report"
if [ -s "$tmp/kept.log" ] && cmp -s "$tmp/kept.log" <(head -c "$(wc -c <"$tmp/kept.log")" "$tmp/stored.log") &&
	[ "$(grep -c '^@isobench/1 ' "$tmp/kept.log")" -eq "$(grep -c '^@isobench/1 ' "$tmp/stored.log")" ]; then
	pass "... byte for byte the log the run wrote, every record of it (what follows END aside)"
else fail "the stored log differs from the run's own"; fi
# Uploads by hand: the same run again, a cut upload, a bad run id, over the size cap, a full store.
cat >"$tmp/store.py" <<'PY'
import socket, sys
port, run, what = int(sys.argv[1]), sys.argv[2], sys.argv[3]
# what: "cut" (5 of 10 bytes), "big" (a request over the cap), "ok" (10 bytes that are no
# log), or a file's path: its bytes.
data = open(what, "rb").read() if what.startswith("/") else b"0123456789"
s = socket.create_connection(("127.0.0.1", port), timeout=5)
size = {"big": 64 << 20 | 1}.get(what, len(data))
s.sendall(b"ISOBENCH-NET 1 mode=store bytes=%d run=%s\n" % (size, run.encode()))
f = s.makefile("rb")
ans = f.readline().decode(errors="replace").strip()
if " ok " in ans and what == "cut":
    s.sendall(b"12345")
    s.shutdown(socket.SHUT_WR)
    ans = f.readline().decode(errors="replace").strip()
elif " ok " in ans:
    s.sendall(data)
    ans = f.readline().decode(errors="replace").strip()
print(ans)
PY
ans=$(python3 "$tmp/store.py" "$store_port" "$run" again) || true
if [[ $ans == *"refused run $run is stored already (a log is never overwritten)"* ]] &&
	cmp -s "$tmp/store/$run.log" <(head -c "$(wc -c <"$tmp/store/$run.log")" "$tmp/stored.log"); then
	pass "the same run again is refused and the stored log kept ($ans)"
else fail "the same run again: '$ans'"; fi
ans=$(python3 "$tmp/store.py" "$store_port" 0123456789abcdef cut) || true
if [[ $ans == *"refused the upload ended after 5 of 10 bytes"* ]] &&
	[ "$(find "$tmp/store" -mindepth 1 | wc -l)" -eq 1 ]; then
	pass "a cut upload is refused and leaves no file ($ans)"
else fail "a cut upload: '$ans'; the store holds: $(find "$tmp/store" -mindepth 1 | tr '\n' ' ')"; fi
# The store keeps only what it claims (issue 51): a run's log, whole, under the run id its
# BEGIN names. Ten bytes that are no log, the run's own log sent as another run, with a
# record repeated, with one lost, cut before its END, with a record resealed wrong, are
# each refused saying which, and leave no file; the same log under its own id is kept.
other=0123456789abcdef
sed "s/ run=$run / run=$other /" "$tmp/kept.log" | PYTHONPATH=$top/tests python3 -c '
import re, sys
from seal import reseal
for line in sys.stdin:
    if re.match(r"@isobench/1 \d+ [A-Z]+ .* \*[0-9a-f]{8}$", line.rstrip("\n")):
        line = reseal(line)
    sys.stdout.write(line)' >"$tmp/other.log"
awk '/^@isobench\/1 5 /{print} {print}' "$tmp/other.log" >"$tmp/repeated.log"
awk '!/^@isobench\/1 5 /' "$tmp/other.log" >"$tmp/lost.log"
grep -v '^@isobench/1 [0-9]* END ' "$tmp/other.log" >"$tmp/noend.log"
sed 's/^\(@isobench\/1 3 .*\*\)[0-9a-f]\{8\}$/\100000000/' "$tmp/other.log" >"$tmp/damaged.log"
for c in "ok|it holds no record|ten bytes that are no log" \
	"$tmp/kept.log|its BEGIN names run $run, not run $other it was sent as|a run's log sent as another run" \
	"$tmp/repeated.log|line [0-9]+: seq 5 again after seq 5: records repeated or reordered|a log with a record repeated" \
	"$tmp/lost.log|line [0-9]+: seq 6 follows seq 4: records lost|a log with a record lost" \
	"$tmp/noend.log|no END: the log is cut after seq [0-9]+|a log cut before its END" \
	"$tmp/damaged.log|line [0-9]+: a damaged record \(checksum mismatch\)|a log with a damaged record"; do
	IFS='|' read -r what want desc <<<"$c"
	ans=$(python3 "$tmp/store.py" "$store_port" "$other" "$what") || true
	if [[ $ans =~ "refused "$want ]] && [ ! -e "$tmp/store/$other.log" ] &&
		[ -z "$(find "$tmp/store" -name '.*.part')" ]; then
		pass "$desc is refused and leaves no file ($ans)"
	else fail "$desc: '$ans' (want refused $want); the store holds: $(find "$tmp/store" -mindepth 1 | tr '\n' ' ')"; fi
done
ans=$(python3 "$tmp/store.py" "$store_port" "$other" "$tmp/other.log") || true
if [[ $ans == *"stored $other.log"* ]] && cmp -s "$tmp/store/$other.log" "$tmp/other.log"; then
	pass "a whole log sent as the run its BEGIN names is stored as sent"
else fail "a whole log under its own run id: '$ans'"; fi
ans=$(python3 "$tmp/store.py" "$store_port" ../../etc/passwd ok) || true
if [[ $ans == *"refused run: '../../etc/passwd' is not 16 lower-case hex digits"* ]]; then
	pass "a run id that is a path is refused ($ans)"
else fail "a run id that is a path: '$ans'"; fi
ans=$(python3 "$tmp/store.py" "$store_port" 1123456789abcdef big) || true
if [[ $ans == *"refused a store request names its run= and bytes=, 1..67108864"* ]]; then
	pass "a log over 64 MiB is refused before a byte is sent ($ans)"
else fail "a log over 64 MiB: '$ans'"; fi
for i in $(seq 1 1000); do : >"$tmp/store/filler$i"; done
ans=$(python3 "$tmp/store.py" "$store_port" 2123456789abcdef ok) || true
if [[ $ans == *"refused the store is full: "*" files, this peer keeps at most 1000"* ]] && [ ! -e "$tmp/store/2123456789abcdef.log" ]; then
	pass "a full store refuses more ($ans)"
else fail "a full store: '$ans'"; fi
stop_peer

# ---- qemu/run's network options: usage errors before anything starts ----------------------
q=("$top/qemu/run" --direct --accel tcg --timeout 10 --out "$tmp/noimage")
for bad in 127.0.0.1:0 127.0.0.1:65536 127.0.0.1:99999 127.999.0.1:7117 127.0.0.1:07117 127..0.1:5; do
	expect_status EXIT_USAGE "qemu/run --nic virtio --peer $bad is a usage error" -- "${q[@]}" --nic virtio --peer "$bad"
done
expect_status EXIT_USAGE "qemu/run --nic rtl8139 is a usage error" -- "${q[@]}" --nic rtl8139
expect_status EXIT_USAGE "qemu/run --peer without --nic is a usage error" -- "${q[@]}" --peer 127.0.0.1:7117
for bad in "--link listen:5" "--nic virtio --link listen:0" "--nic virtio --link listen:65536" "--nic virtio --link serve:5" \
	"--nic virtio --link connect:05" "--nic virtio --link listen:5 --peer 127.0.0.1:7117"; do
	read -r -a words <<<"$bad"
	expect_status EXIT_USAGE "qemu/run $bad is a usage error" -- "${q[@]}" "${words[@]}"
done
expect_status EXIT_USAGE "qemu/run --peer to a non-loopback address on user networking is refused" -- \
	"${q[@]}" --nic virtio --peer 10.0.0.1:7117
expect_status EXIT_NOSTART "qemu/run --nic virtio --peer 127.0.0.1:65535 is valid (fails later: no image)" -- \
	"${q[@]}" --nic virtio --peer 127.0.0.1:65535

# ---- docs/benchmarks/network-vs-peers.sh asked wrong: status 2 at once, saying what ------------
vs=$top/docs/benchmarks/network-vs-peers.sh
for bad in "abc 3" "0 3" "3 x"; do
	read -r -a words <<<"$bad"
	expect_status EXIT_USAGE "network-vs-peers.sh $bad is a usage error" -- timeout 20 bash "$vs" "${words[@]}"
	contains "$tmp/stderr" "ROUNDS and SECONDS are" "network-vs-peers.sh $bad: says the rule"
done
mkdir -p "$tmp/np-empty"
expect_status EXIT_USAGE "network-vs-peers.sh with a netperf dir that holds no build" -- timeout 20 bash "$vs" 1 1 "$tmp/np-empty"
contains "$tmp/stderr" "$tmp/np-empty holds no src/netperf and src/netserver" "network-vs-peers.sh: names the dir and what it lacks"
finish
