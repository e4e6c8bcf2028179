// SPDX-License-Identifier: GPL-2.0
/*
 * sunh: configure and test the SUNH network layer of SUPERp over the "sunh"
 * generic netlink family (iproute2 style). See Documentation/sunh.rst.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_packet.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sunh_netlink.h>

#include "../lib/genl.h"
#include "../lib/options.h"
#include "../lib/output.h"
#include "sunh-help.h"

#ifndef SUPERP_VERSION
#error "SUPERP_VERSION: the Makefile passes it (tools/lib/tool.mk)"
#endif

/* Looked up at the first request: help and usage errors need no module. */
static uint16_t family_id;
static char buf[32768];

/*
 * The usage is the manual's SYNOPSIS, generated from sunh.8.rst at build
 * time (tools/lib/rst2help.awk) so that --help and sunh(8) never differ.
 */
static void __attribute__((noreturn)) usage_to(FILE *f, int status)
{
	fputs(help_text, f);
	exit(status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, 2);
}

/* ---- netlink plumbing (tools/lib/genl.c) ---- */

static struct nlmsghdr *msg_start(uint8_t cmd, uint16_t flags)
{
	if (!family_id)
		family_id = genl_open(SUNH_GENL_NAME, NULL, NULL);
	return genl_msg(buf, family_id, cmd, SUNH_GENL_VERSION, flags);
}

/* Collect the top-level attributes of a sunh message. */
static const struct nlattr *attrs[SUNH_A_MAX + 1];

/* Payload length of the fixed-size attributes (0: any length). */
static const uint8_t attr_len[SUNH_A_MAX + 1] = {
	[SUNH_A_PREFIX4] = 4, [SUNH_A_PREFIX6] = 16, [SUNH_A_PREFIX_LEN] = 1,
	[SUNH_A_ADDR_BITS] = 1, [SUNH_A_HOP_LIMIT] = 1,
	[SUNH_A_FORWARDING] = 1, [SUNH_A_LEARNING] = 1, [SUNH_A_AGEING] = 4,
	[SUNH_A_UDP_PORT] = 2, [SUNH_A_ETHERTYPE] = 2, [SUNH_A_ADDR] = 2,
	[SUNH_A_IFINDEX] = 4, [SUNH_A_ORIGIN] = 1, [SUNH_A_AGE_MS] = 8,
	[SUNH_A_PACKETS] = 8, [SUNH_A_BYTES] = 8, [SUNH_A_TCLASS] = 1,
	[SUNH_A_SIZE] = 2, [SUNH_A_TIMEOUT_MS] = 4, [SUNH_A_SEQ] = 2,
	[SUNH_A_SADDR] = 2, [SUNH_A_RTT_NS] = 8, [SUNH_A_REQ_HOP_LIMIT] = 1,
	[SUNH_A_ECHO_RATE] = 4,
};

/* Attributes of the wrong size are ignored, as if absent. */
static void parse(const struct nlmsghdr *nlh)
{
	struct nlattr *attr;
	unsigned int t;

	memset(attrs, 0, sizeof(attrs));
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		t = mnl_attr_get_type(attr);
		if (t > SUNH_A_MAX ||
		    (attr_len[t] && mnl_attr_get_payload_len(attr) != attr_len[t]))
			continue;
		attrs[t] = attr;
	}
}

/* Values of attributes that may be missing (then 0). */
static uint8_t get_u8(int t)
{
	return attrs[t] ? mnl_attr_get_u8(attrs[t]) : 0;
}

static uint16_t get_u16(int t)
{
	return attrs[t] ? mnl_attr_get_u16(attrs[t]) : 0;
}

static uint32_t get_u32(int t)
{
	return attrs[t] ? mnl_attr_get_u32(attrs[t]) : 0;
}

static uint64_t get_u64(int t)
{
	return attrs[t] ? mnl_attr_get_u64(attrs[t]) : 0;
}

static int parse_cb(const struct nlmsghdr *nlh, void *data)
{
	parse(nlh);
	return MNL_CB_OK;
}

/* ---- argument helpers ---- */

static double get_seconds(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || end == s || v < 0 || v > 3600)
		die("invalid %s \"%s\"", what, s);
	return v;
}

static uint8_t get_onoff(const char *s)
{
	if (!strcmp(s, "on"))
		return 1;
	if (!strcmp(s, "off"))
		return 0;
	die("expected on or off, not \"%s\"", s);
}

