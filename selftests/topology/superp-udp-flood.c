// SPDX-License-Identifier: GPL-2.0
/*
 * superp-udp-flood: send COUNT UDP datagrams of 16 bytes to IP:PORT at
 * about RATE a second (sendmmsg, 32 a call), then print how many went.
 * For topology/quiet_guest.sh: nothing needs to listen at the other end
 * (the socket is not connected, so the port unreachable answers are not
 * reported back), and no server process runs there to allocate memory.
 *
 *   superp-udp-flood IP PORT COUNT RATE
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 32

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char payload[16] = "superp-flood";
	struct mmsghdr msgs[BATCH];
	struct iovec iov = { payload, sizeof(payload) };
	struct sockaddr_in to = { .sin_family = AF_INET };
	long count, rate, sent = 0;
	double t0;
	int fd, i, n;

	if (argc != 5 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: %s IP PORT COUNT RATE\n", argv[0]);
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	count = atol(argv[3]);
	rate = atol(argv[4]);
	if (count <= 0 || rate <= 0) {
		fprintf(stderr, "%s: COUNT and RATE must be positive\n", argv[0]);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = sizeof(to);
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now();
	while (sent < count) {
		double ahead = (double)sent / rate - (now() - t0);

		/* Hold the rate: a burst at a time, then sleep off the lead. */
		if (ahead > 0.001) {
			struct timespec ts;

			ts.tv_sec = (time_t)ahead;
			ts.tv_nsec = (long)((ahead - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
		n = sendmmsg(fd, msgs, count - sent < BATCH ? count - sent : BATCH, 0);
		if (n < 0) {
			perror("sendmmsg");
			return 1;
		}
		sent += n;
	}
	printf("%ld datagrams sent in %.1f s\n", sent, now() - t0);
	return 0;
}
