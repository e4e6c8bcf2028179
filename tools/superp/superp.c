// SPDX-License-Identifier: GPL-2.0
/*
 * superp: install and inspect SUPERp connections of ib_superp devices over
 * the "superp" generic netlink family (iproute2 style). See
 * Documentation/superp-admin.rst.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <rdma/superp_netlink.h>

#include "../lib/genl.h"
#include "../lib/options.h"
#include "../lib/output.h"
#include "superp.h"
#include "superp-help.h"

#ifndef SUPERP_VERSION
#error "SUPERP_VERSION: the Makefile passes it (tools/lib/tool.mk)"
#endif

/* Looked up at the first request: help and usage errors need no module. */
static uint16_t family_id;
static uint32_t events_group;
char buf[16384];

static const struct param {
	const char *name;
	uint16_t attr;
	bool u64;
} params[] = {
	{ "pdl_retrans_time_out", SUPERP_P_PDL_RETRANS_TIME_OUT, false },
	{ "pdl_rtx_time_win", SUPERP_P_PDL_RTX_TIME_WIN, false },
	{ "pdl_rtx_max_pkts", SUPERP_P_PDL_RTX_MAX_PKTS, false },
	{ "pdl_max_rtx", SUPERP_P_PDL_MAX_RTX, false },
	{ "pdl_delayed_ack_time", SUPERP_P_PDL_DELAYED_ACK_TIME, false },
	{ "pdl_window_size", SUPERP_P_PDL_WINDOW_SIZE, false },
	{ "pdl_conn_per_xpu", SUPERP_P_PDL_CONN_PER_XPU, false },
	{ "pdl_receive_win", SUPERP_P_PDL_RECEIVE_WIN, false },
	{ "pdl_stretch_ack", SUPERP_P_PDL_STRETCH_ACK, false },
	{ "pdl_fast_rtx_limit", SUPERP_P_PDL_FAST_RTX_LIMIT, false },
	{ "tal_trans_window", SUPERP_P_TAL_TRANS_WINDOW, false },
	{ "tal_max_pkt_per_trans", SUPERP_P_TAL_MAX_PKT_PER_TRANS, false },
	{ "tal_max_ops_per_pkt", SUPERP_P_TAL_MAX_OPS_PER_PKT, false },
	{ "tal_transaction_timeout", SUPERP_P_TAL_TRANSACTION_TIMEOUT, true },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NPARAMS ARRAY_SIZE(params)

static const char *const stat_names[__SUPERP_STAT_MAX] = {
	[SUPERP_STAT_TX_NEW] = "tx_new",
	[SUPERP_STAT_TX_RTX_TIMER] = "tx_rtx_timer",
	[SUPERP_STAT_TX_RTX_FAST] = "tx_rtx_fast",
	[SUPERP_STAT_TX_RTX_PROACTIVE] = "tx_rtx_proactive",
	[SUPERP_STAT_TX_PURE_ACK] = "tx_pure_ack",
	[SUPERP_STAT_TX_NACK] = "tx_nack",
	[SUPERP_STAT_TX_BUSY] = "tx_busy",
	[SUPERP_STAT_TX_ERR] = "tx_err",
	[SUPERP_STAT_TX_PROBE] = "tx_probe",
	[SUPERP_STAT_RX_PKTS] = "rx_pkts",
	[SUPERP_STAT_RX_DUP] = "rx_dup",
	[SUPERP_STAT_RX_HELD] = "rx_held",
	[SUPERP_STAT_RX_DROPPED] = "rx_dropped",
	[SUPERP_STAT_DELIVERED] = "delivered",
	[SUPERP_STAT_RX_PROCESSED] = "rx_processed",
	[SUPERP_STAT_RX_HOLDING] = "rx_holding",
	[SUPERP_STAT_RX_DROP_PSN_WINDOW] = "rx_drop_psn_window",
	[SUPERP_STAT_RX_DROP_ACK_WINDOW] = "rx_drop_ack_window",
	[SUPERP_STAT_RX_DROP_ACK_XID_WINDOW] = "rx_drop_ack_xid_window",
	[SUPERP_STAT_RX_DROP_BROKEN] = "rx_drop_broken",
	[SUPERP_STAT_RX_DROP_NO_HOLD] = "rx_drop_no_hold",
	[SUPERP_STAT_RX_DROP_FLUSHED] = "rx_drop_flushed",
	[SUPERP_STAT_RX_DROP_TAL] = "rx_drop_tal",
	[SUPERP_STAT_TX_BYTES] = "tx_bytes",
	[SUPERP_STAT_RX_BYTES] = "rx_bytes",
	[SUPERP_STAT_TX_SACK] = "tx_sack",
	[SUPERP_STAT_RX_SACK] = "rx_sack",
	[SUPERP_STAT_RX_NACK] = "rx_nack",
	[SUPERP_STAT_TX_TRANS_ERR] = "tx_trans_err",
	[SUPERP_STAT_RX_TRANS_ERR] = "rx_trans_err",
	[SUPERP_STAT_TX_RNR] = "tx_rnr",
	[SUPERP_STAT_RX_RNR] = "rx_rnr",
	[SUPERP_STAT_TX_PACKED_OPS] = "tx_packed_ops",
	[SUPERP_STAT_TX_RTX_TAIL] = "tx_rtx_tail",
};

static const char *const encap_names[] = { "sunh", "udp4", "udp6" };
static const char *const ordered_names[] = { "none", "rx", "tx", "both" };
static const char *const state_names[] = {
	"up", "shutdown", "quiescent", "broken"
};

static const char *const attr_names[SUPERP_A_MAX + 1] = {
	[SUPERP_A_DEV_NAME] = "dev", [SUPERP_A_LCID] = "lcid",
	[SUPERP_A_RCID] = "rcid", [SUPERP_A_ENCAP] = "encap",
	[SUPERP_A_LOCAL_SUNH] = "local", [SUPERP_A_REMOTE_SUNH] = "remote",
	[SUPERP_A_LOCAL_IP4] = "local", [SUPERP_A_REMOTE_IP4] = "remote",
	[SUPERP_A_LOCAL_IP6] = "local", [SUPERP_A_REMOTE_IP6] = "remote",
	[SUPERP_A_UDP_SPORT] = "sport", [SUPERP_A_TCLASS] = "tclass",
	[SUPERP_A_ORDERED] = "ordered", [SUPERP_A_PARAMS] = "parameters",
	[SUPERP_A_SHUTDOWN] = "shutdown",
};

/*
 * The usage is the manual's SYNOPSIS, generated from superp.8.rst at build
 * time (tools/lib/rst2help.awk) so that --help and superp(8) never differ,
 * then the parameters from the table above, which is the one the commands
 * parse (selftests/tools/help.sh checks the manual lists the same).
 */
#define HELP_WIDTH	79
#define PARAM_INDENT	"                "

static void __attribute__((noreturn)) usage_to(FILE *f, int status)
{
	size_t i, col = strlen(PARAM_INDENT), len;

	fputs(help_text, f);
	fputs("\n       PARAM := ", f);
	for (i = 0; i < NPARAMS; i++) {
		len = strlen(params[i].name);
		if (i && col + 3 + len > HELP_WIDTH) {
			fputs(" |\n" PARAM_INDENT, f);
			col = strlen(PARAM_INDENT);
		} else if (i) {
			fputs(" | ", f);
			col += 3;
		}
		fputs(params[i].name, f);
		col += len;
	}
	fputs("\n", f);
	exit(status);
}

static void __attribute__((noreturn)) usage(void)
{
	usage_to(stderr, 2);
}

static const char *param_name(uint16_t attr)
{
	size_t i;

	for (i = 0; i < NPARAMS; i++)
		if (params[i].attr == attr)
			return params[i].name;
	return "?";
}

/* ---- requests ---- */

static void family_open(void)
{
	if (!family_id)
		family_id = genl_open(SUPERP_GENL_NAME,
				      SUPERP_GENL_MCGRP_EVENTS, &events_group);
}

struct nlmsghdr *msg_start(uint8_t cmd, uint16_t flags)
{
	family_open();
	return genl_msg(buf, family_id, cmd, SUPERP_GENL_VERSION, flags);
}

/* The name of the request's attribute at byte @off (extack offset). */
static const char *attr_at(const struct nlmsghdr *nlh, int off)
{
	const struct nlattr *a, *p;
	int at;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		at = (const char *)a - (const char *)nlh;
		if (off < at || off >= at + (int)a->nla_len)
			continue;
		if (mnl_attr_get_type(a) == SUPERP_A_PARAMS && off != at)
			mnl_attr_for_each_nested(p, a)
				if ((const char *)p - (const char *)nlh == off)
					return param_name(mnl_attr_get_type(p));
		return mnl_attr_get_type(a) <= SUPERP_A_MAX ?
			attr_names[mnl_attr_get_type(a)] : NULL;
	}
	return NULL;
}

