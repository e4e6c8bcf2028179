// SPDX-License-Identifier: GPL-2.0
/*
 * superp-gen --describe: the wire layout as the uapi headers define it, so
 * that tests take offsets and sizes from the headers, not from a copy.
 */
#include <stddef.h>
#include <linux/sunh_netlink.h>
#include "gen.h"

#define CONST(c)	fprintf(out, "const %s %lu\n", #c, (unsigned long)(c))
#define FIELD(s, m)	fprintf(out, "field %s %s %zu %zu\n", #s, #m, \
				offsetof(struct s, m), sizeof(((struct s *)0)->m))

static const char *const op_structs[] = {
	[SUPERP_OP_TRANS_ERROR] = "superp_terr_op",
	[SUPERP_OP_RMA_READ] = "superp_read_op",
	[SUPERP_OP_RMA_WRITE] = "superp_write_op",
	[SUPERP_OP_READ_RESP] = "superp_read_resp_op",
	[SUPERP_OP_SEND] = "superp_send_op",
	[SUPERP_OP_SEND_QP] = "superp_send_qp_op",
	[SUPERP_OP_SEND_QP_IMM] = "superp_send_qp_imm_op",
	[SUPERP_OP_WRITE_COMPLETE] = "superp_write_complete_op",
	[SUPERP_OP_ATOMIC_CAS] = "superp_atomic_cas_op",
	[SUPERP_OP_ATOMIC_FADD] = "superp_atomic_fadd_op",
	[SUPERP_OP_ATOMIC_RESP] = "superp_atomic_resp_op",
	[SUPERP_OP_RD_SEND] = "superp_rd_send_op",
	[SUPERP_OP_RDMA_WRITE] = "superp_rdma_write_op",
	[SUPERP_OP_RDMA_READ] = "superp_rdma_read_op",
	[SUPERP_OP_SEND_QP_OFF] = "superp_send_qp_off_op",
	[SUPERP_OP_SEND_QP_MORE] = "superp_send_qp_off_op",
	[SUPERP_OP_QP_RESUME] = "superp_qp_resume_op",
	[SUPERP_OP_SEND_QP_INV] = "superp_send_qp_inv_op",
};

void gen_describe(FILE *out)
{
	const struct gen_opcode *o;

	CONST(ETH_P_SUNH);
	CONST(SUNH_HLEN);
	CONST(SUNH_NEXTHDR_SUPERP);
	CONST(SUNH_NEXTHDR_ECHO);
	CONST(SUNH_HOP_LIMIT_MAX);
	CONST(SUPERP_UDP_PORT);
	CONST(SUPERP_PDL_HLEN);
	CONST(SUPERP_DCID_DATAGRAM);
	CONST(SUPERP_TAL_HLEN);
	CONST(SUPERP_MIN_BLOCK);
	CONST(SUPERP_MAX_PAD);
	CONST(SUPERP_PAD_BYTE);
	CONST(SUPERP_TAL_MAX_OPS);
	CONST(SUPERP_ETH_ALIGN_PAD);
	CONST(SUPERP_ETH_HLEN);
	CONST(SUPERP_ETH_MIN_PAYLOAD);
	/* opcode NUMBER NAME HEADER-SIZE HAS-DATA STRUCT HAS-PAD */
	for (o = gen_opcodes; o->name; o++) {
		const char *s = o->opcode < sizeof(op_structs) / sizeof(*op_structs) ?
				op_structs[o->opcode] : NULL;

		fprintf(out, "opcode %u %s %d %d %s %d\n", o->opcode, o->name,
			superp_op_hlen(o->opcode),
			superp_op_has_data(o->opcode), s ? s : "-",
			superp_op_has_pad(o->opcode));
	}
	/* field STRUCT MEMBER OFFSET SIZE */
	FIELD(sunhhdr, tclass);
	FIELD(sunhhdr, nexthdr);
	FIELD(sunhhdr, hl_flow);
	FIELD(sunhhdr, saddr);
	FIELD(sunhhdr, daddr);
	FIELD(superp_pdl_hdr, dcid);
	FIELD(superp_pdl_hdr, rwin);
	FIELD(superp_pdl_hdr, psn);
	FIELD(superp_pdl_hdr, ack_psn);
	FIELD(superp_pdl_hdr, sack);
	FIELD(superp_tal_hdr, eom_num_ops);
	FIELD(superp_tal_hdr, opcode);
	FIELD(superp_tal_hdr, xid);
	FIELD(superp_tal_hdr, seqno);
	FIELD(superp_tal_hdr, ack_xid);
	FIELD(superp_terr_op, seqno);
	FIELD(superp_terr_op, opnum);
	FIELD(superp_terr_op, rsvd);
	FIELD(superp_terr_op, major);
	FIELD(superp_terr_op, minor);
	FIELD(superp_read_op, addr);
	FIELD(superp_read_op, length);
	FIELD(superp_write_op, addr);
	FIELD(superp_read_resp_op, req_seqno);
	FIELD(superp_read_resp_op, req_opnum);
	FIELD(superp_read_resp_op, rsvd);
	FIELD(superp_read_resp_op, offset);
	FIELD(superp_send_op, key);
	FIELD(superp_send_op, offset);
	FIELD(superp_send_qp_op, qpn_rsvd);
	FIELD(superp_send_qp_imm_op, qpn_pad);
	FIELD(superp_send_qp_imm_op, offset);
	FIELD(superp_send_qp_imm_op, imm);
	FIELD(superp_write_complete_op, qpn_rsvd);
	FIELD(superp_write_complete_op, imm);
	FIELD(superp_write_complete_op, length);
	FIELD(superp_write_complete_op, write_xid);
	FIELD(superp_write_complete_op, rsvd);
	FIELD(superp_atomic_cas_op, qpn_rsvd);
	FIELD(superp_atomic_cas_op, rkey);
	FIELD(superp_atomic_cas_op, addr);
	FIELD(superp_atomic_cas_op, compare);
	FIELD(superp_atomic_cas_op, swap);
	FIELD(superp_atomic_fadd_op, qpn_rsvd);
	FIELD(superp_atomic_fadd_op, rkey);
	FIELD(superp_atomic_fadd_op, addr);
	FIELD(superp_atomic_fadd_op, add);
	FIELD(superp_atomic_resp_op, req_seqno);
	FIELD(superp_atomic_resp_op, req_opnum);
	FIELD(superp_atomic_resp_op, rsvd);
	FIELD(superp_atomic_resp_op, rsvd2);
	FIELD(superp_atomic_resp_op, orig);
	FIELD(superp_rd_send_op, qpn_pad);
	FIELD(superp_rd_send_op, sqpn_flags);
	FIELD(superp_rd_send_op, qkey);
	FIELD(superp_rd_send_op, imm);
	FIELD(superp_rdma_write_op, qpn_pad);
	FIELD(superp_rdma_write_op, rkey);
	FIELD(superp_rdma_write_op, addr);
	FIELD(superp_rdma_read_op, qpn_rsvd);
	FIELD(superp_rdma_read_op, rkey);
	FIELD(superp_rdma_read_op, addr);
	FIELD(superp_rdma_read_op, length);
	FIELD(superp_rdma_read_op, rsvd);
	FIELD(superp_send_qp_off_op, qpn_pad);
	FIELD(superp_send_qp_off_op, offset);
	FIELD(superp_qp_resume_op, qpn_rsvd);
	FIELD(superp_send_qp_inv_op, qpn_pad);
	FIELD(superp_send_qp_inv_op, offset);
	FIELD(superp_send_qp_inv_op, inv_rkey);
}
