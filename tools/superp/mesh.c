// SPDX-License-Identifier: GPL-2.0
/*
 * superp mesh up|down FILE: the static form of the spec's connection
 * manager. FILE lists the nodes of a SUPERp domain; every node that reads
 * it installs its connections to all the others, with CIDs that agree
 * without any exchange (Documentation/superp-admin.rst, "Mesh files"):
 *
 *   the connection of node i toward node j has local CID base + j and
 *   remote CID base + i (i, j: positions of the nodes in FILE from 0),
 *
 * so node j's connection toward i has local CID base + i, the remote CID
 * i gave it. It needs base + (number of nodes) <= pdl_conn_per_xpu.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sunh_netlink.h>
#include <rdma/superp_netlink.h>

#include "../lib/genl.h"
#include "superp.h"

#define MAX_NODES	4096
#define MAX_LINES	8192
#define MAX_WORDS	64

struct node {
	char *name;
	int family;		/* AF_INET, AF_INET6, or 0 for a SUNH address */
	unsigned char addr[16];
	char *text;
};

struct line {
	int n, lineno;
	char *w[MAX_WORDS];
};

static struct node nodes[MAX_NODES];
static int nnodes;
static struct line lines[MAX_LINES];
static int nlines;
static unsigned long cidbase;

static void parse_node(const struct line *l)
{
	struct node *n = &nodes[nnodes];
	int i;

	if (l->n != 2)
		die("line %d: a node is NAME ADDRESS", l->lineno);
	if (nnodes == MAX_NODES)
		die("line %d: more than %d nodes", l->lineno, MAX_NODES);
	for (i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].name, l->w[0]))
			die("line %d: node %s listed twice", l->lineno, l->w[0]);
	n->name = l->w[0];
	n->text = l->w[1];
	if (inet_pton(AF_INET, l->w[1], n->addr) == 1)
		n->family = AF_INET;
	else if (inet_pton(AF_INET6, l->w[1], n->addr) == 1)
		n->family = AF_INET6;
	else
		*(uint16_t *)n->addr = get_num(l->w[1], 65535, "address");
	nnodes++;
}

static void read_file(const char *path)
{
	char *text = NULL, *p, *save, *tok;
	size_t cap = 0;
	struct line *l;
	FILE *f;
	int lineno = 0;

	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (getline(&text, &cap, f) > 0) {
		lineno++;
		p = strchr(text, '#');
		if (p)
			*p = 0;
		if (nlines == MAX_LINES)
			die("%s: too many lines", path);
		l = &lines[nlines];
		l->n = 0;
		l->lineno = lineno;
		for (tok = strtok_r(text, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (l->n == MAX_WORDS)
				die("line %d: too many words", lineno);
			l->w[l->n++] = tok;
		}
		if (!l->n)
			continue;
		nlines++;
		if (!strcmp(l->w[0], "cidbase")) {
			if (l->n != 2)
				die("line %d: cidbase N", lineno);
			cidbase = get_num(l->w[1], 4095, "cidbase");
		} else if (strcmp(l->w[0], "defaults") && strcmp(l->w[0], "pair")) {
			parse_node(l);
		}
		text = NULL;	/* the words point into it */
		cap = 0;
	}
	free(text);
	fclose(f);
	if (nnodes < 2)
		die("%s: a mesh needs at least two nodes", path);
}

static int node_index(const char *name, int lineno)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].name, name))
			return i;
	die("line %d: no node %s", lineno, name);
}

/* Settings of the pair (a, b): "defaults" lines, then its "pair" lines. */
static void pair_settings(int a, int b, struct conn_settings *s)
{
	const struct line *l;
	int i, k, n, first;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < nlines; i++) {
			l = &lines[i];
			first = k ? 3 : 1;
			if (strcmp(l->w[0], k ? "pair" : "defaults"))
				continue;
			if (k) {
				if (l->n < 3)
					die("line %d: pair NAME NAME SETTINGS",
					    l->lineno);
				if (!((node_index(l->w[1], l->lineno) == a &&
				       node_index(l->w[2], l->lineno) == b) ||
				      (node_index(l->w[1], l->lineno) == b &&
				       node_index(l->w[2], l->lineno) == a)))
					continue;
			}
			for (n = first; n < l->n;) {
				int used = parse_setting(s, l->n - n, (char **)l->w + n);

				if (!used)
					die("line %d: unknown setting \"%s\"",
					    l->lineno, l->w[n]);
				n += used;
			}
		}
	}
}