static const char *origin_name(unsigned int o)
{
	static const char *const names[] = { "static", "resolved", "learned" };

	return o < 3 ? names[o] : "unknown";
}

static const char *const stat_names[__SUNH_STAT_MAX] = {
	[SUNH_STAT_RX_PACKETS] = "rx_packets",
	[SUNH_STAT_RX_BYTES] = "rx_bytes",
	[SUNH_STAT_RX_DELIVERED] = "rx_delivered",
	[SUNH_STAT_TX_PACKETS] = "tx_packets",
	[SUNH_STAT_TX_BYTES] = "tx_bytes",
	[SUNH_STAT_FWD_PACKETS] = "fwd_packets",
	[SUNH_STAT_ROUTES_RESOLVED] = "routes_resolved",
	[SUNH_STAT_ROUTES_LEARNED] = "routes_learned",
	[SUNH_STAT_ROUTES_AGED] = "routes_aged",
	[SUNH_STAT_RESOLVE_QUEUED] = "resolve_queued",
	[SUNH_STAT_ECHO_REQ_RX] = "echo_req_rx",
	[SUNH_STAT_ECHO_REP_TX] = "echo_rep_tx",
	[SUNH_STAT_ECHO_REP_RX] = "echo_rep_rx",
	[SUNH_STAT_RX_DROP_OTHERHOST] = "rx_drop_otherhost",
	[SUNH_STAT_RX_DROP_NOMEM] = "rx_drop_nomem",
	[SUNH_STAT_RX_DROP_TRUNCATED] = "rx_drop_truncated",
	[SUNH_STAT_RX_DROP_NO_SUBNET] = "rx_drop_no_subnet",
	[SUNH_STAT_RX_DROP_ADDR_RANGE] = "rx_drop_addr_range",
	[SUNH_STAT_RX_DROP_NOT_LOCAL] = "rx_drop_not_local",
	[SUNH_STAT_RX_DROP_UNKNOWN_NEXTHDR] = "rx_drop_unknown_nexthdr",
	[SUNH_STAT_RX_DROP_ECHO_MALFORMED] = "rx_drop_echo_malformed",
	[SUNH_STAT_RX_DROP_ECHO_UNMATCHED] = "rx_drop_echo_unmatched",
	[SUNH_STAT_FWD_DROP_HOP_LIMIT] = "fwd_drop_hop_limit",
	[SUNH_STAT_FWD_DROP_NO_ROUTE] = "fwd_drop_no_route",
	[SUNH_STAT_FWD_DROP_MTU] = "fwd_drop_mtu",
	[SUNH_STAT_FWD_DROP_NOMEM] = "fwd_drop_nomem",
	[SUNH_STAT_TX_DROP_NO_SUBNET] = "tx_drop_no_subnet",
	[SUNH_STAT_TX_DROP_ADDR_RANGE] = "tx_drop_addr_range",
	[SUNH_STAT_TX_DROP_NO_ROUTE] = "tx_drop_no_route",
	[SUNH_STAT_TX_DROP_NO_SOURCE] = "tx_drop_no_source",
	[SUNH_STAT_TX_DROP_NOMEM] = "tx_drop_nomem",
	[SUNH_STAT_TX_DROP_DEV] = "tx_drop_dev",
	[SUNH_STAT_RX_DROP_NO_DEV_ADDR] = "rx_drop_no_dev_addr",
	[SUNH_STAT_RX_DROP_SRC_PATH] = "rx_drop_src_path",
	[SUNH_STAT_FWD_DROP_NOT_DOMAIN] = "fwd_drop_not_domain",
	[SUNH_STAT_TX_DROP_NOT_DOMAIN] = "tx_drop_not_domain",
	[SUNH_STAT_RX_DROP_ECHO_RATELIMIT] = "rx_drop_echo_ratelimit",
	[SUNH_STAT_RX_DROP_BAD_SRC_MAC] = "rx_drop_bad_src_mac",
	[SUNH_STAT_TX_DROP_UNRESOLVED] = "tx_drop_unresolved",
	[SUNH_STAT_LEARN_HELD] = "learn_held",
};

/* ---- stats ---- */

