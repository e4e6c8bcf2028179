// SPDX-License-Identifier: GPL-2.0
/* superp-gen: craft SUPERp frames from the command line. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include "gen.h"

/*
 * The usage is the manual's SYNOPSIS, generated from superp-gen.8.rst at
 * build time (tools/lib/rst2help.awk) so that --help and superp-gen(8)
 * never differ; the manual describes each option.
 */
#include "superp-gen-help.h"

#ifndef SUPERP_VERSION
#error "SUPERP_VERSION: the Makefile passes it (tools/lib/tool.mk)"
#endif

enum {
	O_ENCAP = 256, O_DMAC, O_SMAC, O_VLAN, O_ETHERTYPE, O_SADDR, O_DADDR,
	O_TCLASS, O_NEXTHDR, O_HOP, O_FLOW, O_SIP, O_DIP, O_SPORT, O_DPORT,
	O_TTL, O_NOCSUM, O_DCID, O_RWIN, O_PSN, O_ACKPSN, O_SACK, O_OPCODE,
	O_EOM, O_XID, O_SEQNO, O_ACKXID, O_OP, O_PATTERN, O_NUMOPS, O_BLOCK,
	O_RAWOPLEN, O_TALRSVD, O_EXTRA, O_TRUNCATE, O_NOPAD, O_DESCRIBE,
	O_FUZZ, O_PEER, O_UDP, O_MTU, O_LEARN, O_DATAGRAM, O_LITE, O_END
};

static const struct option longopts[] = {
	{ "write", required_argument, NULL, 'w' },
	{ "append", no_argument, NULL, 'a' },
	{ "iface", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "hexdump", no_argument, NULL, 'x' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "describe", no_argument, NULL, O_DESCRIBE },
	{ "encap", required_argument, NULL, O_ENCAP },
	{ "dmac", required_argument, NULL, O_DMAC },
	{ "smac", required_argument, NULL, O_SMAC },
	{ "vlan", required_argument, NULL, O_VLAN },
	{ "ethertype", required_argument, NULL, O_ETHERTYPE },
	{ "saddr", required_argument, NULL, O_SADDR },
	{ "daddr", required_argument, NULL, O_DADDR },
	{ "tclass", required_argument, NULL, O_TCLASS },
	{ "nexthdr", required_argument, NULL, O_NEXTHDR },
	{ "hop-limit", required_argument, NULL, O_HOP },
	{ "flow-label", required_argument, NULL, O_FLOW },
	{ "src-ip", required_argument, NULL, O_SIP },
	{ "dst-ip", required_argument, NULL, O_DIP },
	{ "sport", required_argument, NULL, O_SPORT },
	{ "dport", required_argument, NULL, O_DPORT },
	{ "ttl", required_argument, NULL, O_TTL },
	{ "no-udp-csum", no_argument, NULL, O_NOCSUM },
	{ "dcid", required_argument, NULL, O_DCID },
	{ "rwin", required_argument, NULL, O_RWIN },
	{ "psn", required_argument, NULL, O_PSN },
	{ "ack-psn", required_argument, NULL, O_ACKPSN },
	{ "sack", required_argument, NULL, O_SACK },
	{ "opcode", required_argument, NULL, O_OPCODE },
	{ "eom", no_argument, NULL, O_EOM },
	{ "xid", required_argument, NULL, O_XID },
	{ "seqno", required_argument, NULL, O_SEQNO },
	{ "ack-xid", required_argument, NULL, O_ACKXID },
	{ "datagram", no_argument, NULL, O_DATAGRAM },
	{ "lite", no_argument, NULL, O_LITE },
	{ "op", required_argument, NULL, O_OP },
	{ "pattern", required_argument, NULL, O_PATTERN },
	{ "num-ops", required_argument, NULL, O_NUMOPS },
	{ "block", required_argument, NULL, O_BLOCK },
	{ "raw-op-len", required_argument, NULL, O_RAWOPLEN },
	{ "tal-rsvd", required_argument, NULL, O_TALRSVD },
	{ "extra", required_argument, NULL, O_EXTRA },
	{ "truncate", required_argument, NULL, O_TRUNCATE },
	{ "fuzz", required_argument, NULL, O_FUZZ },
	{ "peer", required_argument, NULL, O_PEER },
	{ "udp", no_argument, NULL, O_UDP },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "learn", required_argument, NULL, O_LEARN },
	{ "no-pad", no_argument, NULL, O_NOPAD },
	{ NULL, 0, NULL, 0 }
};