int request_errno(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg,
		  const char *what)
{
	struct reply r = { .arg = arg };
	const char *bad;
	int err;

	err = genl_request(nlh, cb, &r);
	if (!err)
		return 0;
	bad = r.off >= 0 ? attr_at(nlh, r.off) : NULL;
	fprintf(stderr, "superp: %s: %s", what, strerror(-err));
	if (r.ext || bad)
		fprintf(stderr, " (%s%s%s", r.ext ? r.ext : "",
			r.ext && bad ? ": " : "", bad ? bad : "");
	if (bad && r.range)
		fprintf(stderr, " must be %" PRIu64 "..%" PRIu64, r.min, r.max);
	fprintf(stderr, "%s\n", r.ext || bad ? ")" : "");
	return err;
}

void request_or_die(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg,
		    const char *what)
{
	if (request_errno(nlh, cb, arg, what))
		exit(1);
}

/* Top-level attributes of a message. */
static const struct nlattr *attrs[SUPERP_A_MAX + 1];

static void parse(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	memset(attrs, 0, sizeof(attrs));
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= SUPERP_A_MAX)
			attrs[mnl_attr_get_type(a)] = a;
}

/* ---- settings shared with mesh files ---- */

int parse_setting(struct conn_settings *s, int argc, char **argv)
{
	size_t i;

	if (argc >= 1 && !strcmp(argv[0], "lite")) {
		s->lite = true;
		return 1;
	}
	if (argc < 2)
		return 0;
	if (!strcmp(argv[0], "tclass")) {
		s->tclass = get_num(argv[1], 255, "traffic class");
		return 2;
	}
	if (!strcmp(argv[0], "ordered")) {
		for (i = 0; i < 4; i++)
			if (!strcmp(argv[1], ordered_names[i]))
				s->ordered = i;
		if (s->ordered < 0)
			die("ordered takes rx, tx, both or none, not \"%s\"",
			    argv[1]);
		return 2;
	}
	for (i = 0; i < NPARAMS; i++) {
		if (strcmp(argv[0], params[i].name))
			continue;
		if (s->nparams == (int)ARRAY_SIZE(s->params))
			die("too many parameters");
		s->params[s->nparams].attr = params[i].attr;
		s->params[s->nparams++].value =
			get_num(argv[1], params[i].u64 ? ~0UL : UINT32_MAX,
				params[i].name);
		return 2;
	}
	return 0;
}