/* The counters: as text lines, or as members of the object r->arg (-j). */
static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct json_object *obj = ((struct reply *)data)->arg;
	const struct nlattr *nest, *attr;
	unsigned int t;

	parse(nlh);
	nest = attrs[SUNH_A_STATS];
	if (!nest)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(attr, nest) {
		t = mnl_attr_get_type(attr);
		if (!t || t > __SUNH_STAT_MAX || !stat_names[t - 1] ||
		    mnl_attr_get_payload_len(attr) != sizeof(uint64_t))
			continue;
		if (obj)
			jput_u64(obj, stat_names[t - 1], mnl_attr_get_u64(attr));
		else
			printf("%-26s %" PRIu64 "\n", stat_names[t - 1],
			       mnl_attr_get_u64(attr));
	}
	return MNL_CB_OK;
}

/*
 * The namespace's counters: into @obj (JSON), which becomes the member
 * "stats" of @parent if there is one, or printed as text (@obj NULL).
 */
static void get_stats(struct json_object *obj, struct json_object *parent)
{
	struct nlmsghdr *nlh = msg_start(SUNH_CMD_STATS_GET, 0);
	struct reply r = { .arg = obj };

	genl_check(genl_request(nlh, stats_cb, &r), &r, "stats");
	if (obj && parent)
		jput(parent, "stats", obj);
}

static int cmd_stats(int argc, char **argv)
{
	struct json_object *obj = json ? jobject() : NULL;

	get_stats(obj, NULL);
	if (obj)
		jprint(obj);
	return 0;
}

/* ---- subnet and settings ---- */

/* subnet show -j: the object config_cb() made, printed by cmd_subnet(). */
static struct json_object *config_obj;

static void config_json(const char *addr, bool have)
{
	char subnet[INET6_ADDRSTRLEN + 4];

	config_obj = jobject();
	if (have) {
		snprintf(subnet, sizeof(subnet), "%s/%u", addr,
			 get_u8(SUNH_A_PREFIX_LEN));
		jput_str(config_obj, "subnet", subnet);
		jput_u64(config_obj, "bits", get_u8(SUNH_A_ADDR_BITS));
	} else {
		jput_null(config_obj, "subnet");
	}
	jput_u64(config_obj, "hoplimit", get_u8(SUNH_A_HOP_LIMIT));
	jput_bool(config_obj, "forwarding", get_u8(SUNH_A_FORWARDING));
	jput_bool(config_obj, "learning", get_u8(SUNH_A_LEARNING));
	jput_u64(config_obj, "ageing", get_u32(SUNH_A_AGEING));
	jput_u64(config_obj, "udpport", get_u16(SUNH_A_UDP_PORT));
	jput_u64(config_obj, "echorate", get_u32(SUNH_A_ECHO_RATE));
	jput_u64(config_obj, "ethertype", get_u16(SUNH_A_ETHERTYPE));
}

static int config_cb(const struct nlmsghdr *nlh, void *data)
{
	char addr[INET6_ADDRSTRLEN] = "";
	bool have = false;

	parse(nlh);
	if (attrs[SUNH_A_PREFIX4]) {
		inet_ntop(AF_INET, mnl_attr_get_payload(attrs[SUNH_A_PREFIX4]),
			  addr, sizeof(addr));
		have = true;
	} else if (attrs[SUNH_A_PREFIX6]) {
		inet_ntop(AF_INET6, mnl_attr_get_payload(attrs[SUNH_A_PREFIX6]),
			  addr, sizeof(addr));
		have = true;
	}
	if (json) {
		if (!config_obj)
			config_json(addr, have);
		return MNL_CB_OK;
	}
	if (have)
		printf("subnet %s/%u bits %u\n", addr,
		       get_u8(SUNH_A_PREFIX_LEN),
		       get_u8(SUNH_A_ADDR_BITS));
	else
		printf("subnet none\n");
	printf("hoplimit %u forwarding %s learning %s ageing %u udpport %u echorate %u ethertype 0x%04x\n",
	       get_u8(SUNH_A_HOP_LIMIT),
	       get_u8(SUNH_A_FORWARDING) ? "on" : "off",
	       get_u8(SUNH_A_LEARNING) ? "on" : "off",
	       get_u32(SUNH_A_AGEING),
	       get_u16(SUNH_A_UDP_PORT),
	       get_u32(SUNH_A_ECHO_RATE),
	       get_u16(SUNH_A_ETHERTYPE));
	return MNL_CB_OK;
}

