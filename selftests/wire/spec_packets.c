// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-built packets of kunit/superp_spec_packets.h for host tests:
 *
 *   spec-packets pcap FILE   one Ethernet + SUNH frame per packet, as
 *                            superp-gen frames it with its defaults
 *   spec-packets list        per packet: its frame in hex, the superp-gen
 *                            arguments that should build the same frame,
 *                            and the tshark fields the dissector must show
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <inttypes.h>
#include "superp_spec_packets.h"

#define ETH_MIN		60
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NPKT		ARRAY_SIZE(spec_packets)

/* superp-gen's defaults: MACs 02::02 <- 02::01, SUNH 1 -> 2, hop 15. */
static const uint8_t wrap[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x88, 0xb5,
	0x00, 253, 0xf0, 0x00, 0x00, 0x01, 0x00, 0x02,
};

static size_t frame(const struct spec_packet *sp, uint8_t *buf)
{
	size_t len = sizeof(wrap) + sp->len;

	memset(buf, 0, ETH_MIN);
	memcpy(buf, wrap, sizeof(wrap));
	memcpy(buf + sizeof(wrap), sp->bytes, sp->len);
	return len < ETH_MIN ? ETH_MIN : len;
}

static int write_pcap(const char *path)
{
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t zone;
		uint32_t sigfigs, snaplen, linktype;
	} hdr = { 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1 /* Ethernet */ };
	uint8_t buf[2048];
	FILE *fp = fopen(path, "wb");
	size_t i;

	if (!fp)
		return 1;
	fwrite(&hdr, sizeof(hdr), 1, fp);
	for (i = 0; i < NPKT; i++) {
		uint32_t len = frame(&spec_packets[i], buf);
		uint32_t rec[4] = { (uint32_t)i, 0, len, len };	/* sec, usec, lens */

		fwrite(rec, sizeof(rec), 1, fp);
		fwrite(buf, rec[2], 1, fp);
	}
	return fclose(fp) != 0;
}

/* How the dissector shows a field of an operation (tshark -T fields). */
static const char *tshark_name(const char *name, const char **fmt)
{
	static const struct { const char *name, *field, *fmt; } map[] = {
		{ "addr", "superp.op.addr", "0x%016" PRIx64 },
		{ "key", "superp.op.key", "0x%08" PRIx64 },
		{ "length", "superp.op.length", "%" PRIu64 },
		{ "offset", "superp.op.offset", "%" PRIu64 },
		{ "qpn", "superp.op.qpn", "%" PRIu64 },
		{ "seqno", "superp.op.seqno", "%" PRIu64 },
		{ "opnum", "superp.op.opnum", "%" PRIu64 },
		{ "major", "superp.op.major", "%" PRIu64 },
		{ "minor", "superp.op.minor", "%" PRIu64 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		if (!strcmp(map[i].name, name)) {
			*fmt = map[i].fmt;
			return map[i].field;
		}
	}
	*fmt = "%" PRIu64;
	return name;
}

static const char *gen_opcode(unsigned int op)
{
	switch (op) {
	case 0: return "noop";
	case 1: return "last-null";
	case 2: return "terr";
	case 8: return "read";
	case 9: return "write";
	case 10: return "read-resp";
	case 11: return "send";
	case 12: return "send-qp";
	}
	return "?";
}

static void list(void)
{
	uint8_t buf[2048];
	size_t i, j, k, n;

	for (i = 0; i < NPKT; i++) {
		const struct spec_packet *sp = &spec_packets[i];

		printf("packet %zu %s\nhex ", i + 1, sp->name);
		n = frame(sp, buf);
		for (j = 0; j < n; j++)
			printf("%02x", buf[j]);
		printf("\ngen --opcode %s --dcid %u --rwin %u --psn %u",
		       gen_opcode(sp->opcode), sp->dcid, sp->rwin, sp->psn);
		printf(" --ack-psn %u --sack %u --seqno %u --xid %u --ack-xid %u%s",
		       sp->ack_psn, sp->sack, sp->seqno, sp->xid, sp->ack_xid,
		       sp->eom ? " --eom" : "");
		for (j = 0; j < sp->num_ops; j++) {
			printf(" --op ");
			for (k = 0; k < SPEC_MAX_FIELDS && sp->ops[j][k].name; k++)
				printf("%s%s=%" PRIu64, k ? "," : "",
				       sp->ops[j][k].name,
				       (uint64_t)sp->ops[j][k].value);
			if (sp->block)
				printf(",payload=%u", sp->block);
		}
		printf("\nexpect superp.pdl.dcid=%u superp.pdl.rwin=%u", sp->dcid,
		       sp->rwin);
		printf(" superp.pdl.psn=%u superp.pdl.ack_psn=%u", sp->psn,
		       sp->ack_psn);
		printf(" superp.pdl.sack=0x%08x superp.tal.eom=%u", sp->sack,
		       sp->eom);
		printf(" superp.tal.num_ops=%u superp.tal.opcode=%u",
		       sp->num_ops, sp->opcode);
		printf(" superp.tal.seqno=%u superp.tal.xid=%u superp.tal.ack_xid=%u",
		       sp->seqno, sp->xid, sp->ack_xid);
		if (sp->block) {
			printf(" superp.block_size=%u superp.block.payload_len=", sp->block);
			for (j = 0; j < sp->num_ops; j++)
				printf("%s%u", j ? "," : "", sp->block);
		}
		/* each field: its values over the operations, comma-separated */
		for (k = 0; k < SPEC_MAX_FIELDS && sp->num_ops && sp->ops[0][k].name; k++) {
			const char *fmt, *name = tshark_name(sp->ops[0][k].name, &fmt);

			printf(" %s=", name);
			for (j = 0; j < sp->num_ops; j++) {
				printf(j ? "," : "");
				printf(fmt, (uint64_t)sp->ops[j][k].value);
			}
		}
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pcap"))
		return write_pcap(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "list")) {
		list();
		return 0;
	}
	fprintf(stderr, "usage: spec-packets pcap FILE | list\n");
	return 2;
}