void put_settings(struct nlmsghdr *nlh, const struct conn_settings *s)
{
	struct nlattr *nest;
	int i;

	if (s->tclass >= 0)
		mnl_attr_put_u8(nlh, SUPERP_A_TCLASS, s->tclass);
	if (s->ordered >= 0)
		mnl_attr_put_u8(nlh, SUPERP_A_ORDERED, s->ordered);
	if (s->lite)
		mnl_attr_put(nlh, SUPERP_A_LITE, 0, NULL);
	if (!s->nparams)
		return;
	nest = mnl_attr_nest_start(nlh, SUPERP_A_PARAMS);
	for (i = 0; i < s->nparams; i++) {
		if (s->params[i].attr == SUPERP_P_TAL_TRANSACTION_TIMEOUT)
			mnl_attr_put_u64(nlh, s->params[i].attr, s->params[i].value);
		else
			mnl_attr_put_u32(nlh, s->params[i].attr, s->params[i].value);
	}
	mnl_attr_nest_end(nlh, nest);
}

/* ---- output ---- */

/*
 * Each printer below writes text, or with -j adds members to the object
 * @obj; show commands collect their objects in the array shown, printed
 * once the dump is over.
 */
static struct json_object *shown;

static void print_params(const struct nlattr *nest, struct json_object *obj)
{
	struct json_object *params = NULL;
	const struct nlattr *a;

	if (!nest)
		return;
	if (obj)
		params = jobject();
	else
		printf("\n   ");
	mnl_attr_for_each_nested(a, nest) {
		uint64_t v = mnl_attr_get_payload_len(a) == 8 ?
			mnl_attr_get_u64(a) : mnl_attr_get_u32(a);

		if (params)
			jput_u64(params, param_name(mnl_attr_get_type(a)), v);
		else
			printf(" %s %" PRIu64, param_name(mnl_attr_get_type(a)), v);
	}
	if (params)
		jput(obj, "params", params);
}