/* The namespace's SUPERp subnet, from the sunh family (if loaded). */
struct subnet {
	int family;		/* 0: none */
	unsigned char prefix[16];
	unsigned int plen, bits;
};

static int subnet_cb(const struct nlmsghdr *nlh, void *data)
{
	struct subnet *s = ((struct reply *)data)->arg;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case SUNH_A_PREFIX4:
			s->family = AF_INET;
			memcpy(s->prefix, mnl_attr_get_payload(a), 4);
			break;
		case SUNH_A_PREFIX6:
			s->family = AF_INET6;
			memcpy(s->prefix, mnl_attr_get_payload(a), 16);
			break;
		case SUNH_A_PREFIX_LEN:
			s->plen = mnl_attr_get_u8(a);
			break;
		case SUNH_A_ADDR_BITS:
			s->bits = mnl_attr_get_u8(a);
			break;
		}
	}
	return MNL_CB_OK;
}

static void subnet_get(struct subnet *s)
{
	static char mbuf[1024];
	uint16_t id = genl_family(SUNH_GENL_NAME);
	struct reply r = { .arg = s };
	struct nlmsghdr *nlh;

	if (!id)
		return;
	nlh = genl_msg(mbuf, id, SUNH_CMD_CONFIG_GET, SUNH_GENL_VERSION, 0);
	if (genl_request(nlh, subnet_cb, &r))
		s->family = 0;
}

/*
 * The SUNH address of IP address @a (family @af): its host part in the
 * subnet when that fits the address width, else -1 (Documentation/sunh.rst).
 */
static long sunh_addr_of(const struct subnet *s, int af, const unsigned char *a)
{
	unsigned int i, bit, len = af == AF_INET ? 32 : 128;
	long host = 0;

	if (af != s->family)
		return -1;
	for (i = 0; i < len; i++) {
		bit = a[i / 8] >> (7 - i % 8) & 1;
		if (i >= s->plen)
			host = host << 1 | bit;
		else if (bit != (s->prefix[i / 8] >> (7 - i % 8) & 1u))
			return -1;
	}
	return host < 1L << s->bits ? host : -1;
}

/*
 * This node: --self, or the node whose address is on @ifname: an IP
 * address, or a SUNH address that one of its IP addresses has in the
 * namespace's SUPERp subnet.
 */
static int find_self(const char *self, const char *ifname)
{
	struct subnet sub = {};
	struct ifaddrs *ifa, *i;
	const void *a;
	int n, found = -1;
	long sunh;

	if (self)
		return node_index(self, 0);
	for (n = 0; n < nnodes; n++)
		if (!nodes[n].family) {
			subnet_get(&sub);
			break;
		}
	if (getifaddrs(&ifa))
		die("getifaddrs: %s", strerror(errno));
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || strcmp(i->ifa_name, ifname))
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			a = &((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		else if (i->ifa_addr->sa_family == AF_INET6)
			a = &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
		else
			continue;
		sunh = sunh_addr_of(&sub, i->ifa_addr->sa_family, a);
		for (n = 0; n < nnodes; n++) {
			if (nodes[n].family == i->ifa_addr->sa_family &&
			    !memcmp(nodes[n].addr, a, nodes[n].family == AF_INET ? 4 : 16))
				found = n;
			if (!nodes[n].family && sunh == *(uint16_t *)nodes[n].addr)
				found = n;
		}
	}
	freeifaddrs(ifa);
	if (found < 0)
		die("no node of the file has an address of %s (give --self NAME)",
		    ifname);
	return found;
}

