#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 300
#
# Wire format end to end on the host: superp-gen crafts frames of every
# opcode, every encapsulation and each malformed kind; tshark decodes them
# with tools/wireshark/superp.lua; every decoded field is compared with what
# was generated. Sizes and offsets come from the uapi headers through
# `superp-gen --describe`, never from a table kept here. SUPERp-lite shares
# next header 253 with SUPERp (a per-connection mode), so lite frames go to
# a second capture decoded with -o superp.lite:TRUE.
# Needs: make -C tools/superp-gen, and tshark.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

GEN=$top/tools/superp-gen/superp-gen
LUA=$top/tools/wireshark/superp.lua

if ! command -v tshark > /dev/null || [ ! -x "$GEN" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP needs tshark and $GEN (make -C tools/superp-gen)"
	exit $KSFT_SKIP
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------ the layout
declare -A C HLEN DATA STRUCT PAD
: > "$tmp/fields"
while read -r kind a b c d e g; do
	case $kind in
	const) C[$a]=$b ;;
	opcode) HLEN[$b]=$c; DATA[$b]=$d; STRUCT[$b]=$e; PAD[$b]=$g ;;
	field) echo "$a $b $c $d" >> "$tmp/fields" ;;
	esac
done < <("$GEN" --describe)

ETH=${C[SUPERP_ETH_HLEN]}
SUNH=${C[SUNH_HLEN]}
PDL=${C[SUPERP_PDL_HLEN]}
TAL=${C[SUPERP_TAL_HLEN]}
MINB=${C[SUPERP_MIN_BLOCK]}
MINP=${C[SUPERP_ETH_MIN_PAYLOAD]}
IP4=$((20 + 8))
IP6=$((40 + 8))

max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }

# Frame length: network header size, PDL size (0 for lite), opcode, number of
# ops, block size. Packets shorter than the Ethernet minimum are padded.
flen() {
	local l=$(($1 + $2 + TAL + HLEN[$3] * $4 + $5 * $4))
	echo $((ETH + $(max "$l" "$MINP")))
}

# Zero padding a packet without data gets: hex string.
zpad() {
	local n=$((MINP - $1)) s=
	while [ "$n" -gt 0 ]; do s+=00; n=$((n - 1)); done
	echo "$s"
}

# Block of a lite packet with one data op: enlarged to avoid Ethernet padding.
lite_block() { max "$MINB" $((MINP - SUNH - TAL - HLEN[$1] * $2)); }

# ------------------------------------------------------------ the cases
# add NAME "FIELD=VALUE ..." GEN-ARGS...: one frame and what tshark must show.
# VALUE "*" means present, an empty VALUE absent. Expert fields not named
# must be absent. LAYOUT[i] names the opcode whose op header layout is
# checked against the headers in that frame. SET[i] is the capture the frame
# goes to: "superp", or "lite" (ADD_SET=lite add ...) decoded with the
# superp.lite preference on; IDX[i] is its frame number there.
# SHOWS[i,FIELD] is the text FIELD must read as in that frame (shows).
declare -a NAME EXP LAYOUT SET IDX
declare -A CNT=([superp]=0 [lite]=0) SHOWS
n=0
add() {
	local name=$1 exp=$2 set=${ADD_SET:-superp}
	shift 2
	if ! "$GEN" -a -w "$tmp/$set.pcap" "$@" 2> "$tmp/err"; then
		echo "# superp-gen failed for $name: $(cat "$tmp/err")"
		exp="gen.failed=1"
	fi
	NAME[n]=$name
	EXP[n]=$exp
	SET[n]=$set
	CNT[$set]=$((CNT[$set] + 1))
	IDX[n]=${CNT[$set]}
	n=$((n + 1))
}
layout() { LAYOUT[n - 1]=$1; }
# shows FIELD TEXT: FIELD reads TEXT in the last case's frame: its label in
# the tree (PDML showname), or for _ws.col.Info the info column.
shows() { SHOWS[$((n - 1)),$1]=$2; }

S=$SUNH
d() { echo $((PDL + TAL + HLEN[$1] * $2)); }	# data offset

add "noop: opcode, XID, eom, zero padding to 60 bytes" \
	"superp.tal.opcode=0 superp.tal.xid=5 superp.tal.eom=1 superp.tal.num_ops=0 frame.len=$(flen $S $PDL noop 0 0) superp.padding=$(zpad $((S + PDL + TAL)))" \
	--opcode noop --xid 5 --eom
add "last-null: opcode and XID" \
	"superp.tal.opcode=1 superp.tal.xid=65535 superp.tal.seqno=65535 superp.tal.ack_xid=0 frame.len=$(flen $S $PDL last-null 0 0)" \
	--opcode last-null --xid 0xffff --seqno 0xffff --ack-xid 0 --eom
