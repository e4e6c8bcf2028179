/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SUPERp engine internals shared by the PDL, TAL and connection files (and
 * by the KUnit suites, which inspect state directly).
 */
#ifndef SUPERP_ENGINE_INT_H
#define SUPERP_ENGINE_INT_H

#include <linux/bitmap.h>
#include "superp_engine.h"

/* Wrap-safe sequence arithmetic: 32-bit PSNs, 16-bit XIDs. */
static inline bool psn_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool xid_before(u16 a, u16 b)
{
	return (s16)(u16)(a - b) < 0;
}

static inline u16 xid_diff(u16 a, u16 b)
{
	return (u16)(a - b);
}

static inline u32 superp_max_rpsn(const struct superp_conn *c)
{
	return c->next_acked_rpsn + c->window;
}

static inline void *superp_cold_at(const struct superp_conn *c, u16 off)
{
	return (char *)c->cold + ((size_t)off << 3);
}

static inline struct superp_spsn *superp_spsn(const struct superp_conn *c,
					      u32 psn)
{
	struct superp_spsn *s = superp_cold_at(c, c->off_spsn);

	return &s[psn & (c->wslots - 1)];
}

static inline struct superp_ixid *superp_ixid(const struct superp_conn *c,
					      u16 xid)
{
	struct superp_ixid *s = superp_cold_at(c, c->off_ixid);

	return &s[xid & (c->tslots - 1)];
}

static inline struct superp_txid *superp_txid(const struct superp_conn *c,
					      u16 xid)
{
	struct superp_txid *s = superp_cold_at(c, c->off_txid);

	return &s[xid & (c->tslots - 1)];
}

static inline struct superp_held *superp_held(const struct superp_conn *c,
					      u32 psn)
{
	struct superp_held *s = superp_cold_at(c, c->off_held);

	return &s[psn & (c->wslots - 1)];
}

/* Bitmaps, each based at the left edge of its window. */
static inline unsigned long *superp_sbm(const struct superp_conn *c)
{
	return superp_cold_at(c, c->off_bm);		/* acked_sbitmap */
}

static inline unsigned long *superp_rbm(const struct superp_conn *c)
{
	return superp_sbm(c) + c->wlongs;		/* acked_rbitmap */
}

static inline unsigned long *superp_ibm(const struct superp_conn *c)
{
	return superp_rbm(c) + c->wlongs;		/* retired_ibitmap */
}

static inline unsigned long *superp_cbm(const struct superp_conn *c)
{
	return superp_ibm(c) + c->tlongs;		/* comp_tbitmap */
}

static inline unsigned long *superp_tbm(const struct superp_conn *c)
{
	return superp_cbm(c) + c->tlongs;		/* retired_tbitmap */
}

/*
 * Seqno bitmaps: tal_max_pkt_per_trans bits per XID slot, packed end to end
 * in one bitmap (ixid[] slots, then txid[] slots), so that 32-packet
 * transactions do not leave half of every long unused. The accessors give
 * the bit where a slot's seqno 0 lives.
 */
static inline unsigned long *superp_seqbm(const struct superp_conn *c)
{
	return superp_cold_at(c, c->off_iseq);
}

static inline size_t superp_iseq(const struct superp_conn *c, u16 xid)
{
	return (size_t)(xid & (c->tslots - 1)) * c->max_pkts;
}

static inline size_t superp_tseq(const struct superp_conn *c, u16 xid)
{
	return (size_t)(c->tslots + (xid & (c->tslots - 1))) * c->max_pkts;
}

static inline u16 *superp_rq(const struct superp_conn *c)
{
	return superp_cold_at(c, c->off_rq);
}

static inline const struct superp_params *superp_p(const struct superp_conn *c)
{
	return &c->cold->p;
}

/* Shift a bitmap of @bits right by @n (n may exceed @bits). */
static inline void superp_bm_shift(unsigned long *bm, unsigned int bits,
				   unsigned int n)
{
	if (n >= bits)
		bitmap_zero(bm, bits);
	else
		bitmap_shift_right(bm, bm, n, bits);
}

/* Receive accounting: a packet dropped for the reason @why counts. */
static inline void superp_rx_dropped(struct superp_conn *c, u64 *why)
{
	(*why)++;
	c->cold->stats.rx_dropped++;
}

/* superp_conn.c */
/* Tests only: start at chosen PSN and XID (wrap-around). */
void superp_conn_set_base(struct superp_conn *c, u32 psn, u16 xid);
void superp_event(struct superp_conn *c, enum superp_event ev, u32 info);
void superp_conn_begin(struct superp_conn *c, u64 now);
void superp_conn_end(struct superp_conn *c, u64 now);

/* superp_pdl.c */
bool superp_pdl_can_send(const struct superp_conn *c);
int superp_pdl_send(struct superp_conn *c, const struct superp_pkt *tmpl,
		    void *cookie, u64 now);
void superp_pdl_resend_unsent(struct superp_conn *c, u64 now);
void superp_pdl_pure_ack(struct superp_conn *c, u64 now);
void superp_pdl_probe(struct superp_conn *c, u64 now);
void superp_pdl_nack(struct superp_conn *c, u32 psn, u64 now);
int superp_pdl_rx(struct superp_conn *c, const struct superp_pkt *p,
		  void *buf, u64 now);
void superp_pdl_timer(struct superp_conn *c, u64 now);
u64 superp_pdl_rtx_deadline(const struct superp_conn *c);
u64 superp_pdl_tail_deadline(const struct superp_conn *c, u64 rto);
bool superp_pdl_ack_due(const struct superp_conn *c);

/* superp_tal.c */
int superp_tal_ack_xid_check(struct superp_conn *c, u16 ack_xid);
void superp_tal_ack_xid(struct superp_conn *c, u16 ack_xid);
bool superp_tal_rx(struct superp_conn *c, const struct superp_pkt *p,
		   void *buf);
void superp_tal_psn_acked(struct superp_conn *c,
			  const struct superp_spsn *s);
void superp_tal_pump(struct superp_conn *c, u64 now);
void superp_tal_fail_all(struct superp_conn *c, int reason);
u64 superp_tal_probe_deadline(struct superp_conn *c);
void superp_tal_probe_timer(struct superp_conn *c, u64 now);

#endif /* SUPERP_ENGINE_INT_H */
