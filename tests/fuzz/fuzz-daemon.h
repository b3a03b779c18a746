/* A real nvd inside a fuzz target: the daemon's own code (libnvdcore on
 * the simulated card, brought up as nvd/main.c does) listening on a private
 * socket, its loop run by the target (fuzz_daemon_pump) or by a thread of
 * its own (fuzz_daemon_thread).  After each input the target asks whether
 * the daemon is back where it started (fuzz_daemon_idle), as tmux's fuzzers
 * check reference counts: every client gone, no buffer, channel, framebuffer,
 * name, wait or fd left behind. */
#ifndef NVD_FUZZ_DAEMON_H
#define NVD_FUZZ_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "tests/fuzz/fuzz.h"

struct nvd;

/* Bring the daemon up (once per process); exits the process if it cannot.
 * The socket's path is in fuzz_daemon_socket(), also put in $NVD_SOCKET
 * for libnvd. */
struct nvd *fuzz_daemon_start(void);
const char *fuzz_daemon_socket(void);
/* One turn of the daemon's event loop without waiting (pump mode only). */
void fuzz_daemon_pump(void);
/* Run the loop on a thread of its own from now on (for targets whose
 * client blocks on replies, as libnvd does). */
void fuzz_daemon_thread(void);

/* Open fds of the process. */
int fuzz_fds(void);

/* An input begins: the fds open now are the ones it must leave. */
void fuzz_daemon_begin(void);
/* Pump mode: 0 when the daemon holds nothing for any client and the
 * process has the fds it had at fuzz_daemon_begin (pumping meanwhile, up
 * to about a second, as a hang-up takes a loop turn); else -1 with the
 * reason in why.  Thread mode checks through the protocol instead
 * (fuzz_ioctl.c). */
int fuzz_daemon_idle(char *why, size_t len);

#endif