static int cmd_subnet(int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct reply r = {};
	unsigned char prefix[16];
	unsigned long plen, bits = 0;
	char *slash;
	int af;

	if (argc < 1 || matches(argv[0], "show") || matches(argv[0], "list")) {
		nlh = msg_start(SUNH_CMD_CONFIG_GET, 0);
		genl_check(genl_request(nlh, config_cb, &r), &r, "subnet show");
		if (json && !config_obj)
			die("subnet show: no answer");
		/* -s: the counters of stats, after the settings. */
		if (stats)
			get_stats(config_obj ? jobject() : NULL, config_obj);
		if (config_obj)
			jprint(config_obj);
		config_obj = NULL;
		return 0;
	}
	if (matches(argv[0], "delete")) {
		nlh = msg_start(SUNH_CMD_SUBNET_DEL, 0);
		genl_check(genl_request(nlh, NULL, &r), &r, "subnet del");
		return 0;
	}
	if (!matches(argv[0], "set") || argc < 2)
		usage();
	slash = strchr(argv[1], '/');
	if (!slash)
		die("subnet needs a prefix length: PREFIX/LEN");
	*slash = 0;
	af = strchr(argv[1], ':') ? AF_INET6 : AF_INET;
	if (inet_pton(af, argv[1], prefix) != 1)
		die("invalid prefix \"%s\"", argv[1]);
	plen = get_num(slash + 1, af == AF_INET ? 32 : 128, "prefix length");
	argc -= 2;
	argv += 2;
	while (argc > 0) {
		if (matches(argv[0], "bits") && argc > 1)
			bits = get_num(argv[1], 255, "bits");
		else
			usage();
		argc -= 2;
		argv += 2;
	}
	nlh = msg_start(SUNH_CMD_SUBNET_SET, 0);
	mnl_attr_put(nlh, af == AF_INET ? SUNH_A_PREFIX4 : SUNH_A_PREFIX6,
		     af == AF_INET ? 4 : 16, prefix);
	mnl_attr_put_u8(nlh, SUNH_A_PREFIX_LEN, plen);
	if (bits)
		mnl_attr_put_u8(nlh, SUNH_A_ADDR_BITS, bits);
	genl_check(genl_request(nlh, NULL, &r), &r, "subnet set");
	return 0;
}

static int cmd_set(int argc, char **argv)
{
	struct nlmsghdr *nlh = msg_start(SUNH_CMD_CONFIG_SET, 0);
	struct reply r = {};

	if (argc < 2)
		usage();
	while (argc > 0) {
		if (argc < 2)
			usage();
		if (matches(argv[0], "hoplimit"))
			mnl_attr_put_u8(nlh, SUNH_A_HOP_LIMIT,
					get_num(argv[1], 255, "hop limit"));
		else if (matches(argv[0], "forwarding"))
			mnl_attr_put_u8(nlh, SUNH_A_FORWARDING, get_onoff(argv[1]));
		else if (matches(argv[0], "learning"))
			mnl_attr_put_u8(nlh, SUNH_A_LEARNING, get_onoff(argv[1]));
		else if (matches(argv[0], "ageing") || matches(argv[0], "aging"))
			mnl_attr_put_u32(nlh, SUNH_A_AGEING,
					 get_num(argv[1], UINT32_MAX, "ageing"));
		else if (matches(argv[0], "udpport"))
			mnl_attr_put_u16(nlh, SUNH_A_UDP_PORT,
					 get_num(argv[1], 65535, "UDP port"));
		else if (matches(argv[0], "echorate"))
			mnl_attr_put_u32(nlh, SUNH_A_ECHO_RATE,
					 get_num(argv[1], UINT32_MAX, "echo rate"));
		else
			usage();
		argc -= 2;
		argv += 2;
	}
	genl_check(genl_request(nlh, NULL, &r), &r, "set");
	return 0;
}

/* ---- routes ---- */

/*
 * A dump is printed only once it is complete and consistent: its text is
 * written to route_out (a memory stream), or its entries are added to the
 * array route_list (-j).
 */