add "terr: seqno, opnum, major, minor" \
	"superp.tal.opcode=2 superp.op.seqno=3 superp.op.opnum=2 superp.op.major=1 superp.op.minor=2 frame.len=$(flen $S $PDL terr 1 0)" \
	--opcode terr --xid 7 --eom --op seqno=3,opnum=2,major=1,minor=2
layout terr
add "read: the spec's 64-bit address and 32-bit length" \
	"superp.tal.opcode=8 superp.op.addr=0x0123456789abcdef superp.op.length=65536 superp.op.qpn= frame.len=$(flen $S $PDL read 1 0)" \
	--opcode read --op addr=0x0123456789abcdef,length=65536
layout read
add "write: the spec's address, the whole block is payload" \
	"superp.tal.opcode=9 superp.op.addr=0x0000000000010000 superp.op.pad= superp.block_size=32 superp.data_offset=$(d write 1) superp.block.payload_len=32 frame.len=$(flen $S $PDL write 1 32)" \
	--opcode write --psn 7 --eom --op addr=0x10000,payload=32
layout write
add "read-resp: request seqno/opnum, offset, 100-byte block" \
	"superp.tal.opcode=10 superp.op.seqno=1 superp.op.opnum=2 superp.op.offset=4096 superp.op.pad= superp.block_size=100 superp.block.payload_len=100 frame.len=$(flen $S $PDL read-resp 1 100)" \
	--opcode read-resp --op seqno=1,opnum=2,offset=4096,payload=100
layout read-resp
add "send: key, offset, exact 16-byte block" \
	"superp.tal.opcode=11 superp.op.key=0xdeadbeef superp.op.offset=8 superp.op.pad= superp.block_size=16 superp.data_offset=$(d send 1) frame.len=$(flen $S $PDL send 1 16)" \
	--opcode send --op key=0xdeadbeef,offset=8,payload=16
layout send
add "send-qp: the spec's 24-bit QPN and reserved byte, 3 ops" \
	"superp.tal.opcode=12 superp.tal.num_ops=3 superp.op.qpn=11259375,1,2 superp.op.pad= superp.block_size=24 superp.block.payload_len=24,24,24 superp.data_offset=$(d send-qp 3) frame.len=$(flen $S $PDL send-qp 3 24)" \
	--opcode send-qp --eom --op qpn=0xabcdef,payload=24 --op qpn=1,payload=24 --op qpn=2,payload=24
layout send-qp
add "rdma-write: 1-byte payload in a 16-byte block, pad 15" \
	"superp.tal.opcode=23 superp.op.qpn=17 superp.op.rkey=0x00001234 superp.op.addr=0x0000000000010000 superp.op.pad=$((MINB - 1)) superp.block_size=$MINB superp.data_offset=$(d rdma-write 1) superp.block.payload_len=1 superp.block.payload=01 frame.len=$(flen $S $PDL rdma-write 1 $MINB)" \
	--opcode rdma-write --psn 7 --eom --op qpn=17,rkey=0x1234,addr=0x10000,payload=1
layout rdma-write
add "rdma-read: 24-bit qpn, rkey, 64-bit address, length" \
	"superp.tal.opcode=24 superp.op.qpn=11259375 superp.op.rkey=0x11223344 superp.op.addr=0x0123456789abcdef superp.op.length=65536 frame.len=$(flen $S $PDL rdma-read 1 0)" \
	--opcode rdma-read --op qpn=0xabcdef,rkey=0x11223344,addr=0x0123456789abcdef,length=65536
layout rdma-read
ops15=() qpns= lens=
for i in $(seq 0 14); do
	ops15+=(--op "qpn=5,offset=$((i * 16)),payload=$((16 - i))")
	qpns+=${qpns:+,}5
	lens+=${lens:+,}$((16 - i))
done
add "send-qp-off: num_ops 15, unequal payloads in equal blocks" \
	"superp.tal.opcode=25 superp.tal.num_ops=15 superp.op.qpn=$qpns superp.block_size=16 superp.block.payload_len=$lens superp.data_offset=$(d send-qp-off 15) frame.len=$(flen $S $PDL send-qp-off 15 16)" \
	--opcode send-qp-off --eom "${ops15[@]}"
layout send-qp-off
add "send-qp-more: 25's layout under its own opcode, 3-byte payload" \
	"superp.tal.opcode=26 superp.op.qpn=7 superp.op.offset=131072 superp.op.pad=$((MINB - 3)) superp.block_size=$MINB superp.block.payload_len=3 frame.len=$(flen $S $PDL send-qp-more 1 $MINB)" \
	--opcode send-qp-more --op qpn=7,offset=131072,payload=3
layout send-qp-more
add "qp-resume: 24-bit QPN and reserved byte, no data" \
	"superp.tal.opcode=27 superp.op.qpn=11259375 superp.op.pad= superp.block_size= frame.len=$(flen $S $PDL qp-resume 1 0)" \
	--opcode qp-resume --eom --op qpn=0xabcdef