/* A nest of u64 counters, attribute type = index in @names + 1. */
static void print_u64_nest(const struct nlattr *nest, const char *key,
			   const char *const *names, unsigned int n,
			   struct json_object *obj)
{
	struct json_object *counters = NULL;
	const struct nlattr *a;
	unsigned int t;

	if (obj)
		counters = jobject();
	else
		printf("\n    %s", key);
	mnl_attr_for_each_nested(a, nest) {
		t = mnl_attr_get_type(a);
		if (!t || t > n || !names[t - 1])
			continue;
		if (counters)
			jput_u64(counters, names[t - 1], mnl_attr_get_u64(a));
		else
			printf(" %s %" PRIu64, names[t - 1], mnl_attr_get_u64(a));
	}
	if (counters)
		jput(obj, key, counters);
}

static void print_counters(struct json_object *obj)
{
	struct json_object *events = NULL;
	const struct nlattr *a, *e;
	const char *name;
	uint32_t count;

	if (attrs[SUPERP_A_STATS])
		print_u64_nest(attrs[SUPERP_A_STATS], "stats", stat_names,
			       __SUPERP_STAT_MAX, obj);
	if (!attrs[SUPERP_A_EVENTS])
		return;
	if (obj)
		events = jobject();
	else
		printf("\n    events");
	mnl_attr_for_each_nested(e, attrs[SUPERP_A_EVENTS]) {
		name = NULL;
		count = 0;
		mnl_attr_for_each_nested(a, e) {
			if (mnl_attr_get_type(a) == SUPERP_A_EVENT_NAME)
				name = mnl_attr_get_str(a);
			if (mnl_attr_get_type(a) == SUPERP_A_EVENT_COUNT)
				count = mnl_attr_get_u32(a);
		}
		if (!name)
			continue;
		if (events)
			jput_u64(events, name, count);
		else
			printf(" %s %u", name, count);
	}
	if (events)
		jput(obj, "events", events);
}

static void addr_str(bool local, char *s, size_t len)
{
	const struct nlattr *sunh, *ip4, *ip6;

	sunh = attrs[local ? SUPERP_A_LOCAL_SUNH : SUPERP_A_REMOTE_SUNH];
	ip4 = attrs[local ? SUPERP_A_LOCAL_IP4 : SUPERP_A_REMOTE_IP4];
	ip6 = attrs[local ? SUPERP_A_LOCAL_IP6 : SUPERP_A_REMOTE_IP6];
	if (sunh)
		snprintf(s, len, "%u", mnl_attr_get_u16(sunh));
	else if (ip4)
		inet_ntop(AF_INET, mnl_attr_get_payload(ip4), s, len);
	else if (ip6)
		inet_ntop(AF_INET6, mnl_attr_get_payload(ip6), s, len);
	else
		snprintf(s, len, "?");
}

