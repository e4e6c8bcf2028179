-- SPDX-License-Identifier: GPL-2.0
-- Wireshark dissector for SUNH (EtherType 0x88B5), SUPERp (SUNH next
-- header 253, UDP port 7777) and the SUNH echo (next header 254).
-- SUPERp-lite shares next header 253 and the UDP port (a per-connection
-- mode), so a capture of a lite domain needs the preference:
-- -o superp.lite:TRUE. A packet with
-- DCID 0xffff is a datagram (UD QPs, QP1) and is decoded as one.
-- Layout: Documentation/wire-format.rst and include/uapi/rdma/superp_wire.h.
--   tshark -X lua_script:tools/wireshark/superp.lua -r capture.pcap -V

local sunh = Proto("sunh", "SUNH (Scale Up Network Header)")
local superp = Proto("superp", "SUPERp")

local ETH_P_SUNH = 0x88B5
local NEXTHDR_SUPERP = 253
local NEXTHDR_ECHO = 254
local ECHO_HLEN = 8
local PDL_HLEN, TAL_HLEN, SUNH_HLEN = 16, 8, 8
local MIN_BLOCK = 16
-- A datagram (UD and GSI QPs): DCID 0xffff, one Datagram Send with eom,
-- outside every connection (Documentation/wire-format.rst, Datagrams).
local DCID_DATAGRAM = 0xffff
local OP_RD_SEND = 22
local RD_FLAG_IMM = 0x01
local ETH_MIN_PAYLOAD = 46

superp.prefs.udp_port = Pref.uint("UDP port", 7777, "UDP destination port of SUPERp")
-- Nothing on the wire tells lite from SUPERp: the receiver knows it from the
-- connection, a capture from the user. A datagram (DCID 0xffff) keeps its
-- PDL header on a lite link: no TAL header starts with 0xff (reserved bits).
superp.prefs.lite = Pref.bool("SUNH next header 253 carries SUPERp-lite (no PDL)", false,
	"Decode SUNH next header 253 and the SUPERp UDP port without the PDL header, as in a lossless (lite) domain; datagrams (DCID 0xffff) keep theirs")

------------------------------------------------------------------ SUNH
local sf = {
	tclass = ProtoField.uint8("sunh.tclass", "Traffic Class", base.HEX),
	dscp = ProtoField.uint8("sunh.dscp", "DSCP", base.DEC, nil, 0xfc),
	ecn = ProtoField.uint8("sunh.ecn", "ECN", base.DEC, nil, 0x03),
	nexthdr = ProtoField.uint8("sunh.nexthdr", "Next Header", base.DEC,
		{ [NEXTHDR_SUPERP] = "SUPERp", [NEXTHDR_ECHO] = "SUNH echo" }),
	hop_limit = ProtoField.uint16("sunh.hop_limit", "Hop Limit", base.DEC, nil, 0xf000),
	flow_label = ProtoField.uint16("sunh.flow_label", "Flow Label", base.DEC, nil, 0x0fff),
	src = ProtoField.uint16("sunh.src", "Source Address", base.DEC),
	dst = ProtoField.uint16("sunh.dst", "Destination Address", base.DEC),

	-- Echo header: net/sunh/sunh_echo.c, all fields big-endian.
	echo = ProtoField.none("sunh.echo", "SUNH echo"),
	echo_type = ProtoField.uint8("sunh.echo.type", "Type", base.DEC,
		{ [128] = "Echo request", [129] = "Echo reply" }),
	echo_hop = ProtoField.uint8("sunh.echo.req_hop_limit", "Request hop limit", base.DEC),
	echo_ident = ProtoField.uint16("sunh.echo.ident", "Identifier", base.DEC),
	echo_seq = ProtoField.uint16("sunh.echo.seq", "Sequence number", base.DEC),
	echo_rsvd = ProtoField.bytes("sunh.echo.rsvd", "Reserved"),
	echo_payload = ProtoField.bytes("sunh.echo.payload", "Payload"),
}
sunh.fields = sf