layout qp-resume
add "send-qp-inv: QPN, offset, the key to invalidate, pad 11" \
	"superp.tal.opcode=28 superp.op.qpn=9 superp.op.offset=4096 superp.op.inv_rkey=0xc203a507 superp.op.pad=11 superp.op.rkey= superp.block_size=$MINB superp.block.payload_len=5 superp.block.payload=0102030405 frame.len=$(flen $S $PDL send-qp-inv 1 $MINB)" \
	--opcode send-qp-inv --eom --op qpn=9,offset=4096,rkey=0xc203a507,payload=5
layout send-qp-inv
shows superp.tal.opcode "Opcode: Send to QP with Invalidate (28)"
add "terr: INVALID/10, no key to invalidate" \
	"superp.tal.opcode=2 superp.op.major=2 superp.op.minor=10" \
	--opcode terr --xid 7 --eom --op seqno=0,opnum=0,major=2,minor=10
shows superp.op.minor "Minor error code: 10 (no key to invalidate)"
add "ack: window, ACK PSN, SACK bits as PSNs ack+1+i" \
	"superp.tal.opcode=16 superp.pdl.rwin=31 superp.pdl.window=32 superp.pdl.ack_psn=41 superp.pdl.nack=0 superp.pdl.sacked_psn=43,45 frame.len=$(flen $S $PDL ack 0 0) superp.padding=$(zpad $((S + PDL + TAL)))" \
	--opcode ack --rwin 31 --ack-psn 41 --sack 0xa
add "ack: NACK (bit 0) lists PSNs ack+i" \
	"superp.pdl.ack_psn=41 superp.pdl.nack=1 superp.pdl.sacked_psn=41,43 superp.expert.nack=*" \
	--opcode ack --ack-psn 41 --sack 0x5
add "ack: SACK PSNs wrap past 0xffffffff" \
	"superp.pdl.ack_psn=4294967294 superp.pdl.nack=0 superp.pdl.sacked_psn=0,1" \
	--opcode ack --ack-psn 0xfffffffe --sack 0x6
add "send-qp-imm: immediate in big-endian, pad 12" \
	"superp.tal.opcode=17 superp.op.qpn=9 superp.op.imm=0x01020304 superp.op.pad=12 superp.block.payload_len=4 superp.block.payload=01020304" \
	--opcode send-qp-imm --op qpn=9,imm=0x01020304,payload=4
layout send-qp-imm
add "write-complete: qpn, imm, length, write XID" \
	"superp.tal.opcode=18 superp.op.qpn=9 superp.op.imm=0xcafef00d superp.op.length=1000 superp.op.write_xid=77 frame.len=$(flen $S $PDL write-complete 1 0)" \
	--opcode write-complete --op qpn=9,imm=0xcafef00d,length=1000,write_xid=77
layout write-complete
add "cas: compare and swap operands" \
	"superp.tal.opcode=19 superp.op.rkey=0x00000099 superp.op.addr=0x0000000000001000 superp.op.compare=0x0000000000000001 superp.op.swap=0xffffffffffffffff frame.len=$(flen $S $PDL cas 1 0)" \
	--opcode cas --op qpn=3,rkey=0x99,addr=0x1000,compare=1,swap=0xffffffffffffffff
layout cas
add "fadd: add operand" \
	"superp.tal.opcode=20 superp.op.addr=0x0000000000002008 superp.op.add=0x0000000000000010 frame.len=$(flen $S $PDL fadd 1 0)" \
	--opcode fadd --op qpn=3,rkey=0x99,addr=0x2008,add=0x10
layout fadd
add "atomic-resp: original value" \
	"superp.tal.opcode=21 superp.op.seqno=0 superp.op.opnum=1 superp.op.orig=0x8000000000000000 frame.len=$(flen $S $PDL atomic-resp 1 0)" \
	--opcode atomic-resp --op opnum=1,orig=0x8000000000000000
layout atomic-resp
add "rd-send: destination and source QP, flags, Q_Key, imm" \
	"superp.tal.opcode=22 superp.op.qpn=100 superp.op.sqpn=200 superp.op.flags=0x01 superp.op.qkey=0x11111111 superp.op.imm=0x00000007 superp.block_size=64 frame.len=$(flen $S $PDL rd-send 1 64)" \
	--opcode rd-send --op qpn=100,sqpn=200,flags=1,qkey=0x11111111,imm=7,payload=64
layout rd-send

# Encapsulations and boundary values.
add "sunh: hop limit 0, flow label 4095, PSN 0xffffffff" \
	"sunh.hop_limit=0 sunh.flow_label=4095 superp.pdl.psn=4294967295 sunh.expert.hop_limit_zero=*" \
	--opcode write --hop-limit 0 --flow-label 4095 --psn 0xffffffff --op payload=16