static int pair_encap(int a, int b)
{
	if (nodes[a].family != nodes[b].family)
		die("nodes %s and %s have addresses of different kinds",
		    nodes[a].name, nodes[b].name);
	switch (nodes[a].family) {
	case AF_INET:
		return SUPERP_ENCAP_UDP4;
	case AF_INET6:
		return SUPERP_ENCAP_UDP6;
	}
	return SUPERP_ENCAP_SUNH;
}

static void put_node_addr(struct nlmsghdr *nlh, const struct node *n,
			  bool local)
{
	switch (n->family) {
	case AF_INET:
		mnl_attr_put(nlh, local ? SUPERP_A_LOCAL_IP4 : SUPERP_A_REMOTE_IP4,
			     4, n->addr);
		break;
	case AF_INET6:
		mnl_attr_put(nlh, local ? SUPERP_A_LOCAL_IP6 : SUPERP_A_REMOTE_IP6,
			     16, n->addr);
		break;
	default:
		mnl_attr_put_u16(nlh, local ? SUPERP_A_LOCAL_SUNH :
				 SUPERP_A_REMOTE_SUNH, *(uint16_t *)n->addr);
	}
}

int cmd_mesh(int argc, char **argv)
{
	const char *dev = NULL, *self_name = NULL, *file = NULL;
	char ifname[64], what[128];
	uint32_t conn_per_xpu;
	struct nlmsghdr *nlh;
	struct reply r = {};
	bool up;
	int self, j, err, done = 0;

	if (argc < 2 || (strcmp(argv[0], "up") && strcmp(argv[0], "down")))
		die("mesh up|down FILE [dev DEV] [--self NAME]");
	up = !strcmp(argv[0], "up");
	file = argv[1];
	for (argc -= 2, argv += 2; argc > 1; argc -= 2, argv += 2) {
		if (!strcmp(argv[0], "dev"))
			dev = argv[1];
		else if (!strcmp(argv[0], "--self"))
			self_name = argv[1];
		else
			die("unknown argument \"%s\"", argv[0]);
	}
	if (argc)
		die("unknown argument \"%s\"", argv[0]);
	read_file(file);
	dev_info(&dev, ifname, &conn_per_xpu);
	self = find_self(self_name, ifname);
	if (cidbase + nnodes > conn_per_xpu)
		die("%d nodes from cidbase %lu need pdl_conn_per_xpu >= %lu on %s (it is %u)",
		    nnodes, cidbase, cidbase + nnodes, dev, conn_per_xpu);

	for (j = 0; j < nnodes; j++) {
		struct conn_settings s = { .tclass = -1, .ordered = -1 };

		if (j == self)
			continue;
		snprintf(what, sizeof(what), "mesh %s: %s to %s", up ? "up" : "down",
			 nodes[self].name, nodes[j].name);
		nlh = msg_start(up ? SUPERP_CMD_CONN_ADD : SUPERP_CMD_CONN_DEL, 0);
		mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, dev);
		mnl_attr_put_u16(nlh, SUPERP_A_LCID, cidbase + j);
		if (!up) {
			/* Already gone is fine: down undoes a partial up. */
			err = genl_request(nlh, NULL, &r);
			if (err && err != -ENOENT)
				genl_check(err, &r, what);
			done += !err;
			continue;
		}
		mnl_attr_put_u16(nlh, SUPERP_A_RCID, cidbase + self);
		mnl_attr_put_u8(nlh, SUPERP_A_ENCAP, pair_encap(self, j));
		put_node_addr(nlh, &nodes[self], true);
		put_node_addr(nlh, &nodes[j], false);
		pair_settings(self, j, &s);
		put_settings(nlh, &s);
		request_or_die(nlh, NULL, NULL, what);
		done++;
	}
	printf("mesh %s: %s is node %d of %d, %d connection%s %s on %s\n",
	       up ? "up" : "down", nodes[self].name, self, nnodes, done,
	       done == 1 ? "" : "s", up ? "added" : "removed", dev);
	return 0;
}
