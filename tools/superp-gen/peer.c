// SPDX-License-Identifier: GPL-2.0
/*
 * superp-gen --peer: speak as a hostile peer of a live connection. The
 * frame options describe the connection as its peer would address it
 * (encapsulation, addresses, --dcid = the victim's local CID) and its
 * state (--psn = the next PSN the victim expects, --ack-psn = the last
 * PSN it sent, --xid = the next XID its target window expects, --ack-xid
 * = the last XID it started); each frame is that base with fields drawn
 * reproducibly from the seed: PSNs and ACK PSNs in, at the edge of and
 * outside the windows, random SACK bits, NACKs, duplicate and
 * out-of-order seqnos, eom twice, every opcode (requests and replies, so
 * replies to requests never made), operation headers with random keys,
 * addresses, offsets, lengths and QPNs, block sizes below 16 and not
 * dividing the data region, a cut at every header boundary, and random
 * bytes after valid encapsulation headers.
 */
#include <string.h>

#include "gen.h"

/* SplitMix64: a seed gives the same frames on every machine. */
static uint64_t peer_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t peer_below(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(peer_next(s) % n) : 0;
}

/* Near @base: inside a window of 32, at its edges, behind it, anywhere. */
static uint32_t peer_seq32(uint64_t *s, uint32_t base)
{
	switch (peer_below(s, 6)) {
	case 0:
		return base + peer_below(s, 32);	/* in the window */
	case 1:
		return base + 31 + peer_below(s, 3);	/* its last, first out */
	case 2:
		return base - 1 - peer_below(s, 64);	/* old: duplicate */
	case 3:
		return base + 32 + peer_below(s, 1u << 20);	/* far out */
	case 4:
		return base;				/* the next one */
	default:
		return (uint32_t)peer_next(s);
	}
}

static uint16_t peer_seq16(uint64_t *s, uint16_t base)
{
	switch (peer_below(s, 4)) {
	case 0:
		return base + peer_below(s, 16);
	case 1:
		return base - 1 - peer_below(s, 8);
	case 2:
		return base;
	default:
		return (uint16_t)peer_next(s);
	}
}

/* A random value for an operation field: small ones find real objects. */
static uint64_t peer_field(uint64_t *s, int field)
{
	switch (field) {
	case F_QPN:
	case F_SQPN:
		return peer_below(s, 2) ? peer_below(s, 64) :
					  peer_next(s) & 0xffffff;
	case F_PAYLOAD:
		return peer_below(s, 300);
	case F_LENGTH:
		return peer_below(s, 2) ? peer_below(s, 70000) :
					  (uint32_t)peer_next(s);
	case F_PAD:
		return peer_below(s, 256);
	case F_OPNUM:
		return peer_below(s, 16);
	case F_SEQNO:
		return peer_below(s, 40);
	case F_MAJOR:
	case F_MINOR:
	case F_FLAGS:
		return peer_below(s, 256);
	case F_RSVD:
		return peer_below(s, 4) ? 0 : peer_below(s, 256);
	default:
		return peer_next(s);
	}
}

/**
 * gen_peer() - the next hostile frame of a live connection.
 * @s: the seeded state.
 * @base: the connection as given on the command line.
 * @f: filled with the frame's description.
 * @damage: set to how to damage the built frame: 0 none, 1 cut it at a
 *	header boundary, 2 random bytes after the encapsulation header.
 */