static int conn_cb(const struct nlmsghdr *nlh, void *data)
{
	char local[INET6_ADDRSTRLEN], remote[INET6_ADDRSTRLEN];
	unsigned int encap, ordered, state;
	const char *dev, *encap_name, *state_name;
	unsigned int lcid, rcid, sport, tclass;
	struct json_object *obj = NULL;
	bool lite;

	parse(nlh);
	if (!attrs[SUPERP_A_DEV_NAME] || !attrs[SUPERP_A_LCID])
		return MNL_CB_OK;
	addr_str(true, local, sizeof(local));
	addr_str(false, remote, sizeof(remote));
	dev = mnl_attr_get_str(attrs[SUPERP_A_DEV_NAME]);
	lcid = mnl_attr_get_u16(attrs[SUPERP_A_LCID]);
	rcid = mnl_attr_get_u16(attrs[SUPERP_A_RCID]);
	encap = mnl_attr_get_u8(attrs[SUPERP_A_ENCAP]);
	encap_name = encap < 3 ? encap_names[encap] : "?";
	sport = mnl_attr_get_u16(attrs[SUPERP_A_UDP_SPORT]);
	tclass = mnl_attr_get_u8(attrs[SUPERP_A_TCLASS]);
	ordered = mnl_attr_get_u8(attrs[SUPERP_A_ORDERED]) & 3;
	state = mnl_attr_get_u8(attrs[SUPERP_A_STATE]);
	lite = attrs[SUPERP_A_LITE];
	state_name = state < 4 ? state_names[state] : "?";
	/* JSON names, or the words of the command line. */
	if (json) {
		obj = jobject();
		jput_str(obj, "dev", dev);
		jput_u64(obj, "lcid", lcid);
		jput_u64(obj, "rcid", rcid);
		jput_str(obj, "encap", encap_name);
		jput_str(obj, "local", local);
		jput_str(obj, "remote", remote);
		jput_u64(obj, "sport", sport);
		jput_u64(obj, "tclass", tclass);
		jput_str(obj, "ordered", ordered_names[ordered]);
		jput_bool(obj, "lite", lite);
		jput_str(obj, "state", state_name);
	} else {
		printf("%s lcid %u rcid %u encap %s local %s remote %s",
		       dev, lcid, rcid, encap_name, local, remote);
		printf(" sport %u tclass %u ordered %s%s state %s", sport,
		       tclass, ordered_names[ordered], lite ? " lite" : "",
		       state_name);
	}
	print_params(attrs[SUPERP_A_PARAMS], obj);
	if (stats)
		print_counters(obj);
	if (obj)
		jappend(shown, obj);
	else
		printf("\n");
	return MNL_CB_OK;
}

static const char *const drop_names[__SUPERP_DROP_MAX] = {
	[SUPERP_DROP_SHORT] = "short",
	[SUPERP_DROP_MALFORMED] = "malformed",
	[SUPERP_DROP_UNKNOWN_DCID] = "unknown_dcid",
	[SUPERP_DROP_WRONG_PEER] = "wrong_peer",
	[SUPERP_DROP_WRONG_ENCAP] = "wrong_encap",
	[SUPERP_DROP_DGRAM_MALFORMED] = "dgram_malformed",
	[SUPERP_DROP_DGRAM_SENDER] = "dgram_sender",
	[SUPERP_DROP_DGRAM_QP] = "dgram_qp",
	[SUPERP_DROP_DGRAM_QKEY] = "dgram_qkey",
	[SUPERP_DROP_DGRAM_NO_RECV] = "dgram_no_recv",
	[SUPERP_DROP_DGRAM_TOO_LONG] = "dgram_too_long",
};

/* A u64 attribute of the message parsed last, 0 when absent or malformed. */
static uint64_t attr_u64(int type)
{
	const struct nlattr *a = attrs[type];

	return a && mnl_attr_get_payload_len(a) == sizeof(uint64_t) ?
		mnl_attr_get_u64(a) : 0;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct json_object *obj = NULL;
	const char *dev, *netdev;
	unsigned int index, conns;
	uint64_t event_drops;

	parse(nlh);
	if (!attrs[SUPERP_A_DEV_NAME])
		return MNL_CB_OK;
	dev = mnl_attr_get_str(attrs[SUPERP_A_DEV_NAME]);
	index = mnl_attr_get_u32(attrs[SUPERP_A_DEV_INDEX]);
	netdev = mnl_attr_get_str(attrs[SUPERP_A_IFNAME]);
	conns = mnl_attr_get_u32(attrs[SUPERP_A_CONN_COUNT]);
	event_drops = mnl_attr_get_u64(attrs[SUPERP_A_EVENT_DROPS]);
	if (json) {
		obj = jobject();
		jput_str(obj, "dev", dev);
		jput_u64(obj, "index", index);
		jput_str(obj, "netdev", netdev);
		jput_u64(obj, "connections", conns);
		jput_u64(obj, "event_drops", event_drops);
		jput_u64(obj, "mem_limit", attr_u64(SUPERP_A_MEM_LIMIT));
		jput_u64(obj, "mem_used", attr_u64(SUPERP_A_MEM_USED));
	} else {
		printf("%s index %u netdev %s connections %u event_drops %" PRIu64
		       " mem_limit %" PRIu64 " mem_used %" PRIu64,
		       dev, index, netdev, conns, event_drops,
		       attr_u64(SUPERP_A_MEM_LIMIT), attr_u64(SUPERP_A_MEM_USED));
	}
	print_params(attrs[SUPERP_A_PARAMS], obj);
	/* Every packet received, then those that reached no connection. */
	if ((stats || json) && attrs[SUPERP_A_RX_PACKETS]) {
		if (obj)
			jput_u64(obj, "rx_packets", attr_u64(SUPERP_A_RX_PACKETS));
		else
			printf("\n    rx_packets %" PRIu64,
			       attr_u64(SUPERP_A_RX_PACKETS));
	}
	if ((stats || json) && attrs[SUPERP_A_DROPS])
		print_u64_nest(attrs[SUPERP_A_DROPS], "drops", drop_names,
			       __SUPERP_DROP_MAX, obj);
	if (obj)
		jappend(shown, obj);
	else
		printf("\n");
	return MNL_CB_OK;
}

