// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing shared by the project's tools (see genl.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "genl.h"

struct mnl_socket *nl;
const char *progname = "genl";
static char rxbuf[65536];
static unsigned int seq;

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void unknown_object(const char *object)
{
	fprintf(stderr, "Object \"%s\" is unknown, try \"%s help\".\n",
		object, progname);
	exit(2);
}

void unknown_option(const char *option)
{
	fprintf(stderr, "%s: unknown option \"%s\", try \"%s help\".\n",
		progname, option, progname);
	exit(2);
}

/* The range the kernel's policy allows, from NLMSGERR_ATTR_POLICY. */
static void err_policy(const struct nlattr *nest, struct reply *r)
{
	const struct nlattr *a;
	bool lo = false, hi = false;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			r->min = mnl_attr_get_u64(a);
			lo = true;
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			r->max = mnl_attr_get_u64(a);
			hi = true;
			break;
		}
	}
	r->range = lo && hi;
}

static int err_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct reply *r = data;
	const struct nlattr *attr;
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		off = sizeof(*err);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
		mnl_attr_for_each(attr, nlh, off) {
			switch (mnl_attr_get_type(attr)) {
			case NLMSGERR_ATTR_MSG:
				r->ext = mnl_attr_get_str(attr);
				break;
			case NLMSGERR_ATTR_OFFS:
				r->off = mnl_attr_get_u32(attr);
				break;
			case NLMSGERR_ATTR_POLICY:
				err_policy(attr, r);
				break;
			}
		}
	}
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* The end of a dump: its payload is the dump's status, maybe an error. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;
	const struct nlattr *attr;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_for_each(attr, nlh, sizeof(err))
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
				r->ext = mnl_attr_get_str(attr);
	errno = -err;
	return MNL_CB_ERROR;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static int overrun_cb(const struct nlmsghdr *nlh, void *data)
{
	errno = ENOSPC;
	return MNL_CB_ERROR;
}

/*
 * libmnl gives up on a dump at its first message marked NLM_F_DUMP_INTR
 * (errno EINTR) and leaves the rest of the dump in the socket. Note the
 * mark in @r instead and let the dump be read to its end: the caller
 * decides what an inconsistent dump is worth (sunh route show asks again).
 */
static void take_dump_intr(void *buf, int len, struct reply *r)
{
	struct nlmsghdr *nlh;

	for (nlh = buf; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
			nlh->nlmsg_flags &= ~NLM_F_DUMP_INTR;
			r->intr = true;
		}
	}
}

/* Start a generic netlink request in @buf. */
struct nlmsghdr *genl_msg(void *buf, uint16_t type, uint8_t cmd,
			  uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/* Send a request that asks for an ACK; its answers are read by genl_receive(). */
void genl_send(struct nlmsghdr *nlh, struct reply *r)
{
	r->ext = NULL;
	r->off = -1;
	r->range = false;
	r->intr = false;
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("send: %s", strerror(errno));
}

/*
 * Run @cb on the messages that arrive until one ends the exchange (the
 * ACK or error of the request, DONE, or @cb returning MNL_CB_STOP).
 * @req_seq: sequence number the messages must carry (0: any, for
 * notifications). @timeout_ms: -1 waits as long as it takes.
 * Return: 0, -ETIMEDOUT, -EINTR (a signal while waiting), or -errno.
 */
int genl_receive(unsigned int req_seq, mnl_cb_t cb, struct reply *r,
		 int timeout_ms)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(nl), .events = POLLIN };
	unsigned int portid = mnl_socket_get_portid(nl);
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {};
	int ret;

	/* With a control array, mnl has no defaults for these: set them all. */
	ctl[NLMSG_NOOP] = noop_cb;
	ctl[NLMSG_ERROR] = err_cb;
	ctl[NLMSG_DONE] = done_cb;
	ctl[NLMSG_OVERRUN] = overrun_cb;
	do {
		if (timeout_ms >= 0) {
			ret = poll(&pfd, 1, timeout_ms);
			if (ret < 0 && errno == EINTR)
				return -EINTR;
			if (ret < 0)
				die("poll: %s", strerror(errno));
			if (!ret)
				return -ETIMEDOUT;
		}
		ret = mnl_socket_recvfrom(nl, rxbuf, sizeof(rxbuf));
		if (ret <= 0)
			die("receive: %s", strerror(errno));
		take_dump_intr(rxbuf, ret, r);
		ret = mnl_cb_run2(rxbuf, ret, req_seq, portid, cb, r,
				  ctl, NLMSG_MIN_TYPE);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

/*
 * Send a request and run @cb on every answer; returns 0 or -errno. The
 * request stays intact (answers go to another buffer), so that an error
 * offset can be looked up in it.
 */
int genl_request(struct nlmsghdr *nlh, mnl_cb_t cb, struct reply *r)
{
	genl_send(nlh, r);
	return genl_receive(nlh->nlmsg_seq, cb, r, -1);
}

void genl_check(int err, struct reply *r, const char *what)
{
	if (!err)
		return;
	if (r->ext)
		die("%s: %s (%s)", what, strerror(-err), r->ext);
	die("%s: %s", what, strerror(-err));
}

struct family {
	uint16_t id;
	const char *mcgrp;
	uint32_t group;
};

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family *f = ((struct reply *)data)->arg;
	const struct nlattr *attr, *grp, *a;
	const char *name;
	uint32_t id;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
			f->id = mnl_attr_get_u16(attr);
		if (mnl_attr_get_type(attr) != CTRL_ATTR_MCAST_GROUPS || !f->mcgrp)
			continue;
		mnl_attr_for_each_nested(grp, attr) {
			name = NULL;
			id = 0;
			mnl_attr_for_each_nested(a, grp) {
				if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
					name = mnl_attr_get_str(a);
				if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID)
					id = mnl_attr_get_u32(a);
			}
			if (name && !strcmp(name, f->mcgrp))
				f->group = id;
		}
	}
	return MNL_CB_OK;
}

/* Look @family up on the open socket; 0 when it is not there. */
static uint16_t genl_lookup(const char *family, struct family *f)
{
	static char buf[8192];
	struct reply r = { .arg = f };
	struct nlmsghdr *nlh;

	nlh = genl_msg(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	if (genl_request(nlh, family_cb, &r))
		return 0;
	return f->id;
}

/*
 * Open the socket and find @family (and the id of its multicast group
 * @mcgrp when not NULL); dies when the family is not there.
 */
uint16_t genl_open(const char *family, const char *mcgrp, uint32_t *group)
{
	struct family f = { .mcgrp = mcgrp };
	int one = 1;

	if (!nl) {
		nl = mnl_socket_open(NETLINK_GENERIC);
		if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
			die("netlink: %s", strerror(errno));
		mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
		mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	}
	if (!genl_lookup(family, &f))
		die("generic netlink family \"%s\" not found (is its module loaded?)",
		    family);
	if (mcgrp && !f.group)
		die("family \"%s\" has no multicast group \"%s\"", family, mcgrp);
	if (group)
		*group = f.group;
	return f.id;
}

/* Another family on the socket genl_open() opened; 0 when not there. */
uint16_t genl_family(const char *family)
{
	struct family f = {};

	return genl_lookup(family, &f);
}

bool matches(const char *arg, const char *word)
{
	return *arg && !strncmp(word, arg, strlen(arg));
}

unsigned long get_num(const char *s, unsigned long max, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max)
		die("invalid %s \"%s\"", what, s);
	return v;
}