local se = {
	short = ProtoExpert.new("sunh.expert.short_frame", "Frame shorter than the SUNH header",
		expert.group.MALFORMED, expert.severity.ERROR),
	hop0 = ProtoExpert.new("sunh.expert.hop_limit_zero",
		"Hop limit 0: accepted by the destination, dropped by a forwarder",
		expert.group.PROTOCOL, expert.severity.NOTE),
	echo_short = ProtoExpert.new("sunh.expert.echo_short", "Frame shorter than the SUNH echo header",
		expert.group.MALFORMED, expert.severity.ERROR),
}
sunh.experts = se

------------------------------------------------------------------ SUPERp
local opnames = {
	[0] = "No-op", [1] = "Last NULL", [2] = "Transaction Error",
	[8] = "RMA Read", [9] = "RMA Write", [10] = "Read Response",
	[11] = "Send", [12] = "Send to QP", [16] = "Pure ACK",
	[17] = "Send to QP with Immediate", [18] = "Write Complete",
	[19] = "Atomic Compare-and-Swap", [20] = "Atomic Fetch-and-Add",
	[21] = "Atomic Response", [22] = "Datagram Send", [23] = "RDMA Write",
	[24] = "RDMA Read", [25] = "Send to QP with Offset",
	[26] = "Send to QP with Offset, More", [27] = "QP Resume",
	[28] = "Send to QP with Invalidate",
}

local terr_major = {
	[1] = "Protection", [2] = "Invalid request",
	[3] = "Receiver not ready", [4] = "Operation error",
}
local terr_minor = {
	[1] = { [0] = "unspecified", "bad rkey", "PD mismatch", "access flags", "out of bounds" },
	[2] = { [0] = "unspecified", "opcode", "no such QP", "QP state", "block",
		"message too long", "misaligned atomic", "Q_Key",
		"no global address space or keyed context", "out of seqno order",
		"no key to invalidate" },
	[4] = { [0] = "unspecified", "resources" },
}

local f = {
	dcid = ProtoField.uint16("superp.pdl.dcid", "DCID", base.DEC),
	datagram = ProtoField.bool("superp.datagram", "Datagram (outside every connection)"),
	rwin = ProtoField.uint16("superp.pdl.rwin", "RWIN (window - 1)", base.DEC),
	window = ProtoField.uint32("superp.pdl.window", "Receive window", base.DEC),
	psn = ProtoField.uint32("superp.pdl.psn", "PSN", base.DEC),
	ack_psn = ProtoField.uint32("superp.pdl.ack_psn", "ACK PSN", base.DEC),
	sack = ProtoField.uint32("superp.pdl.sack", "SACK bitmap", base.HEX),
	nack = ProtoField.bool("superp.pdl.nack", "NACK"),
	sacked = ProtoField.uint32("superp.pdl.sacked_psn", "Selectively acknowledged PSN", base.DEC),

	eom = ProtoField.bool("superp.tal.eom", "End of message", 8, nil, 0x80),
	tal_rsvd = ProtoField.uint8("superp.tal.rsvd", "Reserved", base.HEX, nil, 0x70),
	num_ops = ProtoField.uint8("superp.tal.num_ops", "Number of operations", base.DEC, nil, 0x0f),
	opcode = ProtoField.uint8("superp.tal.opcode", "Opcode", base.DEC, opnames),
	seqno = ProtoField.uint16("superp.tal.seqno", "Seqno", base.DEC),
	xid = ProtoField.uint16("superp.tal.xid", "XID", base.DEC),
	ack_xid = ProtoField.uint16("superp.tal.ack_xid", "ACK XID", base.DEC),

	op = ProtoField.none("superp.op", "Operation"),
	op_index = ProtoField.uint8("superp.op.index", "Operation number", base.DEC),
	qpn = ProtoField.uint24("superp.op.qpn", "QP", base.DEC),
	pad = ProtoField.uint8("superp.op.pad", "Pad count", base.DEC),
	rkey = ProtoField.uint32("superp.op.rkey", "Remote key", base.HEX),
	addr = ProtoField.uint64("superp.op.addr", "Address", base.HEX),
	length = ProtoField.uint32("superp.op.length", "Length", base.DEC),
	offset = ProtoField.uint32("superp.op.offset", "Offset", base.DEC),
	key = ProtoField.uint32("superp.op.key", "Key", base.HEX),
	imm = ProtoField.uint32("superp.op.imm", "Immediate data", base.HEX),
	op_seqno = ProtoField.uint16("superp.op.seqno", "Seqno (of the request packet)", base.DEC),
	opnum = ProtoField.uint8("superp.op.opnum", "OpNum (in that packet)", base.DEC),
	major = ProtoField.uint16("superp.op.major", "Major error code", base.DEC, terr_major),
	minor = ProtoField.uint16("superp.op.minor", "Minor error code", base.DEC),
	compare = ProtoField.uint64("superp.op.compare", "Compare", base.HEX),
	swap = ProtoField.uint64("superp.op.swap", "Swap", base.HEX),
	add = ProtoField.uint64("superp.op.add", "Add", base.HEX),
	orig = ProtoField.uint64("superp.op.orig", "Original value", base.HEX),
	sqpn = ProtoField.uint24("superp.op.sqpn", "Source QP", base.DEC),
	flags = ProtoField.uint8("superp.op.flags", "Flags", base.HEX, { [0] = "none", [1] = "IMM" }),
	qkey = ProtoField.uint32("superp.op.qkey", "Q_Key", base.HEX),
	inv_rkey = ProtoField.uint32("superp.op.inv_rkey", "Key to invalidate", base.HEX),
	write_xid = ProtoField.uint16("superp.op.write_xid", "Write XID", base.DEC),
	rsvd = ProtoField.bytes("superp.op.rsvd", "Reserved"),

	data_offset = ProtoField.uint32("superp.data_offset", "Data offset", base.DEC),
	block_size = ProtoField.uint32("superp.block_size", "Block size", base.DEC),
	block = ProtoField.bytes("superp.block", "Data block"),
	payload_len = ProtoField.uint32("superp.block.payload_len", "Payload length", base.DEC),
	payload = ProtoField.bytes("superp.block.payload", "Payload"),
	block_pad = ProtoField.bytes("superp.block.padding", "Block padding"),
	padding = ProtoField.bytes("superp.padding", "Padding"),
}
superp.fields = f