add "sunh: hop limit 15, DSCP/ECN, addresses, next header 253" \
	"sunh.hop_limit=15 sunh.flow_label=0 sunh.dscp=46 sunh.ecn=1 sunh.src=4095 sunh.dst=65535 sunh.nexthdr=${C[SUNH_NEXTHDR_SUPERP]} eth.type=$(printf 0x%04x "${C[ETH_P_SUNH]}")" \
	--opcode noop --tclass 0xb9 --saddr 4095 --daddr 0xffff
add "pdl: DCID 0xfffe (0xffff is a datagram's) and RWIN 0xffff, ACK PSN none" \
	"superp.pdl.dcid=65534 superp.datagram= superp.pdl.rwin=65535 superp.pdl.window=65536 superp.pdl.ack_psn=4294967295 superp.pdl.sack=0x00000000 superp.pdl.sacked_psn=" \
	--opcode noop --dcid 0xfffe --rwin 0xffff
shows superp.pdl.dcid "DCID: 65534"
add "vlan: SUNH behind an 802.1Q tag" \
	"vlan.id=5 superp.pdl.psn=3 superp.tal.opcode=9" \
	--vlan 5 --opcode write --psn 3 --op payload=16
ADD_SET=lite add "lite: no PDL, next header 253, block enlarged past Ethernet padding" \
	"sunh.nexthdr=${C[SUNH_NEXTHDR_SUPERP]} superp.pdl.psn= superp.tal.opcode=25 superp.data_offset=$((TAL + HLEN[send-qp-off])) superp.block_size=$(lite_block send-qp-off 1) superp.block.payload_len=1 frame.len=$(flen $S 0 send-qp-off 1 "$(lite_block send-qp-off 1)")" \
	--encap lite --opcode send-qp-off --op qpn=1,payload=1
# A SUNH echo request (net/sunh/sunh_echo.c) made of the first TAL bytes of
# a lite frame: eom sets type 128, opcode 0 is the hop limit byte, and the
# little-endian seqno 0x0100 and XID 0x0200 read as big-endian 1 and 2.
ADD_SET=lite add "echo: next header 254 is the SUNH echo, not SUPERp-lite" \
	"sunh.nexthdr=${C[SUNH_NEXTHDR_ECHO]} sunh.echo.type=128 sunh.echo.req_hop_limit=0 sunh.echo.ident=1 sunh.echo.seq=2 superp.tal.opcode= superp.pdl.psn= superp.data_offset=" \
	--encap lite --nexthdr "${C[SUNH_NEXTHDR_ECHO]}" --eom --opcode noop \
	--seqno 0x0100 --xid 0x0200 --ack-xid 0
# SUPERp-lite over UDP/IPv4 (the same preference), and a datagram from a
# lite peer, which keeps its PDL (DCID 0xffff: no TAL header starts so).
ADD_SET=lite add "lite udp/ipv4: TAL right after UDP, no PDL" \
	"udp.dstport=${C[SUPERP_UDP_PORT]} superp.pdl.psn= superp.tal.opcode=23 superp.op.qpn=4 superp.data_offset=$((TAL + HLEN[rdma-write])) superp.block_size=32 frame.len=$(flen $IP4 0 rdma-write 1 32)" \
	--encap ipv4 --lite --opcode rdma-write --op qpn=4,payload=32
ADD_SET=lite add "lite datagram: DCID 0xffff keeps its PDL on a lite link" \
	"superp.datagram=1 superp.pdl.dcid=65535 superp.op.qpn=1 superp.op.sqpn=5 superp.block_size=64 superp.data_offset=$(d rd-send 1) frame.len=$(flen $S $PDL rd-send 1 64)" \
	--encap sunh --datagram --op qpn=1,sqpn=5,qkey=0x80010000,payload=64
add "udp/ipv4: port 7777, checksums good, write" \
	"udp.dstport=${C[SUPERP_UDP_PORT]} ip.checksum.status=1 udp.checksum.status=1 superp.pdl.psn=9 superp.op.qpn=4 frame.len=$(flen $IP4 $PDL rdma-write 1 32)" \
	--encap ipv4 --opcode rdma-write --psn 9 --op qpn=4,payload=32
add "udp/ipv4: checksum 0 allowed" \
	"udp.checksum.status=3 superp.tal.opcode=16" \
	--encap ipv4 --no-udp-csum --opcode ack
add "udp/ipv6: flow label, checksum, rd-send" \
	"ipv6.flow=0x00004d udp.checksum.status=1 superp.op.qpn=1 frame.len=$(flen $IP6 $PDL rd-send 1 20)" \
	--encap ipv6 --flow-label 77 --opcode rd-send --op qpn=1,payload=20
layout rd-send

