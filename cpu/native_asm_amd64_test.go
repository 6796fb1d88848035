package cpu

import (
	"encoding/hex"
	"strings"
	"testing"
)

// The encoder against encodings checked once with an independent
// disassembler (GNU objdump -M intel agreed with every line of the
// listing below), covering the extended registers (EVEX.R', X, V'),
// masking, broadcasts' widths, SIB bases that need a displacement (r13),
// and the VEX mask instructions.
func TestNativeEncoder(t *testing.T) {
	var a assembler
	a.op3(evexOp{pp: 1, mm: 1, w: 1, code: 0x58, name: "vaddpd"}, zmmWidth, 17, 30, vreg(zmmWidth, 9), 0, false)
	a.load(evexOp{pp: 0, mm: 1, w: 0, code: 0x10, name: "vmovups"}, ymmWidth, 20, memOperand{base: r13, index: rcx, hasIndex: true, scale: 4}, 1)
	a.store(evexOp{pp: 1, mm: 1, w: 1, code: 0x11, name: "vmovupd"}, zmmWidth, memOperand{base: r12, index: rcx, hasIndex: true, scale: 8}, 25, 1)
	a.compare(evexOp{pp: 1, mm: 1, w: 1, code: 0xC2, name: "vcmppd"}, zmmWidth, 3, 16, vreg(zmmWidth, 31), 0x12)
	a.blend(evexOp{pp: 1, mm: 2, w: 0, code: 0x65, name: "vblendmps"}, ymmWidth, 23, 8, vreg(ymmWidth, 24), 5)
	a.op2(evexOp{pp: 0, mm: 1, w: 0, code: 0x5A, name: "vcvtps2pd"}, zmmWidth, 18, vreg(ymmWidth, 27), zmmWidth, 0, false)
	a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0x5A, name: "vcvtpd2ps"}, ymmWidth, 11, vreg(zmmWidth, 19), zmmWidth, 0, false)
	a.op2(evexOp{pp: 1, mm: 1, w: 1, code: 0x51, name: "vsqrtpd"}, zmmWidth, 29, vreg(zmmWidth, 12), zmmWidth, 0, false)
	a.movLoad(r11, rdi, 48)
	a.zero32(rcx)
	a.kop("kandw", 0x41, 2, 3, 4)
	a.knotw(5, 2)
	a.addImm(rcx, 8)
	a.cmp(rcx, rax)
	a.shiftLeftQ(zmmWidth, 28, 3, 31)
	a.truncQD(28, 9)
	a.storeByte(rdi, 16, 1)
	const wantHex = "62c18d4058c9" + "62c17ca910a48d00000000" + "6241fd49118ccc00000000" + "6291fd40c2df12" +
		"62823d2d65f8" + "62817c485ad3" + "6231fd485adb" + "6241fd4851ec" + "4c8b9c2730000000" + "31c9" +
		"c5e441d4" + "c5f844ea" + "4881c108000000" + "4839c1" + "62f19d4073f31f" + "62127e4835cc" + "c684271000000001"
	if got := hex.EncodeToString(a.code); got != wantHex {
		t.Errorf("code:\n%s\nwant\n%s", got, wantHex)
	}
	wantListing := `vaddpd zmm17, zmm30, zmm9
vmovups ymm20{k1}{z}, [r13+rcx*4]
vmovupd [r12+rcx*8]{k1}, zmm25
vcmppd k3, zmm16, zmm31, 0x12
vblendmps ymm23{k5}, ymm8, ymm24
vcvtps2pd zmm18, ymm27
vcvtpd2ps ymm11, zmm19
vsqrtpd zmm29, zmm12
mov r11, [rdi+48]
xor ecx, ecx
kandw k2, k3, k4
knotw k5, k2
add rcx, 8
cmp rcx, rax
vpsllq zmm28, zmm3, 31
vpmovqd ymm28, zmm9
mov byte [rdi+16], 1
`
	if got := strings.ReplaceAll(a.text(), "\t", ""); got != wantListing {
		t.Errorf("listing:\n%s\nwant\n%s", got, wantListing)
	}
}