/* Exit statuses as the other tools have them: 2 usage, 1 failure. */
static void __attribute__((noreturn)) error_exit(int status, const char *fmt,
						 const char *arg)
{
	fprintf(stderr, "superp-gen: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(status);
}

/* A usage error: options that are wrong, or do not go together. */
static void __attribute__((noreturn)) die(const char *fmt, const char *arg)
{
	error_exit(2, fmt, arg);
}

/* A failed operation: a file or socket that does not work. */
static void __attribute__((noreturn)) fail(const char *fmt, const char *arg)
{
	error_exit(1, fmt, arg);
}

static uint64_t num(const char *s, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max)
		die("bad or out of range number: %s", s);
	return v;
}

static void mac(const char *s, uint8_t *m)
{
	if (sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx",
		   &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 6)
		die("bad MAC address: %s", s);
}

static unsigned int opcode_arg(const char *s)
{
	const struct gen_opcode *o = gen_opcode_by_name(s);

	return o ? o->opcode : (unsigned int)num(s, 255);
}

/* One --op: comma-separated FIELD=N of the opcode given so far. */
static void op_arg(struct gen_frame *f, char *s)
{
	const struct gen_opcode *o = gen_opcode_by_num(f->opcode);
	struct gen_op *op;
	char *tok, *save = NULL;
	int i;

	if (f->nops == SUPERP_TAL_MAX_OPS)
		die("at most 15 operations%s", "");
	op = &f->ops[f->nops++];
	for (tok = strtok_r(s, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			die("operation field without value: %s", tok);
		*eq = '\0';
		for (i = 0; i < F_NR; i++)
			if (!strcmp(tok, gen_field_names[i]))
				break;
		if (i == F_NR)
			die("unknown operation field: %s", tok);
		/* Unknown opcodes have no fields but take a payload. */
		if (o && !(o->fields & 1U << i))
			die("field %s does not belong to this --opcode (give --opcode before --op)",
			    tok);
		op->v[i] = num(eq + 1, UINT64_MAX);
		op->set |= 1U << i;
	}
}

static void ip_arg(struct gen_frame *f, const char *s, int dst)
{
	if (strchr(s, ':')) {
		if (inet_pton(AF_INET6, s, dst ? &f->dip6 : &f->sip6) != 1)
			die("bad IPv6 address: %s", s);
	} else if (inet_pton(AF_INET, s, dst ? &f->dip4 : &f->sip4) != 1) {
		die("bad IPv4 address: %s", s);
	}
}

static void defaults(struct gen_frame *f)
{
	memset(f, 0, sizeof(*f));
	mac("02:00:00:00:00:02", f->dmac);
	mac("02:00:00:00:00:01", f->smac);
	f->vlan = -1;
	f->ethertype = -1;
	f->saddr = 1;
	f->daddr = 2;
	f->hop_limit = SUNH_HOP_LIMIT_DEFAULT;
	inet_pton(AF_INET, "10.23.0.1", &f->sip4);
	inet_pton(AF_INET, "10.23.0.2", &f->dip4);
	inet_pton(AF_INET6, "fd00:23::1", &f->sip6);
	inet_pton(AF_INET6, "fd00:23::2", &f->dip6);
	f->sport = 0;
	f->dport = SUPERP_UDP_PORT;
	f->ttl = 64;
	f->udp_csum = 1;
	f->ack_psn = SUPERP_ACK_PSN_NONE;
	f->ack_xid = SUPERP_ACK_XID_NONE;
	f->num_ops = -1;
	f->raw_op_len = 16;
	f->block = -1;
	f->pattern = -1;
	f->truncate = -1;
}

static void parse_encap(struct gen_frame *f, const char *s)
{
	if (!strcmp(s, "sunh"))
		f->encap = ENCAP_SUNH;
	else if (!strcmp(s, "lite"))
		f->encap = ENCAP_LITE;
	else if (!strcmp(s, "ipv4"))
		f->encap = ENCAP_IPV4;
	else if (!strcmp(s, "ipv6"))
		f->encap = ENCAP_IPV6;
	else
		die("unknown encapsulation: %s", s);
}

/* The frame options given so far, a bit per O_* (for --datagram). */
static uint64_t given;
#define GIVEN(o)	(1ULL << ((o) - O_ENCAP))
_Static_assert(O_END - O_ENCAP <= 64, "a bit of given per option");

/*
 * --datagram: a datagram's fields (Documentation/wire-format.rst,
 * Datagrams), each unless its own option gives it, before or after.
 */
static void datagram(struct gen_frame *f)
{
	if (!(given & GIVEN(O_DCID)))
		f->dcid = SUPERP_DCID_DATAGRAM;
	if (!(given & GIVEN(O_OPCODE)))
		f->opcode = SUPERP_OP_RD_SEND;
	f->eom = 1;
	if (!(given & GIVEN(O_PSN)))
		f->psn = 0;
	if (!(given & GIVEN(O_ACKPSN)))
		f->ack_psn = 0;
	if (!(given & GIVEN(O_SEQNO)))
		f->seqno = 0;
	if (!(given & GIVEN(O_XID)))
		f->xid = 0;
	if (!(given & GIVEN(O_ACKXID)))
		f->ack_xid = 0;
}

/* Options that set a field of the frame description. */
static void frame_opt(struct gen_frame *f, int c, const char *a)
{
	if (c >= O_ENCAP && c < O_END)
		given |= GIVEN(c);
	switch (c) {
	case O_ENCAP:
		parse_encap(f, a);
		break;
	case O_DMAC:
		mac(a, f->dmac);
		break;
	case O_SMAC:
		mac(a, f->smac);
		break;
	case O_VLAN:
		f->vlan = num(a, 4095);
		break;
	case O_ETHERTYPE:
		f->ethertype = num(a, 0xffff);
		break;
	case O_SADDR:
		f->saddr = num(a, 0xffff);
		break;
	case O_DADDR:
		f->daddr = num(a, 0xffff);
		break;
	case O_TCLASS:
		f->tclass = num(a, 255);
		break;
	case O_NEXTHDR:
		f->nexthdr = num(a, 255);
		f->nexthdr_set = 1;
		break;
	case O_HOP:
		f->hop_limit = num(a, SUNH_HOP_LIMIT_MAX);
		break;
	case O_FLOW:
		f->flow_label = num(a, SUNH_FLOW_LABEL_MASK);
		break;
	case O_SIP:
		ip_arg(f, a, 0);
		break;
	case O_DIP:
		ip_arg(f, a, 1);
		break;
	case O_SPORT:
		f->sport = num(a, 0xffff);
		break;
	case O_DPORT:
		f->dport = num(a, 0xffff);
		break;
	case O_TTL:
		f->ttl = num(a, 255);
		break;
	case O_NOCSUM:
		f->udp_csum = 0;
		break;
	case O_DCID:
		f->dcid = num(a, 0xffff);
		break;
	case O_RWIN:
		f->rwin = num(a, 0xffff);
		break;
	case O_PSN:
		f->psn = num(a, UINT32_MAX);
		break;
	case O_ACKPSN:
		f->ack_psn = num(a, UINT32_MAX);
		break;
	case O_SACK:
		f->sack = num(a, UINT32_MAX);
		break;
	case O_OPCODE:
		f->opcode = opcode_arg(a);
		break;
	case O_EOM:
		f->eom = 1;
		break;
	case O_XID:
		f->xid = num(a, 0xffff);
		break;
	case O_SEQNO:
		f->seqno = num(a, 0xffff);
		break;
	case O_ACKXID:
		f->ack_xid = num(a, 0xffff);
		break;
	case O_DATAGRAM:
		datagram(f);
		break;
	case O_LITE:
		f->lite = 1;
		break;
	case O_PATTERN:
		f->pattern = strcmp(a, "incr") ? (int)num(a, 255) : -1;
		break;
	case O_NUMOPS:
		f->num_ops = num(a, SUPERP_TAL_MAX_OPS);
		break;
	case O_BLOCK:
		f->block = num(a, GEN_MAX_FRAME);
		break;
	case O_RAWOPLEN:
		f->raw_op_len = num(a, 255);
		break;
	case O_TALRSVD:
		f->tal_rsvd = num(a, 7);
		break;
	case O_EXTRA:
		f->extra = num(a, GEN_MAX_FRAME);
		break;
	case O_TRUNCATE:
		f->truncate = num(a, GEN_MAX_FRAME);
		break;
	case O_NOPAD:
		f->no_pad = 1;
		break;
	default:
		fputs(help_text, stderr);
		exit(2);
	}
}

static void hexdump(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x%s", p[i], (i % 16 == 15 || i + 1 == len) ? "\n" :
		       (i % 8 == 7 ? "  " : " "));
}