# Datagrams (UD QPs, QP1): DCID 0xffff, one Datagram Send with eom, the
# other PDL and TAL fields 0 and ignored; in every encapsulation.
dgram="superp.pdl.dcid=$((C[SUPERP_DCID_DATAGRAM])) superp.datagram=1 superp.tal.opcode=22 superp.tal.num_ops=1 superp.tal.eom=1 superp.pdl.psn=0 superp.pdl.ack_psn=0 superp.tal.seqno=0 superp.tal.xid=0 superp.tal.ack_xid=0 superp.pdl.window= superp.pdl.nack= superp.pdl.sacked_psn= _ws.malformed="
add "datagram: QP 5 -> QP 1 (GSI), Q_Key, 64 bytes, over SUNH" \
	"$dgram superp.op.qpn=1 superp.op.sqpn=5 superp.op.flags=0x00 superp.op.qkey=0x80010000 superp.op.pad=0 superp.block_size=64 superp.block.payload_len=64 superp.data_offset=$(d rd-send 1) frame.len=$(flen $S $PDL rd-send 1 64)" \
	--encap sunh --datagram --op qpn=1,sqpn=5,qkey=0x80010000,payload=64
shows superp.pdl.dcid "DCID: datagram (0xffff)"
shows _ws.col.Info "Datagram QP 5 -> QP 1, Q_Key 0x80010000, 64 bytes"
add "datagram: 3 bytes padded to 16, immediate, over UDP/IPv4" \
	"$dgram udp.dstport=${C[SUPERP_UDP_PORT]} superp.op.qpn=1 superp.op.sqpn=5 superp.op.flags=0x01 superp.op.imm=0x01020304 superp.op.pad=$((MINB - 3)) superp.block_size=$MINB superp.block.payload_len=3 frame.len=$(flen $IP4 $PDL rd-send 1 $MINB)" \
	--encap ipv4 --datagram --op qpn=1,sqpn=5,qkey=0x80010000,flags=1,imm=0x01020304,payload=3
shows superp.pdl.dcid "DCID: datagram (0xffff)"
shows _ws.col.Info "Datagram QP 5 -> QP 1, Q_Key 0x80010000, 3 bytes, imm 0x01020304"
add "datagram: 24-bit QPNs, over UDP/IPv6" \
	"$dgram udp.checksum.status=1 superp.op.qpn=11259375 superp.op.sqpn=16777215 superp.op.qkey=0x00000007 superp.op.pad=0 superp.block.payload_len=20 frame.len=$(flen $IP6 $PDL rd-send 1 20)" \
	--encap ipv6 --datagram --op qpn=0xabcdef,sqpn=0xffffff,qkey=7,payload=20
shows superp.pdl.dcid "DCID: datagram (0xffff)"
shows _ws.col.Info "Datagram QP 16777215 -> QP 11259375, Q_Key 0x00000007, 20 bytes"
layout rd-send
add "datagram: a field it ignores is not 0 (a note, still a datagram)" \
	"superp.datagram=1 superp.pdl.psn=7 superp.expert.datagram_ignored=*" \
	--datagram --psn 7 --op qpn=1,sqpn=5,payload=16

# Malformed on purpose.
add "malformed: datagram with num_ops 2" \
	"superp.datagram=1 superp.tal.num_ops=2 superp.expert.datagram=*" \
	--datagram --op qpn=1,sqpn=5,qkey=0x80010000,payload=64 --num-ops 2
shows _ws.col.Info "Datagram QP 5 -> QP 1, Q_Key 0x80010000, 24 bytes [malformed: num_ops 2]"
add "malformed: datagram without eom" \
	"superp.datagram=1 superp.tal.eom=0 superp.expert.datagram=*" \
	--dcid "${C[SUPERP_DCID_DATAGRAM]}" --ack-psn 0 --ack-xid 0 --opcode rd-send \
	--op qpn=1,sqpn=5,payload=16
add "malformed: datagram of another opcode (send-qp-off)" \
	"superp.datagram=1 superp.tal.opcode=25 superp.expert.datagram=*" \
	--datagram --opcode send-qp-off --op qpn=1,payload=16
shows _ws.col.Info "Datagram, Send to QP with Offset [malformed: opcode Send to QP with Offset (25)]"
add "malformed: frame cut inside the PDL" \
	"superp.expert.short_frame=*" \
	--opcode write --op payload=40 --truncate 40
add "malformed: frame cut inside the SUNH header" \
	"sunh.expert.short_frame=*" \
	--opcode noop --truncate $((ETH + 4))
add "malformed: frame cut inside the SUNH echo header" \
	"sunh.nexthdr=${C[SUNH_NEXTHDR_ECHO]} sunh.expert.echo_short=* superp.tal.opcode=" \
	--encap lite --nexthdr "${C[SUNH_NEXTHDR_ECHO]}" --truncate $((ETH + SUNH + 4))