/*
 * A show request: its dump printed (-j: as an array, whole even when the
 * request failed part way, as text would be); 1 if it failed.
 */
static int show(struct nlmsghdr *nlh, mnl_cb_t cb, const char *what)
{
	int err;

	if (json)
		shown = jarray();
	err = request_errno(nlh, cb, NULL, what);
	if (json)
		jprint(shown);
	shown = NULL;
	return err ? 1 : 0;
}

/* ---- conn ---- */

static void put_addr(struct nlmsghdr *nlh, int encap, bool local,
		     const char *s)
{
	unsigned char a[16];

	switch (encap) {
	case SUPERP_ENCAP_SUNH:
		mnl_attr_put_u16(nlh, local ? SUPERP_A_LOCAL_SUNH :
				 SUPERP_A_REMOTE_SUNH,
				 get_num(s, 65535, "SUNH address"));
		break;
	case SUPERP_ENCAP_UDP4:
		if (inet_pton(AF_INET, s, a) != 1)
			die("invalid IPv4 address \"%s\"", s);
		mnl_attr_put(nlh, local ? SUPERP_A_LOCAL_IP4 : SUPERP_A_REMOTE_IP4,
			     4, a);
		break;
	default:
		if (inet_pton(AF_INET6, s, a) != 1)
			die("invalid IPv6 address \"%s\"", s);
		mnl_attr_put(nlh, local ? SUPERP_A_LOCAL_IP6 : SUPERP_A_REMOTE_IP6,
			     16, a);
	}
}

static int get_encap(const char *s)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, encap_names[i]))
			return i;
	die("encap is sunh, udp4 or udp6, not \"%s\"", s);
}

