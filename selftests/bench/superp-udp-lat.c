// SPDX-License-Identifier: GPL-2.0
/*
 * superp-udp-lat: the link's own round trip, a UDP ping-pong between two
 * hosts, for make bench's latency floor (Documentation/performance.rst).
 *
 *   superp-udp-lat -p PORT [-n ITERS] [-s SIZE] [-t MS] [-w SECONDS] [-e]
 *   superp-udp-lat -p PORT [-n ITERS] [-s SIZE] [-t MS] [-w SECONDS] [-e] SERVER_IP
 *
 * Without SERVER_IP it serves: it echoes every datagram back to its sender
 * and exits 0 once it has echoed ITERS pings. Given one, it measures: it
 * sends a ping of SIZE bytes (default 2, at least 2: the first two bytes
 * carry a tag), waits for its echo, and times that round trip with
 * CLOCK_MONOTONIC, ITERS times (default 1000), then prints one line
 *
 *   ITERS round trips of SIZE bytes, us: min=A typical=B p99=C max=D
 *
 * typical the median, p99 the 99th percentile (nearest rank), like
 * perftest's t_typical and 99% percentile (which halves the round trip of
 * its SEND and WRITE ping-pongs: the caller does that, not this program).
 * Both sides spin on a non-blocking receive, as perftest polls its CQ, so
 * that the floor holds no wake-up the contenders do not pay (between TCG
 * guests a round trip that wakes an idle vCPU took about twice as long);
 * -e sleeps in poll() instead (perftest's -e).
 *
 * Before the timed pings the client sends hellos (tag 0) every 100 ms until
 * one comes back, for at most -w SECONDS (default 10): the server may not
 * be listening yet, and the first exchange also resolves the neighbour.
 * The server waits as long for its first datagram.
 *
 * A lost datagram fails the run (exit 1 and a message naming the ping)
 * rather than being sent again: a resent ping's round trip holds the
 * timeout, and one left out would bias the percentiles low; on a link
 * without loss a missing echo means the figure would not be the link's.
 * Either side gives up when nothing comes for -t MS (default 1000) once
 * the timed pings have begun. Echoes of an earlier ping or of a hello
 * (late, not lost) are dropped by their tag.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE	65507	/* a UDP payload over IPv4 */
#define MAX_ITERS	10000000
#define HELLO_MS	100	/* between hellos while the server is not up */

static struct {
	const char *server;
	int port;
	long iters;
	int size;
	int timeout_ms;
	int wait_s;
	int events;
} cfg = { .iters = 1000, .size = 2, .timeout_ms = 1000, .wait_s = 10 };

static unsigned char buf[MAX_SIZE + 1];

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The tag of ping @i (from 1): never 0, which is a hello's. */
static uint16_t ping_tag(long i)
{
	return (uint16_t)((i - 1) % 65535 + 1);
}

static void set_tag(uint16_t tag)
{
	buf[0] = tag >> 8;
	buf[1] = tag & 0xff;
}

static uint16_t get_tag(void)
{
	return (uint16_t)(buf[0] << 8 | buf[1]);
}

/*
 * The next datagram into buf, from @from (may be NULL), before @deadline
 * (CLOCK_MONOTONIC, ns): its length, or -1 with errno set, ETIMEDOUT when
 * the deadline passed. By default it spins on a non-blocking receive, as
 * perftest's latency tests poll their completion queue; with -e it sleeps
 * in poll() as perftest does with -e.
 */
static ssize_t receive(int fd, struct sockaddr_storage *from, socklen_t *len,
		       int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t left;
	ssize_t n;
	int r;

	for (;;) {
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)from, len);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return n;
		left = deadline - now_ns();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (!cfg.events)
			continue;
		r = poll(&p, 1, (int)((left + 999999) / 1000000));
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static int serve(int fd)
{
	struct sockaddr_storage from;
	socklen_t len;
	long echoed = 0;
	int64_t wait_ns = (int64_t)cfg.wait_s * 1000000000;
	ssize_t n;
	int started = 0;

	while (echoed < cfg.iters) {
		len = sizeof(from);
		n = receive(fd, &from, &len, now_ns() + wait_ns);
		if (n < 0 && errno == ETIMEDOUT && !started) {
			fprintf(stderr, "superp-udp-lat: no client on port %d in %d s\n",
				cfg.port, cfg.wait_s);
			return 1;
		}
		if (n < 0 && errno == ETIMEDOUT) {
			fprintf(stderr, "superp-udp-lat: ping %ld of %ld: none in %d ms (lost)\n",
				echoed + 1, cfg.iters, cfg.timeout_ms);
			return 1;
		}
		if (n < 0) {
			fprintf(stderr, "superp-udp-lat: recvfrom: %s\n", strerror(errno));
			return 1;
		}
		if (n != cfg.size) {
			fprintf(stderr, "superp-udp-lat: a datagram of %zd bytes, not %d\n",
				n, cfg.size);
			return 1;
		}
		if (sendto(fd, buf, n, 0, (struct sockaddr *)&from, len) != n) {
			fprintf(stderr, "superp-udp-lat: sendto: %s\n", strerror(errno));
			return 1;
		}
		if (get_tag())
			echoed++;
		/* Once a client is there, a gap of the timeout means a loss. */
		wait_ns = (int64_t)cfg.timeout_ms * 1000000;
		started = 1;
	}
	return 0;
}

/*
 * Send the datagram tagged @tag and wait until its echo comes back or
 * @deadline passes, dropping echoes with another tag: 1 on the echo, 0 on
 * the deadline, -1 with errno set on an error (ECONNREFUSED: an ICMP port
 * unreachable, nobody listening yet).
 */
