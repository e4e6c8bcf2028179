// SPDX-License-Identifier: GPL-2.0
/*
 * superp-gen --learn: a live connection's state from a capture of its
 * link, for --peer. The frame options name the connection as its peer
 * sees it (encapsulation, addresses: source = the peer, destination = the
 * victim; --dcid the victim's local CID). Frames the victim sent give the
 * last PSN it sent (--ack-psn), the next PSN it expects (its ACK PSN + 1,
 * --psn), the last XID it started (--ack-xid) and the next XID it expects
 * (its ACK XID + 1, --xid); frames to it on --dcid move the last two
 * forward when they are newer. Sequence numbers compare with wrap-around.
 */
#include <string.h>
#include <arpa/inet.h>

#include "gen.h"

struct learn {
	int have_psn, have_sent, have_xid, have_started;
	uint32_t psn, sent;
	uint16_t xid, started;
};

static int after32(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

static int after16(uint16_t a, uint16_t b)
{
	return (int16_t)(a - b) > 0;
}

static void newer32(int *have, uint32_t *v, uint32_t x)
{
	if (!*have || after32(x, *v))
		*v = x;
	*have = 1;
}

static void newer16(int *have, uint16_t *v, uint16_t x)
{
	if (!*have || after16(x, *v))
		*v = x;
	*have = 1;
}

static int is_reply(unsigned int opcode)
{
	return opcode == SUPERP_OP_TRANS_ERROR ||
	       opcode == SUPERP_OP_READ_RESP ||
	       opcode == SUPERP_OP_ATOMIC_RESP;
}

/* One SUPERp packet, @from_victim or to it. */
static void learn_pkt(struct learn *l, const struct gen_frame *f,
		      const uint8_t *p, size_t len, int from_victim)
{
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal;
	uint32_t psn, ack_psn;
	uint16_t xid, ack_xid;

	if (len < sizeof(pdl) + sizeof(tal))
		return;
	memcpy(&pdl, p, sizeof(pdl));
	memcpy(&tal, p + sizeof(pdl), sizeof(tal));
	psn = __le32_to_cpu(pdl.psn);
	ack_psn = __le32_to_cpu(pdl.ack_psn);
	xid = __le16_to_cpu(tal.xid);
	ack_xid = __le16_to_cpu(tal.ack_xid);
	if (!from_victim) {
		if (__le16_to_cpu(pdl.dcid) != f->dcid)
			return;
		if (tal.opcode != SUPERP_OP_PURE_ACK)
			newer32(&l->have_psn, &l->psn, psn + 1);
		if (tal.opcode != SUPERP_OP_PURE_ACK && !is_reply(tal.opcode))
			newer16(&l->have_xid, &l->xid, xid + 1);
		return;
	}
	if (tal.opcode != SUPERP_OP_PURE_ACK)
		newer32(&l->have_sent, &l->sent, psn);
	if (ack_psn != SUPERP_ACK_PSN_NONE)
		newer32(&l->have_psn, &l->psn, ack_psn + 1);
	if (tal.opcode != SUPERP_OP_PURE_ACK && !is_reply(tal.opcode))
		newer16(&l->have_started, &l->started, xid);
	if (ack_xid != SUPERP_ACK_XID_NONE)
		newer16(&l->have_xid, &l->xid, ack_xid + 1);
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

/* One Ethernet frame: the SUPERp packet of the connection, if it is one. */
static void learn_frame(struct learn *l, const struct gen_frame *f,
			const uint8_t *b, size_t len)
{
	size_t off = 14, ihl;
	unsigned int et;
	uint16_t s, d;

	if (len < off)
		return;
	et = get16(b + 12);
	if (et == 0x8100 && len >= 18) {
		et = get16(b + 16);
		off = 18;
	}
	b += off;
	len -= off;
	switch (f->encap) {
	case ENCAP_SUNH:
		if (et != ETH_P_SUNH || len < SUNH_HLEN ||
		    b[1] != SUNH_NEXTHDR_SUPERP)
			return;
		s = get16(b + 4);
		d = get16(b + 6);
		if (s == f->daddr && d == f->saddr)
			learn_pkt(l, f, b + SUNH_HLEN, len - SUNH_HLEN, 1);
		else if (s == f->saddr && d == f->daddr)
			learn_pkt(l, f, b + SUNH_HLEN, len - SUNH_HLEN, 0);
		return;
	case ENCAP_IPV4:
		if (et != 0x0800 || len < 20 || b[9] != IPPROTO_UDP)
			return;
		ihl = (b[0] & 15) * 4;
		if (len < ihl + 8 || get16(b + ihl + 2) != f->dport)
			return;
		if (!memcmp(b + 12, &f->dip4, 4) && !memcmp(b + 16, &f->sip4, 4))
			learn_pkt(l, f, b + ihl + 8, len - ihl - 8, 1);
		else if (!memcmp(b + 12, &f->sip4, 4) &&
			 !memcmp(b + 16, &f->dip4, 4))
			learn_pkt(l, f, b + ihl + 8, len - ihl - 8, 0);
		return;
	case ENCAP_IPV6:
		if (et != 0x86dd || len < 48 || b[6] != IPPROTO_UDP ||
		    get16(b + 42) != f->dport)
			return;
		if (!memcmp(b + 8, &f->dip6, 16) && !memcmp(b + 24, &f->sip6, 16))
			learn_pkt(l, f, b + 48, len - 48, 1);
		else if (!memcmp(b + 8, &f->sip6, 16) &&
			 !memcmp(b + 24, &f->dip6, 16))
			learn_pkt(l, f, b + 48, len - 48, 0);
		return;
	default:
		return;
	}
}

/**
 * gen_learn() - set @f's PSN and XID state from a capture.
 * @path: a classic pcap file of Ethernet frames (either byte order).
 * @f: the connection; its psn, ack_psn, xid and ack_xid are set from
 *	what the capture shows (fields it does not show stay as given).
 *
 * Return: 1 when the capture showed some of it, 0 when nothing, -1 on a
 * file that is not a pcap of Ethernet frames.
 */
int gen_learn(const char *path, struct gen_frame *f)
{
	static uint8_t buf[GEN_MAX_FRAME];
	struct learn l = {};
	uint32_t h[6], r[4];
	int swap;
	FILE *fp;

	fp = fopen(path, "rb");
	if (!fp)
		return -1;
	if (fread(h, 4, 6, fp) != 6)
		goto bad;
	swap = h[0] == 0xd4c3b2a1U || h[0] == 0x4d3cb2a1U;
	if (!swap && h[0] != 0xa1b2c3d4U && h[0] != 0xa1b23c4dU)
		goto bad;
	if ((swap ? __builtin_bswap32(h[5]) : h[5]) != 1)
		goto bad;			/* not Ethernet */
	while (fread(r, 4, 4, fp) == 4) {
		uint32_t cap = swap ? __builtin_bswap32(r[2]) : r[2];

		if (cap > sizeof(buf) || fread(buf, 1, cap, fp) != cap)
			goto bad;
		learn_frame(&l, f, buf, cap);
	}
	fclose(fp);
	if (l.have_psn)
		f->psn = l.psn;
	if (l.have_sent)
		f->ack_psn = l.sent;
	if (l.have_xid)
		f->xid = l.xid;
	if (l.have_started)
		f->ack_xid = l.started;
	return l.have_psn || l.have_sent || l.have_xid || l.have_started;
bad:
	fclose(fp);
	return -1;
}