/* Computed pad counts must fit their byte: packing has limits. */
static void check_pads(const struct gen_frame *f, unsigned int block)
{
	unsigned int i;

	if (!superp_op_has_pad(f->opcode))
		return;
	for (i = 0; i < f->nops; i++)
		if (!(f->ops[i].set & 1U << F_PAD) &&
		    block - f->ops[i].v[F_PAYLOAD] > SUPERP_MAX_PAD &&
		    f->ops[i].v[F_PAYLOAD] < block)
			die("op payloads differ by more than 255: give pad=%s",
			    " explicitly");
}

int main(int argc, char **argv)
{
	static uint8_t buf[GEN_MAX_FRAME];
	const char *wfile = NULL, *ifname = NULL, *learn = NULL;
	int c, append = 0, verbose = 0, dump = 0, fd = -1, ifindex = 0;
	unsigned long count = 1, n;
	uint64_t fuzz_state = 0, peer_state = 0;
	int fuzz = 0, peer = 0, udp = 0, damage = 0;
	unsigned int mtu = 1500;
	struct gen_result r;
	struct gen_frame f, base;
	FILE *fp = NULL;

	defaults(&f);
	while ((c = getopt_long(argc, argv, "w:ai:n:vxhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'w':
			wfile = optarg;
			break;
		case 'a':
			append = 1;
			break;
		case 'i':
			ifname = optarg;
			break;
		case 'n':
			count = num(optarg, 1000000);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'x':
			dump = 1;
			break;
		case 'h':
			fputs(help_text, stdout);
			return 0;
		case 'V':
			printf("superp-gen (SUPERp) %s\n", SUPERP_VERSION);
			return 0;
		case O_DESCRIBE:
			gen_describe(stdout);
			return 0;
		case O_OP:
			op_arg(&f, optarg);
			break;
		case O_FUZZ:
			fuzz = 1;
			gen_fuzz_seed(&fuzz_state, strtoull(optarg, NULL, 0));
			break;
		case O_PEER:
			peer = 1;
			peer_state = num(optarg, UINT64_MAX);
			break;
		case O_UDP:
			udp = 1;
			break;
		case O_MTU:
			mtu = num(optarg, GEN_MAX_FRAME - 18);
			break;
		case O_LEARN:
			learn = optarg;
			break;
		default:
			frame_opt(&f, c, optarg);
			break;
		}
	}
	/* superp-gen help, as sunh help and superp help. */
	if (optind == argc - 1 && !strcmp(argv[optind], "help")) {
		fputs(help_text, stdout);
		return 0;
	}
	if (optind < argc)
		die("unexpected argument: %s", argv[optind]);
	if (!wfile && !ifname && !dump && !udp)
		die("nothing to do: give -w FILE, -i IFNAME, --udp or -x%s", "");
	if (udp && f.encap != ENCAP_IPV4 && f.encap != ENCAP_IPV6)
		die("--udp needs --encap ipv4 or ipv6%s", "");
	if ((given & GIVEN(O_DATAGRAM)) && gen_lite(&f))
		die("--datagram needs a PDL header: not with --encap lite or --lite%s", "");
	if (peer && fuzz)
		die("--peer and --fuzz are two different attacks%s", "");
	if (learn) {
		c = gen_learn(learn, &f);
		if (c < 0)
			fail("not a pcap of Ethernet frames: %s", learn);
		if (!c)
			fail("the capture shows nothing of the connection: %s",
			     learn);
		if (verbose)
			printf("learned psn %u ack-psn %u xid %u ack-xid %u\n",
			       f.psn, f.ack_psn, f.xid, f.ack_xid);
	}
	/* Lite is a per-connection mode: the same next header as SUPERp. */
	if (!f.nexthdr_set)
		f.nexthdr = SUNH_NEXTHDR_SUPERP;
	if (!f.sport)
		f.sport = 49152 + f.flow_label;
	if (wfile && out_pcap_open(wfile, append, &fp))
		fail("cannot write %s", wfile);
	if (ifname && out_packet_open(ifname, &fd, &ifindex))
		fail("cannot open an AF_PACKET socket on %s", ifname);
	if (udp && out_udp_open(&f, &fd))
		fail("cannot open a UDP socket from port %s", "--sport");
	base = f;

	for (n = 0; n < count; n++) {
		if (peer)
			gen_peer(&peer_state, &base, &f, &damage);
		if (gen_build(&f, buf, &r)) {
			if (!peer)
				die("frame too long%s", "");
			f.nops = 1;	/* too many ops for one frame: fewer */
			if (gen_build(&f, buf, &r))
				die("frame too long%s", "");
		}
		if (peer) {
			r.len = gen_peer_damage(&peer_state, damage, buf,
						r.len, &f, &r);
			if (r.len > mtu + (f.vlan >= 0 ? 18 : 14))
				r.len = mtu + (f.vlan >= 0 ? 18 : 14);
		} else {
			check_pads(&f, r.block);
		}
		if (fuzz)
			r.len = gen_fuzz(&fuzz_state, buf, r.len,
					 f.vlan >= 0 ? 18 : 14, sizeof(buf));
		if (verbose)
			printf("len %zu superp %zu data %zu block %u\n",
			       r.len, r.superp_off, r.data_off, r.block);
		if (dump)
			hexdump(buf, r.len);
		if (fp && out_pcap_write(fp, buf, r.len))
			fail("cannot write %s", wfile);
		if (fd >= 0 && udp &&
		    out_udp_send(fd, &f, buf + r.superp_off,
				 r.len - r.superp_off))
			fail("cannot send to %s", "--dst-ip");
		if (fd >= 0 && !udp && out_packet_send(fd, ifindex, buf, r.len))
			fail("cannot send on %s", ifname);
		/* --peer draws its own; a datagram's PSN and seqno stay. */
		if (peer || (given & GIVEN(O_DATAGRAM)))
			continue;
		if (f.opcode != SUPERP_OP_PURE_ACK)
			f.psn++;
		f.seqno++;
	}
	if (fp && fclose(fp))
		fail("cannot write %s", wfile);
	return 0;
}