static FILE *route_out;
static struct json_object *route_list;

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	char ifname[IF_NAMESIZE] = "?";
	const uint8_t *ha = NULL;
	unsigned int i, halen = 0;
	char mac[3 * 32] = "";
	bool local;

	parse(nlh);
	if (!attrs[SUNH_A_ADDR])
		return MNL_CB_OK;
	if (attrs[SUNH_A_IFINDEX] &&
	    !if_indextoname(get_u32(SUNH_A_IFINDEX), ifname))
		snprintf(ifname, sizeof(ifname), "if%u",
			 get_u32(SUNH_A_IFINDEX));
	if (attrs[SUNH_A_LLADDR]) {
		ha = mnl_attr_get_payload(attrs[SUNH_A_LLADDR]);
		halen = mnl_attr_get_payload_len(attrs[SUNH_A_LLADDR]);
		for (i = 0; i < halen && i < 32; i++)
			sprintf(mac + (i ? 3 * i - 1 : 0), "%s%02x",
				i ? ":" : "", ha[i]);
	}
	local = attrs[SUNH_A_LOCAL];

	if (json) {
		struct json_object *o = jobject();

		jput_u64(o, "addr", get_u16(SUNH_A_ADDR));
		jput_str(o, "dev", ifname);
		if (local) {
			jput_str(o, "origin", "local");
		} else {
			jput_str(o, "lladdr", mac);
			jput_str(o, "origin", origin_name(get_u8(SUNH_A_ORIGIN)));
			jput_u64(o, "age_ms", get_u64(SUNH_A_AGE_MS));
			jput_u64(o, "packets", get_u64(SUNH_A_PACKETS));
			jput_u64(o, "bytes", get_u64(SUNH_A_BYTES));
		}
		jappend(route_list, o);
	} else if (local) {
		fprintf(route_out, "%u dev %s local\n", get_u16(SUNH_A_ADDR),
			ifname);
	} else {
		fprintf(route_out, "%u dev %s lladdr %s %s age %.1fs packets %"
			PRIu64 " bytes %" PRIu64 "\n",
			get_u16(SUNH_A_ADDR), ifname, mac,
			origin_name(get_u8(SUNH_A_ORIGIN)),
			get_u64(SUNH_A_AGE_MS) / 1000.0,
			get_u64(SUNH_A_PACKETS),
			get_u64(SUNH_A_BYTES));
	}
	return MNL_CB_OK;
}

static void get_mac(const char *s, uint8_t *mac)
{
	unsigned int b[6], i;
	char c;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &c) != 6)
		die("invalid lladdr \"%s\"", s);
	for (i = 0; i < 6; i++) {
		if (b[i] > 255)
			die("invalid lladdr \"%s\"", s);
		mac[i] = b[i];
	}
}

/* The table (or one entry). A dump that the kernel marks interrupted (the
 * table, subnet, devices or addresses changed while it ran) is thrown away
 * and asked again; one that keeps changing is an error, not a listing with
 * entries missing or twice.
 */
#define ROUTE_DUMP_TRIES	5

static int route_show(const char *addr)
{
	struct nlmsghdr *nlh;
	struct reply r = {};
	char *text = NULL;
	size_t len = 0;
	int err, tries;

	for (tries = 1; ; tries++) {
		if (json) {
			route_list = jarray();
		} else {
			route_out = open_memstream(&text, &len);
			if (!route_out)
				die("out of memory");
		}
		if (addr) {
			nlh = msg_start(SUNH_CMD_ROUTE_GET, 0);
			mnl_attr_put_u16(nlh, SUNH_A_ADDR,
					 get_num(addr, 65535, "address"));
		} else {
			nlh = msg_start(SUNH_CMD_ROUTE_GET,
					NLM_F_DUMP);
		}
		err = genl_request(nlh, route_cb, &r);
		if (route_out)
			fclose(route_out);
		route_out = NULL;
		genl_check(err, &r, "route show");
		if (!r.intr)
			break;
		free(text);
		text = NULL;
		if (route_list)
			json_object_put(route_list);
		route_list = NULL;
		if (tries == ROUTE_DUMP_TRIES)
			die("route show: the table changed during each of %d dumps (interrupted), try again",
			    tries);
		fprintf(stderr, "%s: route show: dump interrupted by a change, retrying\n",
			progname);
	}
	if (json)
		jprint(route_list);
	else
		fputs(text ? text : "", stdout);
	route_list = NULL;
	free(text);
	return 0;
}