local e = {
	short = ProtoExpert.new("superp.expert.short_frame", "Frame too short for the SUPERp headers",
		expert.group.MALFORMED, expert.severity.ERROR),
	block_small = ProtoExpert.new("superp.expert.block_small", "Data block shorter than 16 bytes",
		expert.group.MALFORMED, expert.severity.ERROR),
	num_ops_len = ProtoExpert.new("superp.expert.num_ops_len", "num_ops inconsistent with the packet length",
		expert.group.MALFORMED, expert.severity.ERROR),
	num_ops_opcode = ProtoExpert.new("superp.expert.num_ops_opcode", "This opcode carries no operations",
		expert.group.MALFORMED, expert.severity.ERROR),
	unknown_opcode = ProtoExpert.new("superp.expert.unknown_opcode", "Unknown opcode",
		expert.group.MALFORMED, expert.severity.ERROR),
	pad_large = ProtoExpert.new("superp.expert.pad_too_large", "Pad count larger than the block",
		expert.group.MALFORMED, expert.severity.ERROR),
	reserved = ProtoExpert.new("superp.expert.reserved", "Reserved bits are not zero",
		expert.group.PROTOCOL, expert.severity.WARN),
	trailing = ProtoExpert.new("superp.expert.trailing", "Bytes after the operation headers of an opcode without data",
		expert.group.PROTOCOL, expert.severity.WARN),
	pure_ack = ProtoExpert.new("superp.expert.pure_ack", "Pure ACK must have eom 0",
		expert.group.PROTOCOL, expert.severity.WARN),
	ext_len = ProtoExpert.new("superp.expert.ext_len",
		"Extension opcode: the packet length does not fit its layout",
		expert.group.MALFORMED, expert.severity.ERROR),
	nack = ProtoExpert.new("superp.expert.nack", "NACK",
		expert.group.SEQUENCE, expert.severity.NOTE),
	datagram = ProtoExpert.new("superp.expert.datagram",
		"Datagram not one Datagram Send with eom: the receiver drops it",
		expert.group.PROTOCOL, expert.severity.WARN),
	dgram_ignored = ProtoExpert.new("superp.expert.datagram_ignored",
		"A field a datagram sends as zero is not zero (ignored)",
		expert.group.PROTOCOL, expert.severity.NOTE),
}
superp.experts = e

