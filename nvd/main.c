/* nvd: the daemon that owns an NV4x card (or the simulated one) and runs
 * unprivileged clients' command buffers on it after validating them. */
#include "nvd/config.h"
#include "nvd/vnc.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>

/* The socket systemd passes (socket activation, nvd.socket): taken in
 * place of binding one.  1 when taken, 0 when there is none, -1 after
 * saying why it cannot be used. */
static int take_systemd_socket(struct nvd *d)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int fd = SD_LISTEN_FDS_START, n = sd_listen_fds(1);

	if (n == 0)
		return 0;
	if (n < 0) {
		nvd_err("the sockets systemd passed: %s", strerror(-n));
		return -1;
	}
	if (n > 1 || sd_is_socket_unix(fd, SOCK_SEQPACKET, 1, NULL, 0) <= 0) {
		nvd_err("systemd passed %d socket%s: nvd takes one listening AF_UNIX "
			"SOCK_SEQPACKET socket (ListenSequentialPacket=)", n, n > 1 ? "s" : "");
		return -1;
	}
	/* It may come blocking; libevent's loop must never wait in accept. */
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		nvd_err("systemd's socket: %s", strerror(errno));
		return -1;
	}
	size_t plen = len > offsetof(struct sockaddr_un, sun_path) ?
		strnlen(sa.sun_path, len - offsetof(struct sockaddr_un, sun_path)) : 0;
	snprintf(d->sock_path, sizeof(d->sock_path), "%.*s", (int)plen, sa.sun_path);
	d->listen_fd = fd;
	d->sock_activated = 1;
	return 1;
}

static void on_systemd_watchdog(evutil_socket_t fd, short what, void *arg)
{
	(void)fd, (void)what, (void)arg;
	sd_notify(0, "WATCHDOG=1");
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct nvd *d = arg;
	(void)what;
	nvd_log(0, "%s: shutting down", strsignal((int)sig));
	snprintf(d->stop_why, sizeof(d->stop_why), "nvd is shutting down (%s)", strsignal((int)sig));
	sd_notifyf(0, "STOPPING=1\nSTATUS=%s", d->stop_why);
	event_base_loopbreak(d->base);
}

static void on_irq(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	nvd_irq(arg);
}

int main(int argc, char **argv)
{
	static struct nvd d;
	static struct nvd_config conf;
	char err[256];
	uint64_t wd_usec;

	nvd_log_init();
	d.listen_fd = -1;
	conf.o = &d.o;
	argv[0] = program_invocation_short_name;   /* getopt's messages: "nvd: ...", not a path */
	int status = nvd_config_load(&conf, argc, argv);
	if (status >= 0)
		return status;
	struct nvd_vnc *vnc = NULL;
	if ((d.o.vnc || d.o.vnc_password_file) &&
	    !(vnc = nvd_vnc_new(d.o.vnc, d.o.vnc_password_file, err, sizeof(err)))) {
		nvd_err("%s", err);
		return 2;
	}
	/* before the live view starts: a libvncserver built with systemd
	 * would take a socket systemd passes for its own */
	int activated = take_systemd_socket(&d);
	if (activated < 0)
		return 1;
	if (activated) {
		if (d.o.socket)
			nvd_log(0, "listening on systemd's socket %s, not %s", d.sock_path, d.o.socket);
	}
	else if (d.o.socket)
		snprintf(d.sock_path, sizeof(d.sock_path), "%s", d.o.socket);
	else
		nvd_default_socket(d.sock_path, sizeof(d.sock_path));

	signal(SIGPIPE, SIG_IGN);
	/* Every client holds a socket and four fds per channel. */
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	d.base = event_base_new();
	if (!d.base) {
		nvd_err("cannot create the event loop");
		return 1;
	}
	d.o.card.map_bars = 1;
	d.card = nvd_card_open(&d.o.card, err, sizeof(err));
	if (!d.card) {
		nvd_err("%s", err);
		return 1;
	}
	if (d.card->irq_fd < 0) {
		nvd_err("%s: no interrupt delivery for this card yet", d.card->desc);
		d.card->ops->destroy(d.card);
		return 1;
	}
	/* Watched before the socket exists: whoever sees it may stop nvd at once */
	struct event *sigint = evsignal_new(d.base, SIGINT, on_signal, &d);
	struct event *sigterm = evsignal_new(d.base, SIGTERM, on_signal, &d);
	if (!sigint || !sigterm || event_add(sigint, NULL) < 0 || event_add(sigterm, NULL) < 0) {
		nvd_err("cannot watch signals");
		d.card->ops->destroy(d.card);
		return 1;
	}
	if (vnc && nvd_vnc_start(vnc, &d, err, sizeof(err)) < 0) {
		nvd_err("%s", err);
		nvd_vnc_free(vnc);
		d.card->ops->destroy(d.card);
		return 1;
	}
	if (nvd_fifo_init(&d, err, sizeof(err)) < 0 ||
	    (nvd_disp_init(&d), nvd_server_listen(&d, err, sizeof(err)) < 0)) {
		nvd_err("%s", err);
		d.card->ops->destroy(d.card);
		return 1;
	}
	d.irq_evt = event_new(d.base, d.card->irq_fd, EV_READ | EV_PERSIST, on_irq, &d);
	if (!d.irq_evt || event_add(d.irq_evt, NULL) < 0) {
		nvd_err("cannot watch the card's interrupts");
		return 1;
	}
	if (nvd_watchdog_start(&d) < 0) {
		nvd_err("cannot start the watchdog");
		return 1;
	}
	nvd_log(0, "%s%s; listening on %s", d.card->desc,
		d.o.card.sim_check ? ", accesses checked (--sim-check)" : "", d.sock_path);
	sd_notifyf(0, "READY=1\nSTATUS=%s; listening on %s", d.card->desc, d.sock_path);
	struct event *sd_watchdog = NULL;
	if (sd_watchdog_enabled(0, &wd_usec) > 0) {
		struct timeval half = { (time_t)(wd_usec / 2000000), (suseconds_t)(wd_usec / 2 % 1000000) };
		sd_watchdog = event_new(d.base, -1, EV_PERSIST, on_systemd_watchdog, NULL);
		if (!sd_watchdog || event_add(sd_watchdog, &half) < 0) {
			nvd_err("cannot start systemd's watchdog pings");
			return 1;
		}
	}
	event_base_dispatch(d.base);
	nvd_vnc_free(vnc);
	nvd_oracle_poll(&d);

	if (sd_watchdog)
		event_free(sd_watchdog);
	nvd_watchdog_stop(&d);
	nvd_server_close(&d, d.stop_why[0] ? d.stop_why : "nvd is shutting down");
	nvd_disp_fini(&d);
	nvd_fifo_fini(&d);
	event_free(d.irq_evt);
	event_free(sigint);
	event_free(sigterm);
	d.card->ops->destroy(d.card);
	event_base_free(d.base);
	return 0;
}