static int cmd_route(int argc, char **argv)
{
	struct nlmsghdr *nlh;
	struct reply r = {};
	const char *dev = NULL;
	uint8_t mac[6];
	bool have_mac = false, replace;
	unsigned long addr;
	unsigned int ifindex;

	if (argc < 1 || matches(argv[0], "show") || matches(argv[0], "list"))
		return route_show(argc > 1 ? argv[1] : NULL);
	if (matches(argv[0], "flush")) {
		nlh = msg_start(SUNH_CMD_ROUTE_DEL, 0);
		mnl_attr_put(nlh, SUNH_A_FLUSH, 0, NULL);
		if (argc > 1 && !strcmp(argv[1], "all"))
			mnl_attr_put_u8(nlh, SUNH_A_ORIGIN, SUNH_ORIGIN_STATIC);
		genl_check(genl_request(nlh, NULL, &r), &r, "route flush");
		return 0;
	}
	if (matches(argv[0], "delete")) {
		if (argc != 2)
			usage();
		nlh = msg_start(SUNH_CMD_ROUTE_DEL, 0);
		mnl_attr_put_u16(nlh, SUNH_A_ADDR,
				 get_num(argv[1], 65535, "address"));
		genl_check(genl_request(nlh, NULL, &r), &r, "route del");
		return 0;
	}
	if (!strcmp(argv[0], "add"))
		replace = false;
	else if (matches(argv[0], "replace"))
		replace = true;
	else
		usage();
	if (argc < 2)
		usage();
	addr = get_num(argv[1], 65535, "address");
	argc -= 2;
	argv += 2;
	while (argc > 1) {
		if (!strcmp(argv[0], "dev")) {
			dev = argv[1];
		} else if (matches(argv[0], "lladdr")) {
			get_mac(argv[1], mac);
			have_mac = true;
		} else {
			usage();
		}
		argc -= 2;
		argv += 2;
	}
	if (argc || !dev || !have_mac)
		usage();
	ifindex = if_nametoindex(dev);
	if (!ifindex)
		die("no such device \"%s\"", dev);
	nlh = msg_start(SUNH_CMD_ROUTE_NEW, 0);
	mnl_attr_put_u16(nlh, SUNH_A_ADDR, addr);
	mnl_attr_put_u32(nlh, SUNH_A_IFINDEX, ifindex);
	mnl_attr_put(nlh, SUNH_A_LLADDR, sizeof(mac), mac);
	if (replace)
		mnl_attr_put(nlh, SUNH_A_REPLACE, 0, NULL);
	genl_check(genl_request(nlh, NULL, &r), &r, "route add");
	return 0;
}

/* ---- ping ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct echo_reply {
	unsigned int req_seq;	/* nlmsg_seq of the request */
	bool got;
	bool waiting;		/* the ACK is in: stop at the reply */
	unsigned int saddr, seq, size, hop_limit, req_hop_limit, tclass;
	double rtt_ms;
};

/* The notification that carries the reply of our request. */
static int echo_cb(const struct nlmsghdr *nlh, void *data)
{
	struct echo_reply *e = ((struct reply *)data)->arg;

	parse(nlh);
	if (nlh->nlmsg_seq != e->req_seq || !attrs[SUNH_A_SADDR] ||
	    !attrs[SUNH_A_RTT_NS])
		return MNL_CB_OK;	/* a late reply to an earlier request */
	e->saddr = get_u16(SUNH_A_SADDR);
	e->seq = get_u16(SUNH_A_SEQ);
	e->size = get_u16(SUNH_A_SIZE);
	e->hop_limit = get_u8(SUNH_A_HOP_LIMIT);
	e->req_hop_limit = get_u8(SUNH_A_REQ_HOP_LIMIT);
	e->tclass = get_u8(SUNH_A_TCLASS);
	e->rtt_ms = get_u64(SUNH_A_RTT_NS) / 1e6;
	e->got = true;
	return e->waiting ? MNL_CB_STOP : MNL_CB_OK;
}

/*
 * One echo: the kernel sends the request and returns; the reply comes
 * later as a notification (it may even overtake the ACK).
 */
static int echo_once(struct nlmsghdr *nlh, struct echo_reply *e,
		     struct reply *r, double wait)
{
	double deadline = now() + wait;
	int err, left;

	e->req_seq = nlh->nlmsg_seq;
	genl_send(nlh, r);
	err = genl_receive(0, echo_cb, r, -1);
	if (err)
		return err;
	e->waiting = true;
	while (!e->got) {
		left = (deadline - now()) * 1000;
		if (left <= 0)
			return -ETIMEDOUT;
		err = genl_receive(0, echo_cb, r, left);
		if (err)
			return err;
	}
	return 0;
}

/* One reply: a line of text, or one object a line (-j: a stream). */
static void print_reply(const struct echo_reply *e)
{
	struct json_object *o;

	if (!json) {
		printf("%u bytes from %u: seq=%u hlim=%u req_hlim=%u tclass=0x%02x time=%.3f ms\n",
		       e->size, e->saddr, e->seq, e->hop_limit,
		       e->req_hop_limit, e->tclass, e->rtt_ms);
		return;
	}
	o = jobject();
	jput_u64(o, "bytes", e->size);
	jput_u64(o, "from", e->saddr);
	jput_u64(o, "seq", e->seq);
	jput_u64(o, "hlim", e->hop_limit);
	jput_u64(o, "req_hlim", e->req_hop_limit);
	jput_u64(o, "tclass", e->tclass);
	jput_fixed(o, "time_ms", e->rtt_ms, 3);
	jprint_line(o);
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
}

