/* nethello.h — the identities a hello session trades (netproto.h's mode hello): this
 * machine's, which the peer's "ok" line carries, and the peer's, for the header's peer.*
 * keys. Above the protocol (netproto.h) and the NIC facts (netnic.h), which it uses. */
#ifndef ISOBENCH_NETHELLO_H
#define ISOBENCH_NETHELLO_H

#include <stddef.h>

/* This machine's identity for the "ok" line: "host=H kernel=K machine=A nic=N". */
void net_identity(char *out, size_t cap);

/* A field ("host", "kernel", "machine", "nic") of the identity peer (HOST[:PORT]) answers a
 * hello session with, for the header's peer.* keys: "-" when peer is "" or the field is
 * missing, "unreachable: <why>" when the session fails or the answer is not an "ok" line
 * (a refusal, another service: its words are never taken for fields). One session per run
 * (cached). */
const char *net_peer_field(const char *peer, const char *field);
/* 1 when net_peer_field()'s hello session got bytes back (an "ok" line, a refusal, another
 * service's words), 0 when nothing came (no session, or none yet): an "unreachable: <why>"
 * field with it set is a peer that answered, not one out of reach. */
int net_peer_answered(void);

#endif
