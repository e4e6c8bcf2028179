// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp engine edge: fixed PDL and TAL headers to and from host order.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <kunit/visibility.h>
#include "superp_engine.h"

/**
 * superp_pkt_encode() - write the PDL and TAL headers of a packet.
 * @p: host-order fields.
 * @pdl: PDL header to fill.
 * @tal: TAL header to fill.
 */
void superp_pkt_encode(const struct superp_pkt *p, struct superp_pdl_hdr *pdl,
		       struct superp_tal_hdr *tal)
{
	pdl->dcid = cpu_to_le16(p->dcid);
	pdl->rwin = cpu_to_le16(p->rwin);
	pdl->psn = cpu_to_le32(p->psn);
	pdl->ack_psn = cpu_to_le32(p->ack_psn);
	pdl->sack = cpu_to_le32(p->sack);
	superp_pkt_encode_lite(p, tal);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pkt_encode);

/**
 * superp_pkt_encode_lite() - write the TAL header of a packet, the only
 * fixed header of SUPERp-lite (also the second half of superp_pkt_encode()).
 * @p: host-order fields; its PDL fields are not written.
 * @tal: TAL header to fill.
 */
void superp_pkt_encode_lite(const struct superp_pkt *p,
			    struct superp_tal_hdr *tal)
{
	tal->eom_num_ops = (p->eom ? SUPERP_TAL_EOM : 0) |
			   (p->num_ops & SUPERP_TAL_NUM_OPS_MASK);
	tal->opcode = p->opcode;
	tal->xid = cpu_to_le16(p->xid);
	tal->seqno = cpu_to_le16(p->seqno);
	tal->ack_xid = cpu_to_le16(p->ack_xid);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pkt_encode_lite);

/* The TAL half of superp_pkt_decode(); @p's other fields are left alone. */
static int superp_tal_decode(const struct superp_tal_hdr *tal,
			     struct superp_pkt *p)
{
	p->eom = !!(tal->eom_num_ops & SUPERP_TAL_EOM);
	p->num_ops = tal->eom_num_ops & SUPERP_TAL_NUM_OPS_MASK;
	p->opcode = tal->opcode;
	p->xid = le16_to_cpu(tal->xid);
	p->seqno = le16_to_cpu(tal->seqno);
	p->ack_xid = le16_to_cpu(tal->ack_xid);
	if (tal->eom_num_ops & ~(SUPERP_TAL_EOM | SUPERP_TAL_NUM_OPS_MASK))
		return -EPROTO;
	if (p->opcode == SUPERP_OP_PURE_ACK && (p->eom || p->num_ops))
		return -EPROTO;
	return 0;
}

/**
 * superp_pkt_decode() - read the PDL and TAL headers of a packet.
 * @pdl: PDL header as received.
 * @tal: TAL header as received.
 * @p: host-order fields (err and flags are cleared).
 *
 * Return: 0, or -EPROTO when reserved bits are set or a pure ACK carries
 * operations or eom.
 */
int superp_pkt_decode(const struct superp_pdl_hdr *pdl,
		      const struct superp_tal_hdr *tal, struct superp_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->dcid = le16_to_cpu(pdl->dcid);
	p->rwin = le16_to_cpu(pdl->rwin);
	p->psn = le32_to_cpu(pdl->psn);
	p->ack_psn = le32_to_cpu(pdl->ack_psn);
	p->sack = le32_to_cpu(pdl->sack);
	return superp_tal_decode(tal, p);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pkt_decode);

/**
 * superp_pkt_parse() - decode the fixed headers at the start of @hdr.
 * @hdr: PDL header followed by the TAL header (e.g. skb_header_pointer()).
 * @len: bytes available at @hdr.
 * @p: host-order fields.
 *
 * Return: 0, -EINVAL when @len is too short, or -EPROTO.
 */
int superp_pkt_parse(const void *hdr, unsigned int len, struct superp_pkt *p)
{
	const struct superp_pdl_hdr *pdl = hdr;

	if (len < SUPERP_PDL_HLEN + SUPERP_TAL_HLEN)
		return -EINVAL;
	return superp_pkt_decode(pdl, (const void *)(pdl + 1), p);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pkt_parse);

/**
 * superp_pkt_parse_lite() - decode the TAL header of a SUPERp-lite packet.
 * @hdr: the TAL header (there is no PDL header).
 * @len: bytes available at @hdr.
 * @p: host-order fields; the PDL fields are zero (the engine of a lite
 *	connection supplies them, superp_pdl_rx()).
 *
 * Return: 0, -EINVAL when @len is too short, or -EPROTO.
 */
int superp_pkt_parse_lite(const void *hdr, unsigned int len,
			  struct superp_pkt *p)
{
	memset(p, 0, sizeof(*p));
	if (len < SUPERP_TAL_HLEN)
		return -EINVAL;
	return superp_tal_decode(hdr, p);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pkt_parse_lite);