static int cmd_conn(int argc, char **argv)
{
	struct conn_settings set = { .tclass = -1, .ordered = -1 };
	const char *dev = NULL, *local = NULL, *remote = NULL, *cmd;
	long lcid = -1, rcid = -1, sport = -1, shut = -1;
	struct nlmsghdr *nlh;
	int encap = -1, n;

	if (argc < 1)
		usage();
	cmd = argv[0];
	argc--;
	argv++;
	while (argc > 0) {
		if (output_option(argv[0])) {
			n = 1;
		} else if (!strcmp(argv[0], "soft") || !strcmp(argv[0], "hard")) {
			shut = !strcmp(argv[0], "hard");
			n = 1;
		} else if (!strcmp(argv[0], "lite")) {
			n = parse_setting(&set, argc, argv);
		} else if (argc < 2) {
			usage();
		} else if (!strcmp(argv[0], "dev")) {
			dev = argv[1];
			n = 2;
		} else if (!strcmp(argv[0], "lcid")) {
			lcid = get_num(argv[1], 65535, "lcid");
			n = 2;
		} else if (!strcmp(argv[0], "rcid")) {
			rcid = get_num(argv[1], 65535, "rcid");
			n = 2;
		} else if (!strcmp(argv[0], "encap")) {
			encap = get_encap(argv[1]);
			n = 2;
		} else if (!strcmp(argv[0], "local")) {
			local = argv[1];
			n = 2;
		} else if (!strcmp(argv[0], "remote")) {
			remote = argv[1];
			n = 2;
		} else if (!strcmp(argv[0], "sport")) {
			sport = get_num(argv[1], 65535, "sport");
			n = 2;
		} else {
			n = parse_setting(&set, argc, argv);
			if (!n)
				die("unknown argument \"%s\"", argv[0]);
		}
		argc -= n;
		argv += n;
	}

	if (matches(cmd, "show") || matches(cmd, "list")) {
		if (lcid >= 0 && !dev)
			die("conn show lcid needs dev");
		nlh = msg_start(SUPERP_CMD_CONN_GET, lcid >= 0 ? 0 : NLM_F_DUMP);
		if (dev)
			mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, dev);
		if (lcid >= 0)
			mnl_attr_put_u16(nlh, SUPERP_A_LCID, lcid);
		return show(nlh, conn_cb, "conn show");
	}
	if (!dev || lcid < 0)
		die("conn %s needs dev and lcid", cmd);
	if (!strcmp(cmd, "add")) {
		/* A lite connection's packets carry no CID: rcid optional. */
		if ((rcid < 0 && !set.lite) || encap < 0 || !local || !remote)
			die("conn add needs rcid, encap, local and remote");
		nlh = msg_start(SUPERP_CMD_CONN_ADD, 0);
	} else if (matches(cmd, "delete")) {
		nlh = msg_start(SUPERP_CMD_CONN_DEL, 0);
	} else if (matches(cmd, "shutdown")) {
		if (shut < 0)
			die("conn shutdown needs soft or hard");
		nlh = msg_start(SUPERP_CMD_CONN_SHUTDOWN, 0);
		mnl_attr_put_u8(nlh, SUPERP_A_SHUTDOWN, shut);
	} else {
		usage();
	}
	mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, dev);
	mnl_attr_put_u16(nlh, SUPERP_A_LCID, lcid);
	if (rcid >= 0)
		mnl_attr_put_u16(nlh, SUPERP_A_RCID, rcid);
	if (encap >= 0) {
		mnl_attr_put_u8(nlh, SUPERP_A_ENCAP, encap);
		put_addr(nlh, encap, true, local);
		put_addr(nlh, encap, false, remote);
	}
	if (sport >= 0)
		mnl_attr_put_u16(nlh, SUPERP_A_UDP_SPORT, sport);
	put_settings(nlh, &set);
	request_or_die(nlh, NULL, NULL, "conn");
	return 0;
}

/* ---- dev ---- */

struct dev_query {
	int n;
	char name[64];
	char ifname[IF_NAMESIZE];
	uint32_t conn_per_xpu;
};

static int dev_query_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dev_query *q = ((struct reply *)data)->arg;
	const struct nlattr *a;

	parse(nlh);
	if (!attrs[SUPERP_A_DEV_NAME])
		return MNL_CB_OK;
	q->n++;
	snprintf(q->name, sizeof(q->name), "%s",
		 mnl_attr_get_str(attrs[SUPERP_A_DEV_NAME]));
	snprintf(q->ifname, sizeof(q->ifname), "%s",
		 mnl_attr_get_str(attrs[SUPERP_A_IFNAME]));
	if (attrs[SUPERP_A_PARAMS])
		mnl_attr_for_each_nested(a, attrs[SUPERP_A_PARAMS])
			if (mnl_attr_get_type(a) == SUPERP_P_PDL_CONN_PER_XPU)
				q->conn_per_xpu = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

void dev_info(const char **dev, char *ifname, uint32_t *conn_per_xpu)
{
	static struct dev_query q;
	struct nlmsghdr *nlh;

	nlh = msg_start(SUPERP_CMD_DEV_GET, *dev ? 0 : NLM_F_DUMP);
	if (*dev)
		mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, *dev);
	request_or_die(nlh, dev_query_cb, &q, "dev show");
	if (q.n != 1)
		die("%s superp device: name one with dev DEV",
		    q.n ? "more than one" : "no");
	*dev = q.name;
	strcpy(ifname, q.ifname);
	*conn_per_xpu = q.conn_per_xpu;
}