add "malformed: num_ops larger than the op headers present" \
	"superp.tal.num_ops=3 superp.expert.num_ops_len=*" \
	--opcode read --op addr=1 --num-ops 3
add "malformed: num_ops 3 with 2 ops makes blocks < 16" \
	"superp.tal.num_ops=3 superp.expert.block_small=*" \
	--opcode write --op payload=16 --op payload=16 --num-ops 3
add "malformed: oversized, data region not a multiple of num_ops" \
	"superp.expert.num_ops_len=*" \
	--opcode write --op payload=20 --op payload=20 --extra 5
add "malformed: block of 8 bytes" \
	"superp.block_size=8 superp.expert.block_small=*" \
	--opcode write --op payload=8 --block 8
add "malformed: unknown opcode 99" \
	"superp.tal.opcode=99 superp.expert.unknown_opcode=*" \
	--opcode 99 --op payload=3
add "malformed: operations on an opcode that has none" \
	"superp.expert.num_ops_opcode=*" \
	--opcode ack --num-ops 2
add "malformed: pad count larger than the block" \
	"superp.expert.pad_too_large=*" \
	--opcode rdma-write --op pad=20,payload=16
add "malformed: reserved TAL bits set" \
	"superp.tal.rsvd=0x05 superp.expert.reserved=*" \
	--opcode noop --tal-rsvd 5
add "malformed: bytes after the headers of a read" \
	"superp.expert.trailing=*" \
	--opcode read --op addr=1 --extra 30
add "malformed: pure ACK with eom" \
	"superp.expert.pure_ack=*" \
	--opcode ack --eom
add "malformed: extension op header cut short (cas)" \
	"superp.tal.opcode=19 superp.expert.num_ops_len=* superp.expert.trailing=* superp.expert.ext_len=*" \
	--opcode cas --op qpn=1 --truncate $((ETH + S + PDL + TAL + 20))
add "malformed: extension data region not a multiple of num_ops (rdma-write)" \
	"superp.tal.opcode=23 superp.expert.num_ops_len=* superp.expert.ext_len=*" \
	--opcode rdma-write --op payload=16 --op payload=16 --extra 3
add "malformed: bytes after an extension request without data (rdma-read)" \
	"superp.tal.opcode=24 superp.expert.trailing=* superp.expert.ext_len=*" \
	--opcode rdma-read --op qpn=1 --extra 8
add "malformed: extension block under 16 bytes (send-qp-off)" \
	"superp.tal.opcode=25 superp.expert.block_small=* superp.expert.ext_len=*" \
	--opcode send-qp-off --op payload=8 --block 8

# ------------------------------------------------------------ decode
experts="superp.expert.short_frame superp.expert.block_small superp.expert.num_ops_len
	superp.expert.num_ops_opcode superp.expert.unknown_opcode superp.expert.pad_too_large
	superp.expert.reserved superp.expert.trailing superp.expert.pure_ack superp.expert.nack
	superp.expert.ext_len superp.expert.datagram superp.expert.datagram_ignored
	sunh.expert.short_frame sunh.expert.hop_limit_zero sunh.expert.echo_short"
declare -A want_field
for e in "${EXP[@]}"; do
	for kv in $e; do want_field[${kv%%=*}]=1; done
done
for x in $experts; do want_field[$x]=1; done
for k in "${!SHOWS[@]}"; do
	[ "${k#*,}" = _ws.col.Info ] && want_field[_ws.col.Info]=1
done
fields=(frame.number "${!want_field[@]}")
targs=()
for x in "${fields[@]}"; do targs+=(-e "$x"); done

tshark_run() { # set tshark-args...
	local set=$1 lite=FALSE
	shift
	[ "$set" = lite ] && lite=TRUE
	tshark -n -X "lua_script:$LUA" -o "superp.lite:$lite" -o ip.check_checksum:TRUE \
		-o udp.check_checksum:TRUE -r "$tmp/$set.pcap" "$@" 2>> "$tmp/tshark.err"
}
: > "$tmp/tshark.err"
ndec=0
for set in superp lite; do
	tshark_run "$set" -T fields -E "separator=|" -E occurrence=a -E aggregator=, \
		"${targs[@]}" > "$tmp/fields-$set.out"
	tshark_run "$set" -T pdml > "$tmp/pdml-$set"
	ndec=$((ndec + $(wc -l < "$tmp/fields-$set.out")))
done

nlayout=0
for i in "${!LAYOUT[@]}"; do nlayout=$((nlayout + 1)); done
tap_plan $((n + 1 + nlayout + 1 + 5))

# A preference tshark does not know is an error, so this also checks that
# the dissector registered superp.lite.
if [ "$ndec" -eq "$n" ] && ! grep -qi 'lua.*error\|preference' "$tmp/tshark.err"; then
	ok "tshark decodes $n frames with the dissector"
