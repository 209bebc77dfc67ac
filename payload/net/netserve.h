/* netserve.h — `isobench --serve`: the network peer (netserve.c; protocol: netproto.h).
 * argv[1] is "--serve"; the options follow. Returns the exit status (lib/status.h). */
#ifndef ISOBENCH_NETSERVE_H
#define ISOBENCH_NETSERVE_H

int netserve_main(int argc, char **argv);

#endif
