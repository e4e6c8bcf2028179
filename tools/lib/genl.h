/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink plumbing shared by the project's tools (sunh, superp):
 * a libmnl socket, requests with extack, argument helpers.
 */
#ifndef TOOLS_GENL_H
#define TOOLS_GENL_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

extern struct mnl_socket *nl;
extern const char *progname;	/* prefix of error messages */

void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);
/* Usage errors, as iproute2 words them: named, a pointer to help, exit 2. */
void __attribute__((noreturn)) unknown_object(const char *object);
void __attribute__((noreturn)) unknown_option(const char *option);

/*
 * mnl_cb_run2() hands the same @data to data and control callbacks, so
 * every request passes a struct reply: the error callback stores the
 * extack message, offset and policy range in it, data callbacks use @arg.
 */
struct reply {
	const char *ext;	/* NLMSGERR_ATTR_MSG */
	int off;		/* NLMSGERR_ATTR_OFFS into the request, or -1 */
	bool range;		/* the policy gave min and max */
	uint64_t min, max;
	bool intr;		/* a dump changed while it ran (NLM_F_DUMP_INTR) */
	void *arg;
};

struct nlmsghdr *genl_msg(void *buf, uint16_t type, uint8_t cmd,
			  uint8_t version, uint16_t flags);
void genl_send(struct nlmsghdr *nlh, struct reply *r);
int genl_receive(unsigned int req_seq, mnl_cb_t cb, struct reply *r,
		 int timeout_ms);
int genl_request(struct nlmsghdr *nlh, mnl_cb_t cb, struct reply *r);
void genl_check(int err, struct reply *r, const char *what);
uint16_t genl_open(const char *family, const char *mcgrp, uint32_t *group);
uint16_t genl_family(const char *family);

bool matches(const char *arg, const char *word);
unsigned long get_num(const char *s, unsigned long max, const char *what);

#endif /* TOOLS_GENL_H */
