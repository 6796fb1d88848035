package cpu

import (
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Non-temporal stores for large outputs. An ordinary store first reads the
// cache line it writes (to own it), so a loop kernel writing an output
// that does not fit in the caches moves that output over the memory bus
// twice; a non-temporal store writes the line without reading it. A kernel
// whose outputs are large gets a second copy of its code whose
// whole-vector loop stores that way (masked tails store normally), used
// for chunks whose output addresses are aligned to a vector, as those
// instructions require, and followed by SFENCE so that the stores are
// visible before the kernel returns.

// nativeStreamingMin is the output bytes of a kernel from which its
// outputs are streamed: beyond the caches, where a reader would not find
// them cached anyway.
var nativeStreamingMin = 8 << 20

// streamOp is the non-temporal store of dt's lanes (VMOVNTPS/VMOVNTPD).
func streamOp(dt trace.DType) evexOp {
	if dt.Size() == 8 {
		return evexOp{pp: 1, mm: 1, w: 1, code: 0x2B, name: "vmovntpd"}
	}
	return evexOp{pp: 0, mm: 1, w: 0, code: 0x2B, name: "vmovntps"}
}

func (a *assembler) sfence() {
	a.code = append(a.code, 0x0F, 0xAE, 0xF8)
	a.list("sfence")
}

// compileStreaming returns the streaming copy of a kernel's code, or nil
// when its outputs are too small to gain from it.
func compileStreaming(l *nativeLowering, outs []int, k *jit.Kernel, plain *nativeCode) (*execMemory, error) {
	bytes := 0
	for _, v := range k.Out {
		bytes += v.Aval().Size() * v.Aval().DType.Size()
	}
	if bytes < nativeStreamingMin {
		return nil, nil
	}
	code, err := emitNative(l, outs, len(k.In), true)
	if err != nil {
		return nil, err
	}
	if len(code.moduli) != len(plain.moduli) || code.rawArgs != plain.rawArgs {
		return nil, errNotNative("streaming code with another argument block")
	}
	return newExecMemory(code.code)
}

// entry is the code to run for the chunk of out starting at element
// first: the streaming copy where it exists and every output's vectors
// are aligned.
func (k *nativeKernel) entry(out []*Buffer, first int) uintptr {
	if k.streaming == nil {
		return k.mem.entry()
	}
	for j, b := range out {
		align := uintptr(k.code.lanes * k.outSize[j])
		if (dataAddress(b)+uintptr(first*k.outSize[j]))%align != 0 {
			return k.mem.entry()
		}
	}
	return k.streaming.entry()
}