static int cmd_ping(int argc, char **argv)
{
	unsigned long count = 0, size = 56, daddr, tclass = 0;
	double interval = 1, wait = 1, t0, min = 0, max = 0, sum = 0;
	unsigned long sent = 0, received = 0;
	long hop_limit = -1;
	struct sigaction sa = { .sa_handler = on_signal };
	const char *target = NULL;
	int opt;

	/* Options may come before or after the address. */
	optind = 0;
	while (optind < argc) {
		opt = getopt(argc, argv, "+c:i:W:t:Q:s:");
		if (opt == -1) {
			if (target)
				usage();
			target = argv[optind++];
			continue;
		}
		switch (opt) {
		case 'c':
			count = get_num(optarg, ULONG_MAX, "count");
			break;
		case 'i':
			interval = get_seconds(optarg, "interval");
			break;
		case 'W':
			wait = get_seconds(optarg, "timeout");
			break;
		case 't':
			hop_limit = get_num(optarg, 255, "hop limit");
			break;
		case 'Q':
			tclass = get_num(optarg, 255, "traffic class");
			break;
		case 's':
			size = get_num(optarg, 65535, "size");
			break;
		default:
			usage();
		}
	}
	if (!target)
		usage();
	daddr = get_num(target, 65535, "address");

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!json)
		printf("SUNH PING %lu: %lu data bytes\n", daddr, size);
	while (!interrupted && (!count || sent < count)) {
		struct echo_reply e = {};
		struct reply r = { .arg = &e };
		struct nlmsghdr *nlh;
		double left;
		int err;

		t0 = now();
		nlh = msg_start(SUNH_CMD_ECHO, 0);
		mnl_attr_put_u16(nlh, SUNH_A_ADDR, daddr);
		mnl_attr_put_u16(nlh, SUNH_A_SEQ, sent + 1);
		mnl_attr_put_u16(nlh, SUNH_A_SIZE, size);
		mnl_attr_put_u32(nlh, SUNH_A_TIMEOUT_MS,
				 wait < 0.01 ? 10 : wait * 1000);
		if (hop_limit >= 0)
			mnl_attr_put_u8(nlh, SUNH_A_HOP_LIMIT, hop_limit);
		if (tclass)
			mnl_attr_put_u8(nlh, SUNH_A_TCLASS, tclass);
		sent++;
		err = echo_once(nlh, &e, &r, wait);
		if (!err) {
			received++;
			sum += e.rtt_ms;
			if (received == 1 || e.rtt_ms < min)
				min = e.rtt_ms;
			if (e.rtt_ms > max)
				max = e.rtt_ms;
			print_reply(&e);
		} else if (err == -EINTR || interrupted) {
			sent--;
			break;
		} else if (err == -ETIMEDOUT) {
			if (!json)
				printf("no reply: seq=%lu\n", sent);
		} else if (err == -EPERM || err == -ENETUNREACH ||
			   err == -ERANGE || err == -EINVAL) {
			genl_check(err, &r, "ping");
		} else {
			printf("seq=%lu: %s%s%s\n", sent, strerror(-err),
			       r.ext ? ": " : "", r.ext ? r.ext : "");
		}
		fflush(stdout);
		if (count && sent >= count)
			break;
		left = interval - (now() - t0);
		if (left > 0 && !interrupted) {
			struct timespec ts = {
				.tv_sec = (time_t)left,
				.tv_nsec = (long)((left - (time_t)left) * 1e9),
			};

			nanosleep(&ts, NULL);
		}
	}
	if (!json) {
		printf("--- %lu sunh ping statistics ---\n", daddr);
		printf("%lu packets transmitted, %lu received, %lu%% packet loss\n",
		       sent, received,
		       sent ? (sent - received) * 100 / sent : 0);
		if (received)
			printf("rtt min/avg/max = %.3f/%.3f/%.3f ms\n", min,
			       sum / received, max);
	}
	return received ? 0 : 1;
}

/* ---- raw frames (tests and troubleshooting) ---- */

