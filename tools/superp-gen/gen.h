/* SPDX-License-Identifier: GPL-2.0 */
/* superp-gen: the description of one frame, shared by its parts. */
#ifndef SUPERP_GEN_H
#define SUPERP_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>
#include <linux/sunh.h>
#include <rdma/superp_wire.h>

enum gen_encap { ENCAP_SUNH, ENCAP_LITE, ENCAP_IPV4, ENCAP_IPV6 };

/* Operation fields a user can set; names as in struct superp_*_op. */
enum gen_field {
	F_QPN, F_RKEY, F_ADDR, F_LENGTH, F_OFFSET, F_KEY, F_IMM, F_SEQNO,
	F_OPNUM, F_MAJOR, F_MINOR, F_COMPARE, F_SWAP, F_ADD, F_ORIG, F_SQPN,
	F_FLAGS, F_QKEY, F_WRITE_XID, F_RSVD, F_PAD, F_PAYLOAD, F_NR
};

extern const char *const gen_field_names[F_NR];

struct gen_op {
	uint64_t v[F_NR];
	uint32_t set;		/* bit per enum gen_field given by the user */
};

#define GEN_MAX_FRAME	65600

struct gen_frame {
	enum gen_encap encap;
	int lite;			/* --lite: no PDL (--encap lite: SUNH) */
	uint8_t dmac[6], smac[6];
	int vlan;			/* -1: untagged */
	int ethertype;			/* -1: from the encapsulation */
	/* SUNH */
	unsigned int tclass, nexthdr, hop_limit, flow_label, saddr, daddr;
	int nexthdr_set;
	/* UDP/IP */
	struct in6_addr sip6, dip6;
	struct in_addr sip4, dip4;
	unsigned int sport, dport, ttl;
	int udp_csum;
	/* PDL */
	unsigned int dcid, rwin;
	uint32_t psn, ack_psn, sack;
	/* TAL */
	unsigned int opcode, xid, seqno, ack_xid, tal_rsvd, eom;
	int num_ops;			/* -1: the number of --op */
	/* operations and data */
	struct gen_op ops[SUPERP_TAL_MAX_OPS];
	unsigned int nops;
	unsigned int raw_op_len;	/* header size for unknown opcodes */
	int block;			/* -1: computed */
	int pattern;			/* -1: incrementing, else the byte */
	/* deliberate damage */
	int truncate;			/* -1: none */
	unsigned int extra;
	int no_pad;
};

/* Opcode table: name, number, the fields its header carries. */
struct gen_opcode {
	const char *name;
	unsigned int opcode;
	uint32_t fields;
	const char *title;
};

extern const struct gen_opcode gen_opcodes[];
const struct gen_opcode *gen_opcode_by_num(unsigned int opcode);
const struct gen_opcode *gen_opcode_by_name(const char *name);

/* Summary of what was built, for --verbose. */
struct gen_result {
	size_t len;
	size_t superp_off;		/* first byte of the PDL (TAL if lite) */
	size_t data_off;		/* first byte of the data region */
	unsigned int block;
};

int gen_build(const struct gen_frame *f, uint8_t *buf, struct gen_result *r);

int out_pcap_open(const char *path, int append, FILE **fp);
int out_pcap_write(FILE *fp, const uint8_t *buf, size_t len);
int out_packet_open(const char *ifname, int *fd, int *ifindex);
int out_packet_send(int fd, int ifindex, const uint8_t *buf, size_t len);

int out_udp_open(const struct gen_frame *f, int *fd);
int out_udp_send(int fd, const struct gen_frame *f, const uint8_t *buf,
		 size_t len);

void gen_describe(FILE *out);

int gen_learn(const char *path, struct gen_frame *f);
void gen_peer(uint64_t *s, const struct gen_frame *base, struct gen_frame *f,
	      int *damage);
size_t gen_peer_damage(uint64_t *s, int damage, uint8_t *buf, size_t len,
		       const struct gen_frame *f, const struct gen_result *r);

void gen_fuzz_seed(uint64_t *state, uint64_t seed);
size_t gen_fuzz(uint64_t *state, uint8_t *buf, size_t len, size_t l2len,
		size_t max);

/* SUPERp-lite: the TAL header right after the network header. */
static inline int gen_lite(const struct gen_frame *f)
{
	return f->encap == ENCAP_LITE || f->lite;
}

#endif