else
	not_ok "tshark decodes $n frames with the dissector"
	sed 's/^/#   /' "$tmp/tshark.err"
fi

# ------------------------------------------------------------ compare
# showname CASE FIELD: the label in the tree of FIELD's first item in the
# frame of CASE (0-based).
showname() {
	awk -v want="${IDX[$1]}" -v f="<field name=\"$2\"" '
		/<packet>/ { pk++ }
		pk == want && index($0, f) {
			match($0, /showname="[^"]*"/)
			print substr($0, RSTART + 10, RLENGTH - 11)
			exit
		}' "$tmp/pdml-${SET[$1]}"
}

for i in $(seq 0 $((n - 1))); do
	IFS="|" read -r -a row < <(sed -n "${IDX[i]}p" "$tmp/fields-${SET[i]}.out")
	declare -A got=()
	for j in "${!fields[@]}"; do got[${fields[j]}]=${row[j]:-}; done
	declare -A exp=()
	for x in $experts; do exp[$x]=; done
	for kv in ${EXP[i]}; do exp[${kv%%=*}]=${kv#*=}; done
	bad=
	for k in "${!exp[@]}"; do
		w=${exp[$k]} g=${got[$k]:-}
		if [ "$w" = "*" ]; then
			[ -n "$g" ] || bad+=" $k=<absent>"
		elif [ "$w" != "$g" ]; then
			bad+=" $k=${g:-<absent>}(want ${w:-<absent>})"
		fi
	done
	for k in "${!SHOWS[@]}"; do
		[ "${k%%,*}" = "$i" ] || continue
		fld=${k#*,} w=${SHOWS[$k]}
		if [ "$fld" = _ws.col.Info ]; then
			g=${got[$fld]:-}
		else
			g=$(showname "$i" "$fld")
		fi
		[ "$g" = "$w" ] || bad+=" $fld reads \"$g\" (want \"$w\")"
	done
	if [ -z "$bad" ]; then
		ok "frame $((i + 1)) ${NAME[i]}"
	else
		not_ok "frame $((i + 1)) ${NAME[i]}"
		echo "#  $bad"
	fi
	unset got exp
done

# ------------------------------------------------------------ layouts
# Fields of case N (1-based) as "name pos size", in tree order.
pdml_frame() {
	local c=$(($1 - 1))
	awk -v want="${IDX[c]}" '
		/<packet>/ { pk++ }
		pk == want && /<(field|proto) name="/ {
			match($0, /name="[^"]*"/); nm = substr($0, RSTART + 6, RLENGTH - 7)
			match($0, /pos="[0-9]*"/); ps = substr($0, RSTART + 5, RLENGTH - 6)
			match($0, /size="[0-9]*"/); sz = substr($0, RSTART + 6, RLENGTH - 7)
			print nm, ps, sz
		}' "$tmp/pdml-${SET[c]}"
}

# The dissector's names for a C member of an operation header.
op_field_name() {
	case $1 in
	qpn_pad | qpn_rsvd) echo superp.op.qpn ;;
	sqpn_flags) echo superp.op.sqpn ;;
	req_seqno) echo superp.op.seqno ;;
	req_opnum) echo superp.op.opnum ;;
	rsvd2) echo superp.op.rsvd ;;
	*) echo "superp.op.$1" ;;
	esac
}

# check_at FILE NAME POS [SIZE]: FILE has a field NAME at POS (of SIZE).
check_at() {
	awk -v n="$2" -v p="$3" -v s="${4:-}" '
		$1 == n && $2 == p && (s == "" || $3 == s) { f = 1 }
		END { exit !f }' "$1"
}

for i in "${!LAYOUT[@]}"; do
	op=${LAYOUT[i]} st=${STRUCT[${LAYOUT[i]}]}
	pdml_frame $((i + 1)) > "$tmp/frame"
	# The first operation: from its superp.op item to the next one.
	awk '$1 == "superp.op" { k++ } k == 1 && $1 ~ /^superp\.op/' \
		"$tmp/frame" > "$tmp/op0"
	base=$(awk '$1 == "superp.op" { print $2; exit }' "$tmp/op0")
	bad=
	[ "$(awk '$1 == "superp.op" { print $3; exit }' "$tmp/op0")" = "${HLEN[$op]}" ] ||
		bad+=" header-size"
	while read -r s m off size; do
		[ "$s" = "$st" ] || continue
		name=$(op_field_name "$m")
		case $m in
		qpn_pad | qpn_rsvd | sqpn_flags)
			# QP word (spec figure of Send to QP: QP in bits
			# 23-0, a little-endian word): the 24-bit QPN in
			# bytes 0-2, byte 3 apart
			case $m in
			qpn_pad) top=pad ;;
			qpn_rsvd) top=rsvd ;;
			*) top=flags ;;
			esac
			check_at "$tmp/op0" "$name" $((base + off)) 3 ||
				bad+=" $m(qpn)@$off"
			check_at "$tmp/op0" "superp.op.$top" $((base + off + 3)) 1 ||
				bad+=" $m($top)@$((off + 3))"
			;;
		*)
			check_at "$tmp/op0" "$name" $((base + off)) "$size" ||
				bad+=" $m@$off"
			;;
		esac
	done < "$tmp/fields"
	if [ "${PAD[$op]}" = 1 ]; then
		check_at "$tmp/op0" superp.op.pad $((base + C[SUPERP_PAD_BYTE])) 1 ||
			bad+=" pad-byte"
	elif grep -q '^superp.op.pad ' "$tmp/op0"; then
		bad+=" pad-count-in-a-spec-opcode"
	fi
	if [ -z "$bad" ]; then
		ok "frame $((i + 1)) $op header layout matches struct $st"
	else
		not_ok "frame $((i + 1)) $op header layout matches struct $st"
		echo "#   wrong:$bad"
	fi