static uint16_t config_ethertype(void)
{
	struct nlmsghdr *nlh = msg_start(SUNH_CMD_CONFIG_GET, 0);
	struct reply r = {};

	genl_check(genl_request(nlh, parse_cb, &r), &r, "config");
	return attrs[SUNH_A_ETHERTYPE] ?
		get_u16(SUNH_A_ETHERTYPE) : 0x88b5;
}

/* Send one frame with the SUNH EtherType and an arbitrary payload. */
static int cmd_inject(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_halen = 6 };
	unsigned long ethertype = 0;
	unsigned char data[9000];
	const char *hex = NULL;
	size_t len = 0;
	int fd;

	while (argc > 0) {
		if (!strcmp(argv[0], "dev") && argc > 1) {
			sll.sll_ifindex = if_nametoindex(argv[1]);
			if (!sll.sll_ifindex)
				die("no such device \"%s\"", argv[1]);
		} else if (matches(argv[0], "lladdr") && argc > 1) {
			get_mac(argv[1], sll.sll_addr);
		} else if (matches(argv[0], "ethertype") && argc > 1) {
			ethertype = get_num(argv[1], 65535, "ethertype");
		} else if (argc != 1) {
			usage();
		} else {
			hex = argv[0];
			break;
		}
		argc -= 2;
		argv += 2;
	}
	if (!hex || !sll.sll_ifindex || strlen(hex) % 2)
		usage();
	for (; hex[0] && len < sizeof(data); hex += 2) {
		unsigned int b;

		if (sscanf(hex, "%2x", &b) != 1)
			die("invalid hex bytes");
		data[len++] = b;
	}
	if (!ethertype)
		ethertype = config_ethertype();
	sll.sll_protocol = htons(ethertype);
	fd = socket(AF_PACKET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("packet socket: %s", strerror(errno));
	if (sendto(fd, data, len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("send: %s", strerror(errno));
	close(fd);
	return 0;
}

/* One command: argv[0] is its name. */
static int run_cmd(int argc, char **argv)
{
	argc--;
	argv++;
	if (matches(argv[-1], "subnet"))
		return cmd_subnet(argc, argv);
	if (!strcmp(argv[-1], "set"))
		return cmd_set(argc, argv);
	if (matches(argv[-1], "forwarding")) {
		if (argc != 1)
			usage();
		argv[-1] = "forwarding";
		return cmd_set(2, argv - 1);
	}
	if (matches(argv[-1], "route"))
		return cmd_route(argc, argv);
	if (matches(argv[-1], "ping"))
		return cmd_ping(argc + 1, argv - 1);
	if (matches(argv[-1], "stats") || matches(argv[-1], "statistics"))
		return cmd_stats(argc, argv);
	if (!strcmp(argv[-1], "inject"))
		return cmd_inject(argc, argv);
	unknown_object(argv[-1]);
}

#define BATCH_ARGS	32

/* Commands from a file ("-" for stdin), one a line, as ip -batch runs
 * them: one process and one socket for many changes. The first error
 * ends the batch.
 */
static int run_batch(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[1024], *args[BATCH_ARGS + 1], *tok;
	unsigned int lineno = 0;
	int argc, err;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		argc = 0;
		for (tok = strtok(line, " \t\n"); tok && argc < BATCH_ARGS;
		     tok = strtok(NULL, " \t\n"))
			args[argc++] = tok;
		if (tok)
			die("%s:%u: more than %d words", path, lineno,
			    BATCH_ARGS);
		if (!argc || args[0][0] == '#')
			continue;
		args[argc] = NULL;
		err = run_cmd(argc, args);
		if (err)
			return err;
	}
	if (f != stdin)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *batch = NULL;
	int taken;

	progname = "sunh";
	while (argc > 1 && argv[1][0] == '-') {
		taken = common_option(argc, argv, usage_to);
		if (taken < 0)
			usage();
		if (!taken && (!strcmp(argv[1], "-b") ||
			       !strcmp(argv[1], "-batch"))) {
			if (argc < 3)
				usage();
			batch = argv[2];
			taken = 2;
		}
		if (!taken)
			unknown_option(argv[1]);
		argc -= taken;
		argv += taken;
	}
	if (argc < 2 && !batch)
		usage();
	if (!batch && (!strcmp(argv[1], "help") ||
		       (argc > 2 && !strcmp(argv[2], "help"))))
		usage_to(stdout, 0);
	if (batch)
		return run_batch(batch);
	return run_cmd(argc - 1, argv + 1);
}