static int cmd_dev(int argc, char **argv)
{
	struct conn_settings set = { .tclass = -1, .ordered = -1 };
	struct nlmsghdr *nlh;
	int n;

	if (argc < 1 || matches(argv[0], "show") || matches(argv[0], "list")) {
		nlh = msg_start(SUPERP_CMD_DEV_GET, argc > 1 ? 0 : NLM_F_DUMP);
		if (argc > 1)
			mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, argv[1]);
		return show(nlh, dev_cb, "dev show");
	}
	if (strcmp(argv[0], "set") || argc < 4)
		usage();
	nlh = msg_start(SUPERP_CMD_DEV_SET, 0);
	mnl_attr_put_strz(nlh, SUPERP_A_DEV_NAME, argv[1]);
	for (argc -= 2, argv += 2; argc > 0; argc -= n, argv += n) {
		if (matches(argv[0], "mem_limit")) {
			if (argc < 2)
				usage();
			mnl_attr_put_u64(nlh, SUPERP_A_MEM_LIMIT,
					 get_num(argv[1], ULONG_MAX, "mem_limit"));
			n = 2;
			continue;
		}
		n = parse_setting(&set, argc, argv);
		if (!n || set.tclass >= 0 || set.ordered >= 0 || set.lite)
			die("dev set takes parameters only, not \"%s\"", argv[0]);
	}
	put_settings(nlh, &set);
	request_or_die(nlh, NULL, NULL, "dev set");
	return 0;
}

/* ---- monitor ---- */

/* One event: a line of text, or one object a line (-j: a stream). */
static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct json_object *obj;
	const char *dev, *event;
	unsigned int lcid, id, value;

	parse(nlh);
	if (!attrs[SUPERP_A_EVENT_NAME])
		return MNL_CB_OK;
	dev = mnl_attr_get_str(attrs[SUPERP_A_DEV_NAME]);
	lcid = mnl_attr_get_u16(attrs[SUPERP_A_LCID]);
	event = mnl_attr_get_str(attrs[SUPERP_A_EVENT_NAME]);
	id = mnl_attr_get_u32(attrs[SUPERP_A_EVENT_ID]);
	value = mnl_attr_get_u32(attrs[SUPERP_A_EVENT_VALUE]);
	if (!json) {
		printf("%s lcid %u event %s (%u) value %u\n", dev, lcid, event,
		       id, value);
		fflush(stdout);
		return MNL_CB_OK;
	}
	obj = jobject();
	jput_str(obj, "dev", dev);
	jput_u64(obj, "lcid", lcid);
	jput_str(obj, "event", event);
	jput_u64(obj, "id", id);
	jput_u64(obj, "value", value);
	jprint_line(obj);
	return MNL_CB_OK;
}

static int cmd_monitor(void)
{
	int ret;

	family_open();
	if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &events_group,
				  sizeof(events_group)) < 0)
		die("join group \"%s\": %s", SUPERP_GENL_MCGRP_EVENTS,
		    strerror(errno));
	for (;;) {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0 && errno == ENOBUFS) {
			fprintf(stderr, "superp: monitor: events lost (socket buffer full)\n");
			continue;
		}
		if (ret <= 0)
			die("receive: %s", strerror(errno));
		mnl_cb_run(buf, ret, 0, 0, event_cb, NULL);
	}
}

int main(int argc, char **argv)
{
	int taken;

	progname = "superp";
	while (argc > 1 && argv[1][0] == '-') {
		taken = common_option(argc, argv, usage_to);
		if (taken < 0)
			usage();
		if (!taken)
			unknown_option(argv[1]);
		argc -= taken;
		argv += taken;
	}
	if (argc > 1 && !strcmp(argv[1], "help"))
		usage_to(stdout, 0);
	if (argc < 2)
		usage();
	/* OBJECT help, for every object: the manual has them all. */
	if (argc > 2 && !strcmp(argv[2], "help"))
		usage_to(stdout, 0);
	if (matches(argv[1], "connection"))
		return cmd_conn(argc - 2, argv + 2);
	if (matches(argv[1], "device"))
		return cmd_dev(argc - 2, argv + 2);
	if (matches(argv[1], "monitor"))
		return cmd_monitor();
	if (matches(argv[1], "mesh"))
		return cmd_mesh(argc - 2, argv + 2);
	unknown_object(argv[1]);
}