void gen_peer(uint64_t *s, const struct gen_frame *base, struct gen_frame *f,
	      int *damage)
{
	const struct gen_opcode *o;
	unsigned int i, n = 0;
	int k;

	*f = *base;
	for (o = gen_opcodes; o->name; o++)
		n++;
	k = peer_below(s, 10);
	if (k < 7)
		f->opcode = gen_opcodes[peer_below(s, n)].opcode;
	else if (k < 9)
		f->opcode = SUPERP_OP_PURE_ACK;	/* ACKs, SACKs, NACKs */
	else
		f->opcode = peer_below(s, 256);
	f->psn = peer_seq32(s, base->psn);
	f->ack_psn = peer_below(s, 5) ? peer_seq32(s, base->ack_psn - 31) :
					 SUPERP_ACK_PSN_NONE;
	f->sack = peer_below(s, 2) ? (uint32_t)peer_next(s) : 0;
	f->rwin = peer_below(s, 4) ? 1 + peer_below(s, 64) :
				     (uint16_t)peer_next(s);
	f->xid = peer_seq16(s, base->xid);
	f->ack_xid = peer_below(s, 4) ? peer_seq16(s, base->ack_xid) :
					SUPERP_ACK_XID_NONE;
	f->seqno = peer_below(s, 4) ? peer_below(s, 4) : peer_below(s, 40);
	f->eom = peer_below(s, 2);
	f->tal_rsvd = peer_below(s, 16) ? 0 : 1 + peer_below(s, 7);
	f->nops = f->opcode == SUPERP_OP_PURE_ACK && peer_below(s, 4) ? 0 :
		  1 + peer_below(s, peer_below(s, 4) ? 2 : SUPERP_TAL_MAX_OPS);
	if (f->opcode == SUPERP_OP_PURE_ACK && !f->nops)
		f->eom = 0;
	f->num_ops = peer_below(s, 12) ? -1 :
		     (int)peer_below(s, SUPERP_TAL_MAX_OPS + 1);
	o = gen_opcode_by_num(f->opcode);
	memset(f->ops, 0, sizeof(f->ops));
	for (i = 0; i < f->nops; i++) {
		for (k = 0; k < F_NR; k++) {
			if (o && !(o->fields & 1U << k))
				continue;
			if (k == F_PAD && peer_below(s, 2))
				continue;	/* computed from the block */
			f->ops[i].v[k] = peer_field(s, k);
			f->ops[i].set |= 1U << k;
		}
		if (!o)
			f->ops[i].v[F_PAYLOAD] = peer_field(s, F_PAYLOAD);
	}
	k = peer_below(s, 8);
	f->block = k == 0 ? (int)peer_below(s, 16) :	/* below 16 */
		   k == 1 ? 16 + (int)peer_below(s, 300) : -1;
	f->raw_op_len = peer_below(s, 4) ? 16 : peer_below(s, 64);
	f->truncate = -1;
	f->extra = peer_below(s, 16) ? 0 : peer_below(s, 64);
	k = peer_below(s, 10);
	*damage = k == 0 ? 1 : k == 1 ? 2 : 0;
}

/*
 * Damage a built frame: cut it at one of its header boundaries (after the
 * encapsulation, the PDL, the TAL or an operation header, or one byte
 * short of one), or keep the encapsulation header and put random bytes
 * after it. Returns the new length.
 */
size_t gen_peer_damage(uint64_t *s, int damage, uint8_t *buf, size_t len,
		       const struct gen_frame *f, const struct gen_result *r)
{
	size_t cut, n, i, pdl = gen_lite(f) ? 0 :
			       sizeof(struct superp_pdl_hdr);
	size_t bounds[4 + SUPERP_TAL_MAX_OPS];
	int hlen = superp_op_hlen(f->opcode);
	unsigned int k = 0;

	if (damage == 2) {
		n = peer_below(s, 200);
		for (i = 0; i < n && r->superp_off + i < GEN_MAX_FRAME; i++)
			buf[r->superp_off + i] = (uint8_t)peer_next(s);
		return r->superp_off + i;
	}
	if (damage != 1)
		return len;
	bounds[k++] = r->superp_off;
	bounds[k++] = r->superp_off + pdl;
	bounds[k++] = r->superp_off + pdl + sizeof(struct superp_tal_hdr);
	for (i = 0; i < f->nops && hlen > 0; i++)
		bounds[k++] = bounds[2] + (i + 1) * (size_t)hlen;
	cut = bounds[peer_below(s, k)];
	if (peer_below(s, 2) && cut > r->superp_off)
		cut--;			/* one byte short of it */
	return cut < len ? cut : len;
}
