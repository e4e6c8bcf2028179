/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the verbs test programs of selftests/verbs share: the TCP control
 * connection of a two-host test (one side listens, the other connects, as
 * ibv_rc_pingpong does) and taking an RC QP from INIT to RTS toward a
 * peer named by GID and QP number. Each returns 0 or an errno (the
 * connection: a socket, or -1 with errno set) and reports nothing: the
 * program says what failed its own way.
 */
#ifndef SUPERP_VERBS_TEST_H
#define SUPERP_VERBS_TEST_H

#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/verbs.h>

/*
 * The control connection: with @server, connect to it on TCP @port; else
 * listen there and accept one peer. A socket, or -1 with errno set.
 */
static inline int ctl_connect(const char *server, int port)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM,
				  .ai_flags = server ? 0 : AI_PASSIVE };
	struct addrinfo *res;
	char service[16];
	int fd, c = -1, one = 1, err;

	snprintf(service, sizeof(service), "%d", port);
	if (getaddrinfo(server, service, &hints, &res)) {
		errno = EHOSTUNREACH;
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype, 0);
	if (fd >= 0 && server) {
		if (!connect(fd, res->ai_addr, res->ai_addrlen))
			c = fd;
	} else if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, res->ai_addr, res->ai_addrlen) && !listen(fd, 1))
			c = accept(fd, NULL, NULL);
	}
	err = errno;
	if (fd >= 0 && c != fd)
		close(fd);
	freeaddrinfo(res);
	errno = err;
	return c;
}

/* All @len bytes of @p written (@wr) or read: 0, the errno, or EPIPE. */
static inline int ctl_xfer(int fd, void *p, size_t len, bool wr)
{
	while (len) {
		ssize_t n = wr ? write(fd, p, len) : read(fd, p, len);

		if (n <= 0)
			return n ? errno : EPIPE;
		p = (char *)p + n;
		len -= n;
	}
	return 0;
}

/* How an RC QP goes to RTR and RTS (port 1, PSNs 0, retries 7). */
struct rc_path {
	const union ibv_gid *dgid;
	uint32_t dest_qpn;
	int sgid_index;
	uint8_t hop_limit;
	enum ibv_mtu mtu;
	uint8_t rd_atomic;	/* both ways */
};

/* @qp, in INIT, to RTR toward @p then to RTS: 0 or the errno. */
static inline int rc_to_rts(struct ibv_qp *qp, const struct rc_path *p)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR, .path_mtu = p->mtu,
		.dest_qp_num = p->dest_qpn,
		.max_dest_rd_atomic = p->rd_atomic, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = *p->dgid,
				      .sgid_index = p->sgid_index,
				      .hop_limit = p->hop_limit } },
	};
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			    IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			    IBV_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;	/* forever: the peer reposts when it can */
	a.max_rd_atomic = p->rd_atomic;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

#endif /* SUPERP_VERBS_TEST_H */
