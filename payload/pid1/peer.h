/* peer.h — PID 1 as the net tests' peer (isobench.serve=1, issue 33): the same image a
 * measuring machine boots runs `isobench --serve` on every address of this one, for a
 * bounded life, and then PID 1 powers off. So a cloud user needs no second distribution.
 * The kernel configures the network (ip=dhcp or a static ip= on the command line). */
#ifndef ISOBENCH_PID1_PEER_H
#define ISOBENCH_PID1_PEER_H

/* Say this machine's address, port and life on every console, run the peer (self: this
 * program's path, executed as `self --serve --bind 0.0.0.0 --port NET_DEFAULT_PORT
 * --max-seconds seconds` in a child) with its output (records and messages) copied onto
 * every console, and return when it ends: its exit status (EXIT_OK; EXIT_USAGE when it
 * could not listen; 127 when it could not be executed), 128 + signal, or -errno when no
 * child could be started. */
int pid1_serve(const char *self, int seconds);
/* Copy what the peer program writes to fd onto every console until end of file, unchanged;
 * each whole line that is a record decoded once (another program wrote it): its BEGIN's run
 * id and its END's counts noted (out_note_begin(), out_note_end()) for the results file's
 * name and the screen's last page. */
void pid1_relay(int fd);

#endif