done

# No opcode with an operation header escapes the layout checks above.
missing=
for op in "${!HLEN[@]}"; do
	[ "${HLEN[$op]}" -gt 0 ] || continue
	printf '%s\n' "${LAYOUT[@]}" | grep -qx -- "$op" || missing+=" $op"
done
if [ -z "$missing" ]; then
	ok "every opcode with an operation header has its layout checked"
else
	not_ok "every opcode with an operation header has its layout checked"
	echo "#   unchecked:$missing"
fi

# Fixed headers: SUNH, PDL and TAL members where the headers put them.
hdr_layout() { # frame struct base
	local bad= s m off size name
	pdml_frame "$1" > "$tmp/frame"
	while read -r s m off size; do
		[ "$s" = "$2" ] || continue
		case $s.$m in
		sunhhdr.hl_flow) name=sunh.hop_limit ;;
		sunhhdr.saddr) name=sunh.src ;;
		sunhhdr.daddr) name=sunh.dst ;;
		sunhhdr.*) name=sunh.$m ;;
		superp_pdl_hdr.*) name=superp.pdl.$m ;;
		superp_tal_hdr.eom_num_ops) name=superp.tal.num_ops ;;
		superp_tal_hdr.*) name=superp.tal.$m ;;
		esac
		check_at "$tmp/frame" "$name" $(($3 + off)) "$size" || bad+=" $m@$off"
	done < "$tmp/fields"
	echo "$bad"
}
wframe=$(for i in $(seq 0 $((n - 1))); do [ "${LAYOUT[i]:-}" = rdma-write ] && echo $((i + 1)); done)
lframe=$(for i in $(seq 0 $((n - 1))); do case ${NAME[i]} in lite:*) echo $((i + 1)) ;; esac; done)
v4frame=$(for i in $(seq 0 $((n - 1))); do case ${NAME[i]} in "udp/ipv4: port"*) echo $((i + 1)) ;; esac; done)
dframe=$(for i in $(seq 0 $((n - 1))); do case ${NAME[i]} in "datagram: QP 5"*) echo $((i + 1)) ;; esac; done)
bad=$(hdr_layout "$wframe" sunhhdr "$ETH")
[ -z "$bad" ] && ok "SUNH header layout matches struct sunhhdr" ||
	{ not_ok "SUNH header layout matches struct sunhhdr"; echo "#   wrong:$bad"; }
bad="$(hdr_layout "$wframe" superp_pdl_hdr $((ETH + SUNH)))$(hdr_layout "$v4frame" superp_pdl_hdr $((ETH + IP4)))"
[ -z "$bad" ] && ok "PDL layout matches struct superp_pdl_hdr (SUNH and UDP/IPv4)" ||
	{ not_ok "PDL layout matches struct superp_pdl_hdr (SUNH and UDP/IPv4)"; echo "#   wrong:$bad"; }
bad=$(hdr_layout "$wframe" superp_tal_hdr $((ETH + SUNH + PDL)))
[ -z "$bad" ] && ok "TAL layout matches struct superp_tal_hdr" ||
	{ not_ok "TAL layout matches struct superp_tal_hdr"; echo "#   wrong:$bad"; }
bad=$(hdr_layout "$lframe" superp_tal_hdr $((ETH + SUNH)))
[ -z "$bad" ] && ok "SUPERp-lite: TAL right after SUNH" ||
	{ not_ok "SUPERp-lite: TAL right after SUNH"; echo "#   wrong:$bad"; }
bad="$(hdr_layout "$dframe" superp_pdl_hdr $((ETH + SUNH)))$(hdr_layout "$dframe" superp_tal_hdr $((ETH + SUNH + PDL)))"
[ -z "$bad" ] && ok "datagram: its PDL and TAL fields where the headers put them" ||
	{ not_ok "datagram: its PDL and TAL fields where the headers put them"; echo "#   wrong:$bad"; }

tap_exit