-- Operation header layouts: {field, offset, size, big-endian}; data: the op
-- owns a data block; pad: the top byte of its QP word is its pad count
-- (extension opcodes only: under the spec's opcodes the whole block is
-- payload). Fields in the order the specification's figures draw them, left
-- to right from byte 0, except the QP word: its figure (Send to QP) numbers
-- the bits 31..0 with the QP in bits 23-0 of a little-endian word, so the
-- QPN is bytes 0-2 and the top byte (reserved, pad count or flags) byte 3.
-- Must match struct superp_*_op; selftests/wire/dissector.sh checks it.
local QP_TOP = 3
local Q = { { f.qpn, 0, 3 }, { f.pad, QP_TOP, 1 } }	-- with a pad count
local QR = { { f.qpn, 0, 3 }, { f.rsvd, QP_TOP, 1 } }	-- with a reserved byte
local R = { { f.qpn, 0, 3 }, { f.rsvd, QP_TOP, 1 }, { f.rkey, 4, 4 }, { f.addr, 8, 8 } }
local REQ = { { f.op_seqno, 0, 2 }, { f.opnum, 2, 1 }, { f.rsvd, 3, 1 } }
local function cat(...)
	local t = {}
	for _, a in ipairs({ ... }) do
		for _, v in ipairs(a) do t[#t + 1] = v end
	end
	return t
end

local layouts = {
	[0] = { len = 0 }, [1] = { len = 0 }, [16] = { len = 0 },
	-- the specification's (pages 32-34 of SUPERp v0.4)
	[2] = { len = 8, fields = cat(REQ, { { f.major, 4, 2 }, { f.minor, 6, 2 } }) },
	[8] = { len = 12, fields = { { f.addr, 0, 8 }, { f.length, 8, 4 } } },
	[9] = { len = 8, data = true, fields = { { f.addr, 0, 8 } } },
	[10] = { len = 8, data = true, fields = cat(REQ, { { f.offset, 4, 4 } }) },
	[11] = { len = 8, data = true, fields = { { f.key, 0, 4 }, { f.offset, 4, 4 } } },
	[12] = { len = 4, data = true, fields = QR },
	-- this project's extensions
	[17] = { len = 12, data = true, pad = true,
		fields = cat(Q, { { f.offset, 4, 4 }, { f.imm, 8, 4, true } }) },
	[18] = { len = 16, fields = cat(QR, { { f.imm, 4, 4, true }, { f.length, 8, 4 },
		{ f.write_xid, 12, 2 }, { f.rsvd, 14, 2 } }) },
	[19] = { len = 32, fields = cat(R, { { f.compare, 16, 8 }, { f.swap, 24, 8 } }) },
	[20] = { len = 24, fields = cat(R, { { f.add, 16, 8 } }) },
	[21] = { len = 16, fields = cat(REQ, { { f.rsvd, 4, 4 }, { f.orig, 8, 8 } }) },
	[22] = { len = 16, data = true, pad = true, fields = cat(Q, { { f.sqpn, 4, 3 },
		{ f.flags, 4 + QP_TOP, 1 }, { f.qkey, 8, 4 }, { f.imm, 12, 4, true } }) },
	[23] = { len = 16, data = true, pad = true,
		fields = cat(Q, { { f.rkey, 4, 4 }, { f.addr, 8, 8 } }) },
	[24] = { len = 24, fields = cat(R, { { f.length, 16, 4 }, { f.rsvd, 20, 4 } }) },
	[25] = { len = 8, data = true, pad = true, fields = cat(Q, { { f.offset, 4, 4 } }) },
	[26] = { len = 8, data = true, pad = true, fields = cat(Q, { { f.offset, 4, 4 } }) },
	[27] = { len = 4, fields = QR },
	[28] = { len = 12, data = true, pad = true,
		fields = cat(Q, { { f.offset, 4, 4 }, { f.inv_rkey, 8, 4 } }) },
}

local function u32str(v)
	return string.format("%u", v)
end

-- SACK as the list of acknowledged PSNs (a NACK if bit 0 is set;
-- Documentation/wire-format.rst, SACK numbering).
local function dissect_sack(tvb, tree, ack_psn, sack)
	local nack = bit32.band(sack, 1) == 1
	local base = nack and ack_psn or (ack_psn + 1) % 0x100000000
	local list = {}
	tree:add(f.nack, nack):set_generated()
	for i = 0, 31 do
		if bit32.band(sack, bit32.lshift(1, i)) ~= 0 then
			local psn = (base + i) % 0x100000000
			tree:add(f.sacked, psn):set_generated()
			list[#list + 1] = u32str(psn)
		end
	end
	if nack then
		tree:add_proto_expert_info(e.nack, string.format(
			"NACK: PSN %s received; PSNs from the receiver's cumulative point to %s missing",
			u32str(ack_psn), u32str((ack_psn - 1) % 0x100000000)))
	end
	return nack, list
end

-- A field a datagram sends as zero and the receiver ignores: shown as such,
-- without the meaning it has in a connection.
local function add_ignored(t, field, r, name)
	local item = t:add_le(field, r)
	local v = r:le_uint()
	item:append_text(" (ignored: datagram)")
	if v ~= 0 then
		item:add_proto_expert_info(e.dgram_ignored, string.format(
			"%s is %s in a datagram: sent as 0, ignored", name, u32str(v)))
	end
end

-- A datagram's PDL: only the DCID means something.
local function dissect_pdl_datagram(tvb, tree)
	local t = tree:add(superp, tvb(0, PDL_HLEN), "Packet Delivery Layer (datagram)")
	t:add_le(f.dcid, tvb(0, 2)):set_text("DCID: datagram (0xffff)")
	t:add(f.datagram, tvb(0, 2), true):set_generated()
	add_ignored(t, f.rwin, tvb(2, 2), "RWIN")
	add_ignored(t, f.psn, tvb(4, 4), "PSN")
	add_ignored(t, f.ack_psn, tvb(8, 4), "ACK PSN")
	add_ignored(t, f.sack, tvb(12, 4), "SACK")
end

local function dissect_pdl(tvb, pinfo, tree, info)
	local t = tree:add(superp, tvb(0, PDL_HLEN), "Packet Delivery Layer")
	local ack_psn = tvb(8, 4):le_uint()
	local sack = tvb(12, 4):le_uint()
	t:add_le(f.dcid, tvb(0, 2))
	t:add_le(f.rwin, tvb(2, 2))
	t:add(f.window, tvb(2, 2):le_uint() + 1):set_generated()
	t:add_le(f.psn, tvb(4, 4))
	local a = t:add_le(f.ack_psn, tvb(8, 4))
	if ack_psn == 0xffffffff then a:append_text(" (nothing received yet)") end
	local s = t:add_le(f.sack, tvb(12, 4))
	local nack, list = dissect_sack(tvb, s, ack_psn, sack)
	if #list > 0 then s:append_text(" (PSN " .. table.concat(list, ", ") .. ")") end
	info[#info + 1] = "DCID=" .. tvb(0, 2):le_uint() .. " PSN=" .. u32str(tvb(4, 4):le_uint())
	info[#info + 1] = (nack and "NACK=" or "ACK=") ..
		(ack_psn == 0xffffffff and "none" or u32str(ack_psn))
	if #list > 0 then info[#info + 1] = "SACK={" .. table.concat(list, ",") .. "}" end
end

local function dissect_op(tvb, tree, lay, idx, opname)
	local t = tree:add(f.op, tvb(0, lay.len))
	t:set_text(string.format("Operation %d: %s", idx, opname))
	t:add(f.op_index, idx):set_generated()
	local major
	for _, fd in ipairs(lay.fields) do
		local r = tvb(fd[2], fd[3])
		local item
		if fd[4] or fd[1] == f.rsvd then item = t:add(fd[1], r) else item = t:add_le(fd[1], r) end
		if fd[1] == f.rsvd and r:bytes():tohex():match("[^0]") then
			item:add_proto_expert_info(e.reserved)
		elseif fd[1] == f.major then
			major = r:le_uint()
		elseif fd[1] == f.minor and terr_minor[major] and terr_minor[major][r:le_uint()] then
			item:append_text(" (" .. terr_minor[major][r:le_uint()] .. ")")
		end
	end
	if lay.pad then return tvb(QP_TOP, 1):uint() end
	return 0
end

-- Return: whether the blocks are malformed, and their payload lengths.
local function dissect_blocks(tvb, pinfo, tree, hdr_end, num_ops, pads)
	local len = tvb:len() - hdr_end
	local bad = false
	local plens = {}
	tree:add(f.data_offset, hdr_end):set_generated()
	if num_ops == 0 then return false, plens end
	local block = math.floor(len / num_ops)
	local bi = tree:add(f.block_size, block):set_generated()
	if len % num_ops ~= 0 then
		bi:add_proto_expert_info(e.num_ops_len, string.format(
			"Data region of %d bytes is not a multiple of num_ops %d", len, num_ops))
		bad = true
	end
	if block < MIN_BLOCK then
		bi:add_proto_expert_info(e.block_small, string.format(
			"Data block of %d bytes is shorter than %d", block, MIN_BLOCK))
		bad = true
	end
	if block == 0 then return bad, plens end
	for i = 0, num_ops - 1 do
		local r = tvb(hdr_end + i * block, block)
		local bt = tree:add(f.block, r)
		bt:set_text(string.format("Data block %d (%d bytes)", i, block))
		local pad = pads[i + 1] or 0
		local plen = block - pad
		if plen < 0 then
			bt:add_proto_expert_info(e.pad_large, string.format(
				"Pad count %d larger than the block of %d bytes", pad, block))
			plen = 0
		end
		plens[i + 1] = plen
		bt:add(f.payload_len, plen):set_generated()
		if plen > 0 then bt:add(f.payload, r(0, plen)) end
		if plen < block then bt:add(f.block_pad, r(plen, block - plen)) end
	end
	return bad, plens
end

-- A datagram's summary for the info column, from its first operation
-- header at op (nil if there is none) and the payload length of its block.
local function datagram_info(op, plen)
	if not op then return "Datagram" end
	local s = string.format("Datagram QP %d -> QP %d, Q_Key 0x%08x, %d bytes",
		op(4, 3):le_uint(), op(0, 3):le_uint(), op(8, 4):le_uint(), plen or 0)
	if bit32.band(op(7, 1):uint(), RD_FLAG_IMM) ~= 0 then
		s = s .. string.format(", imm 0x%08x", op(12, 4):uint())
	end
	return s
end

-- lite: no PDL; minlen: a shorter packet may carry Ethernet zero padding.
local function dissect_superp(tvb, pinfo, tree, lite, minlen)
	if lite and tvb:len() >= 2 and tvb(0, 2):le_uint() == DCID_DATAGRAM then
		lite = false
	end
	pinfo.cols.protocol = lite and "SUPERp-lite" or "SUPERp"
	local root = tree:add(superp, tvb(), lite and "SUPERp-lite" or "SUPERp")
	local info = {}
	local pos = 0
	local need = (lite and 0 or PDL_HLEN) + TAL_HLEN
	if tvb:len() < need then
		root:add_proto_expert_info(e.short, string.format(
			"%d bytes, the %s headers need %d", tvb:len(), lite and "TAL" or "PDL and TAL", need))
		pinfo.cols.info = "SUPERp (short frame)"
		return tvb:len()
	end
	local dgram = not lite and tvb(0, 2):le_uint() == DCID_DATAGRAM
	if dgram then
		dissect_pdl_datagram(tvb(0, PDL_HLEN), root)
		pos = PDL_HLEN
	elseif not lite then
		dissect_pdl(tvb(0, PDL_HLEN), pinfo, root, info)
		pos = PDL_HLEN
	end
	local tal = tvb(pos, TAL_HLEN)
	local b0 = tal(0, 1):uint()
	local num_ops = bit32.band(b0, 0x0f)
	local eom = bit32.band(b0, 0x80) ~= 0
	local opcode = tal(1, 1):uint()
	local opname = opnames[opcode] or ("Unknown opcode " .. opcode)
	local t = root:add(superp, tal, "Transaction Layer")
	local ei = t:add(f.eom, tal(0, 1))
	local ri = t:add(f.tal_rsvd, tal(0, 1))
	if bit32.band(b0, 0x70) ~= 0 then ri:add_proto_expert_info(e.reserved) end
	local ni = t:add(f.num_ops, tal(0, 1))
	local oi = t:add(f.opcode, tal(1, 1))
	local why = {}	-- what makes a datagram one the receiver drops
	if dgram then
		add_ignored(t, f.seqno, tal(2, 2), "Seqno")
		add_ignored(t, f.xid, tal(4, 2), "XID")
		add_ignored(t, f.ack_xid, tal(6, 2), "ACK XID")
		if opcode ~= OP_RD_SEND then
			why[#why + 1] = opnames[opcode] and
				string.format("opcode %s (%d)", opname, opcode) or "opcode " .. opcode
			oi:add_proto_expert_info(e.datagram, "A datagram's opcode is Datagram Send (22)")
		end
		if num_ops ~= 1 then
			why[#why + 1] = "num_ops " .. num_ops
			ni:add_proto_expert_info(e.datagram, "A datagram carries exactly one operation")
		end
		if not eom then
			why[#why + 1] = "no eom"
			ei:add_proto_expert_info(e.datagram, "A datagram has eom set")
		end
	else
		t:add_le(f.seqno, tal(2, 2))
		t:add_le(f.xid, tal(4, 2))
		t:add_le(f.ack_xid, tal(6, 2))
	end
	local op0 = pos + TAL_HLEN	-- the first operation header
	pos = op0
	table.insert(info, 1, opname)
	info[#info + 1] = "XID=" .. tal(4, 2):le_uint() .. " Seq=" .. tal(2, 2):le_uint() ..
		" ops=" .. num_ops .. (eom and " EOM" or "")
	-- a datagram's summary, made once its operation and block are known
	local function set_info(op, plen)
		if not dgram then
			pinfo.cols.info = table.concat(info, " ")
			return
		end
		local s = datagram_info(op, plen)
		if not op then s = s .. ", " .. opname end
		if #why > 0 then s = s .. " [malformed: " .. table.concat(why, ", ") .. "]" end
		pinfo.cols.info = s
	end
	set_info(nil)
	root:append_text(", " .. opname .. (dgram and " (datagram)" or ""))

	local lay = layouts[opcode]
	if not lay then
		oi:add_proto_expert_info(e.unknown_opcode, "Unknown opcode " .. opcode)
		if tvb:len() > pos then root:add(f.padding, tvb(pos)):set_text("Undecoded data") end
		return tvb:len()
	end
	if opcode == 16 and eom then oi:add_proto_expert_info(e.pure_ack) end
	if lay.len == 0 and num_ops > 0 then
		oi:add_proto_expert_info(e.num_ops_opcode, string.format(
			"%s carries no operations but num_ops is %d", opname, num_ops))
		num_ops = 0
	end
	local avail = tvb:len() - pos
	local bad_len = false
	if avail < lay.len * num_ops then
		root:add_proto_expert_info(e.num_ops_len, string.format(
			"num_ops %d needs %d bytes of operation headers, %d present",
			num_ops, lay.len * num_ops, avail))
		num_ops = math.floor(avail / lay.len)
		bad_len = true
	end
	local pads = {}
	for i = 0, num_ops - 1 do
		pads[i + 1] = dissect_op(tvb(pos, lay.len), root, lay, i, opname)
		pos = pos + lay.len
	end
	local plens = {}
	if lay.data then
		local bad
		bad, plens = dissect_blocks(tvb, pinfo, root, pos, num_ops, pads)
		bad_len = bad or bad_len
	elseif tvb:len() > pos then
		local r = tvb(pos)
		root:add(f.padding, r)
		if tvb:len() > minlen or r:bytes():tohex():match("[^0]") then
			root:add_proto_expert_info(e.trailing, string.format(
				"%d bytes after the headers of %s", r:len(), opname))
			bad_len = true
		end
	end
	if bad_len and opcode >= 17 then
		oi:add_proto_expert_info(e.ext_len, string.format(
			"%s (extension opcode %d): %d bytes do not fit %d operation(s) of %d-byte headers%s",
			opname, opcode, tvb:len() - (lite and 0 or PDL_HLEN), num_ops, lay.len,
			lay.data and " and equal blocks of at least 16 bytes" or ""))
	end
	if dgram and opcode == OP_RD_SEND then
		-- the receiver's length checks; the experts above say more
		local block = tvb:len() - op0 - lay.len
		if num_ops == 0 and #why == 0 then
			why[#why + 1] = "operation header cut short"
		elseif #why == 0 and block < MIN_BLOCK then
			why[#why + 1] = "block under 16 bytes"
		elseif #why == 0 and pads[1] > block then
			why[#why + 1] = "pad count larger than the block"
		elseif bad_len then
			why[#why + 1] = "length"
		end
		set_info(num_ops > 0 and tvb(op0, lay.len) or nil, plens[1])
	end
	return tvb:len()
end

local function dissect_echo(tvb, pinfo, tree)
	local t = tree:add(sf.echo, tvb())
	pinfo.cols.protocol = "SUNH echo"
	if tvb:len() < ECHO_HLEN then
		t:add_proto_expert_info(se.echo_short)
		return
	end
	local ty = tvb(0, 1):uint()
	local name = ty == 128 and "Echo request" or ty == 129 and "Echo reply" or
		("Echo type " .. ty)
	t:add(sf.echo_type, tvb(0, 1))
	t:add(sf.echo_hop, tvb(1, 1))
	t:add(sf.echo_ident, tvb(2, 2))
	t:add(sf.echo_seq, tvb(4, 2))
	t:add(sf.echo_rsvd, tvb(6, 2))
	if tvb:len() > ECHO_HLEN then t:add(sf.echo_payload, tvb(ECHO_HLEN)) end
	t:set_text(string.format("SUNH echo, %s", name))
	pinfo.cols.info = string.format("%s id=%d seq=%d", name, tvb(2, 2):uint(), tvb(4, 2):uint())
end

function sunh.dissector(tvb, pinfo, tree)
	pinfo.cols.protocol = "SUNH"
	local t = tree:add(sunh, tvb(0, math.min(tvb:len(), SUNH_HLEN)))
	if tvb:len() < SUNH_HLEN then
		t:add_proto_expert_info(se.short)
		return tvb:len()
	end
	local tc = t:add(sf.tclass, tvb(0, 1))
	tc:add(sf.dscp, tvb(0, 1))
	tc:add(sf.ecn, tvb(0, 1))
	local nhi = t:add(sf.nexthdr, tvb(1, 1))
	local hl = t:add(sf.hop_limit, tvb(2, 2))
	t:add(sf.flow_label, tvb(2, 2))
	t:add(sf.src, tvb(4, 2))
	t:add(sf.dst, tvb(6, 2))
	if bit32.rshift(tvb(2, 2):uint(), 12) == 0 then hl:add_proto_expert_info(se.hop0) end
	local src, dst = tvb(4, 2):uint(), tvb(6, 2):uint()
	t:append_text(string.format(", Src: %d, Dst: %d", src, dst))
	pinfo.cols.src = tostring(src)
	pinfo.cols.dst = tostring(dst)
	local nh = tvb(1, 1):uint()
	local rest = tvb:len() - SUNH_HLEN
	if nh == NEXTHDR_SUPERP then
		local lite = superp.prefs.lite
		if lite then nhi:append_text(" (decoded as SUPERp-lite: preference superp.lite)") end
		if rest == 0 then
			t:add_proto_expert_info(e.short, "No SUPERp headers after SUNH")
		else
			dissect_superp(tvb(SUNH_HLEN):tvb(), pinfo, tree, lite,
				ETH_MIN_PAYLOAD - SUNH_HLEN)
		end
	elseif nh == NEXTHDR_ECHO then
		if rest == 0 then
			t:add_proto_expert_info(se.echo_short)
		else
			dissect_echo(tvb(SUNH_HLEN):tvb(), pinfo, tree)
		end
	elseif rest > 0 then
		Dissector.get("data"):call(tvb(SUNH_HLEN):tvb(), pinfo, tree)
	end
	return tvb:len()
end

function superp.dissector(tvb, pinfo, tree)
	return dissect_superp(tvb, pinfo, tree, superp.prefs.lite, 0)
end

DissectorTable.get("ethertype"):add(ETH_P_SUNH, sunh)
local udp_table = DissectorTable.get("udp.port")
udp_table:add(superp.prefs.udp_port, superp)

function superp.prefs_changed()
	udp_table:remove_all(superp)
	udp_table:add(superp.prefs.udp_port, superp)
end