static int exchange(int fd, uint16_t tag, int64_t deadline)
{
	ssize_t n;

	set_tag(tag);
	if (send(fd, buf, cfg.size, 0) != cfg.size)
		return -1;
	for (;;) {
		n = receive(fd, NULL, NULL, deadline);
		if (n < 0)
			return errno == ETIMEDOUT ? 0 : -1;
		if (n != cfg.size) {
			errno = EPROTO;
			return -1;
		}
		if (get_tag() == tag)
			return 1;
	}
}

static void sleep_until(int64_t deadline)
{
	struct timespec ts = { .tv_sec = deadline / 1000000000,
			       .tv_nsec = deadline % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int cmp_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int measure(int fd)
{
	int64_t give_up = now_ns() + (int64_t)cfg.wait_s * 1000000000;
	int64_t *rtt, t0, next, typical;
	long i;
	int r;

	/*
	 * Hellos until the server answers one; a refusal (no socket there
	 * yet) comes back at once, so the rest of the period is slept.
	 */
	do {
		next = now_ns() + HELLO_MS * 1000000;
		r = exchange(fd, 0, next);
		if (r < 0 && errno != ECONNREFUSED) {
			fprintf(stderr, "superp-udp-lat: hello: %s\n", strerror(errno));
			return 1;
		}
		if (r < 0)
			sleep_until(next);
	} while (r != 1 && now_ns() < give_up);
	if (r != 1) {
		fprintf(stderr, "superp-udp-lat: no answer from %s port %d in %d s\n",
			cfg.server, cfg.port, cfg.wait_s);
		return 1;
	}

	rtt = calloc(cfg.iters, sizeof(*rtt));
	if (!rtt) {
		fprintf(stderr, "superp-udp-lat: no memory for %ld samples\n", cfg.iters);
		return 1;
	}
	for (i = 1; i <= cfg.iters; i++) {
		t0 = now_ns();
		r = exchange(fd, ping_tag(i), t0 + (int64_t)cfg.timeout_ms * 1000000);
		if (r != 1) {
			fprintf(stderr, "superp-udp-lat: ping %ld of %ld: %s\n", i, cfg.iters,
				r ? strerror(errno) : "no echo in time (lost)");
			free(rtt);
			return 1;
		}
		rtt[i - 1] = now_ns() - t0;
	}

	qsort(rtt, cfg.iters, sizeof(*rtt), cmp_ns);
	typical = rtt[(cfg.iters - 1) / 2];
	if (cfg.iters % 2 == 0)
		typical = (typical + rtt[cfg.iters / 2]) / 2;
	printf("%ld round trips of %d bytes, us: min=%.2f typical=%.2f p99=%.2f max=%.2f\n",
	       cfg.iters, cfg.size, rtt[0] / 1e3, typical / 1e3,
	       rtt[(cfg.iters * 99 + 99) / 100 - 1] / 1e3, rtt[cfg.iters - 1] / 1e3);
	free(rtt);
	return 0;
}

/* A socket bound to the port (server) or connected to the server (client). */
static int open_socket(void)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM,
				  .ai_flags = cfg.server ? 0 : AI_PASSIVE };
	struct addrinfo *res;
	char service[16];
	int fd, err;

	snprintf(service, sizeof(service), "%d", cfg.port);
	err = getaddrinfo(cfg.server, service, &hints, &res);
	if (err) {
		fprintf(stderr, "superp-udp-lat: %s: %s\n", cfg.server ? cfg.server : "*",
			gai_strerror(err));
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype, 0);
	if (fd >= 0 &&
	    (cfg.server ? connect(fd, res->ai_addr, res->ai_addrlen) :
			  bind(fd, res->ai_addr, res->ai_addrlen))) {
		fprintf(stderr, "superp-udp-lat: %s port %d: %s\n",
			cfg.server ? "connect" : "bind", cfg.port, strerror(errno));
		close(fd);
		fd = -1;
	} else if (fd < 0) {
		fprintf(stderr, "superp-udp-lat: socket: %s\n", strerror(errno));
	}
	freeaddrinfo(res);
	return fd;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s -p PORT [-n ITERS] [-s SIZE] [-t MS] [-w SECONDS] [-e] [SERVER_IP]\n",
		prog);
	exit(2);
}

/* A decimal number in [@min, @max], or the usage. */
static long number(const char *s, long min, long max, const char *prog)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		usage(prog);
	return v;
}

int main(int argc, char **argv)
{
	int c, fd, rc;

	while ((c = getopt(argc, argv, "p:n:s:t:w:e")) != -1) {
		switch (c) {
		case 'e':
			cfg.events = 1;
			break;
		case 'p':
			cfg.port = number(optarg, 1, 65535, argv[0]);
			break;
		case 'n':
			cfg.iters = number(optarg, 1, MAX_ITERS, argv[0]);
			break;
		case 's':
			cfg.size = number(optarg, 2, MAX_SIZE, argv[0]);
			break;
		case 't':
			cfg.timeout_ms = number(optarg, 1, 600000, argv[0]);
			break;
		case 'w':
			cfg.wait_s = number(optarg, 1, 3600, argv[0]);
			break;
		default:
			usage(argv[0]);
		}
	}
	if (!cfg.port || optind + 1 < argc)
		usage(argv[0]);
	cfg.server = optind < argc ? argv[optind] : NULL;

	fd = open_socket();
	if (fd < 0)
		return 1;
	rc = cfg.server ? measure(fd) : serve(fd);
	close(fd);
	return rc;
}
