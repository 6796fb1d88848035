package cpu

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	xcpu "golang.org/x/sys/cpu"

	"github.com/jaxsh/jaxsh/jit"
)

// Fused loop kernels as native code (issue: fused CPU kernels as machine
// code). compileNative lowers a kernel (native_lower_amd64.go), emits
// AVX-512 code for it (native_emit_amd64.go) and maps the code executable
// (native_code_amd64.go); a kernel it cannot take runs on the block
// machine, which stays the portable path. JAXSH_CPU_CODEGEN=0 turns
// generation off.

// nativeAvailable: the generated code needs AVX-512 F (zmm registers,
// masks) and VL (the same instructions on ymm, for float32 values in
// kernels that also compute in float64).
var nativeAvailable = xcpu.X86.HasAVX512F && xcpu.X86.HasAVX512VL

// nativeEnabled reports whether kernels compile to native code now; it
// reads the environment each time, so tests can switch it.
func nativeEnabled() bool {
	return nativeAvailable && os.Getenv("JAXSH_CPU_CODEGEN") != "0"
}

// nativeChunk bounds the elements one call of generated code covers, so
// that a goroutine returns to Go code (where it can be preempted and its
// stack scanned) every few tens of microseconds; kernels with long bodies
// take fewer (nativeKernel.grain).
const nativeChunk = 1 << 16

// A nativeKernel is a loop kernel compiled to machine code.
type nativeKernel struct {
	mem  *execMemory
	code *nativeCode
	// streaming, when set, is the same code storing whole vectors
	// non-temporally, for large outputs at aligned addresses.
	streaming *execMemory
	size      int
	inSize    []int // element size of each input
	outSize   []int
	// portable computes chunks whose lanes the code flagged (argFlag).
	portable *loopKernel
	// grain is the elements of one call and the smallest share of the
	// worker pool: nativeChunk for a short body, fewer for a long one, so
	// that every call is short and a stop request is seen soon.
	grain int
}

// compileNative compiles k to native code, or says why it cannot;
// portable is k on the block machine, for the chunks the code cannot
// finish.
func compileNative(k *jit.Kernel, portable *loopKernel) (fusedRunner, error) {
	if !nativeEnabled() {
		return nil, errNotNative("off")
	}
	l, outs, err := lowerNative(k)
	if err != nil {
		return nil, err
	}
	code, err := emitNative(l, outs, len(k.In), false)
	if err != nil {
		return nil, err
	}
	mem, err := newExecMemory(code.code)
	if err != nil {
		return nil, err
	}
	streaming, err := compileStreaming(l, outs, k, code)
	if err != nil {
		return nil, err
	}
	perElement := max(1, code.bodyOps/code.lanes)
	grain := min(nativeChunk, grainElements*4/max(4, perElement))
	nk := &nativeKernel{mem: mem, code: code, streaming: streaming, size: l.size, portable: portable, grain: max(code.lanes, grain&^(code.lanes-1))}
	for _, v := range k.In {
		nk.inSize = append(nk.inSize, v.Aval().DType.Size())
	}
	for _, v := range k.Out {
		nk.outSize = append(nk.outSize, v.Aval().DType.Size())
	}
	if dumpKernels() {
		fmt.Fprintf(os.Stderr, "native code for the loop kernel over %s writing %v:\n%s", k.Shape, k.Out, code.listing)
		if streaming != nil {
			fmt.Fprintf(os.Stderr, "\t; and a copy of it whose whole-vector loop stores with %s, for aligned outputs\n", streamOp(k.Out[0].Aval().DType).name)
		}
	}
	return nk, nil
}

// dumpKernels reports whether JAXSH_DUMP asks for the kernel program,
// which then includes the generated code.
func dumpKernels() bool {
	for _, s := range strings.Split(os.Getenv("JAXSH_DUMP"), ",") {
		if s = strings.TrimSpace(s); s == "kernels" || s == "all" {
			return true
		}
	}
	return false
}

func (k *nativeKernel) run(in, out []*Buffer, stop stopSignal) {
	if k.code.flags && sharesMemory(in, out) {
		// A flagged chunk is computed again from the inputs, which must
		// not have been overwritten by then.
		k.portable.run(in, out, stop)
		return
	}
	lanes := k.code.lanes
	vectors := (k.size + lanes - 1) / lanes
	if k.size <= k.grain {
		k.runRange(in, out, 0, k.size)
		return
	}
	pool.parallelFor(stop, vectors, k.grain/lanes, func(lo, hi int) {
		k.runRange(in, out, lo*lanes, min(hi*lanes, k.size))
	})
}

// runRange computes elements [lo, hi) in chunks of at most nativeChunk.
func (k *nativeKernel) runRange(in, out []*Buffer, lo, hi int) {
	args := make([]uintptr, k.code.argWords(len(in)))
	lanes := k.code.lanes
	for i, b := range in {
		args[k.code.rawArgs+i] = dataAddress(b)
	}
	// Chunks start at multiples of the lanes (lo is one): index values
	// that repeat with a period dividing the lanes are the same in every
	// vector (native_index_amd64.go).
	for c := lo; c < hi; c += k.grain {
		n := min(k.grain, hi-c)
		whole := n &^ (lanes - 1)
		args[argMain] = uintptr(whole)
		args[argTail] = uintptr(1)<<(n-whole) - 1
		k.code.setIndexArgs(args, c)
		for i, b := range in {
			args[argPtrs+i] = dataAddress(b)
			if k.code.inFull[i] {
				args[argPtrs+i] += uintptr(c * k.inSize[i])
			}
		}
		for j, b := range out {
			args[argPtrs+len(in)+j] = dataAddress(b) + uintptr(c*k.outSize[j])
		}
		callNative(k.entry(out, c), &args[0])
		if args[argFlag] != 0 {
			args[argFlag] = 0
			k.portable.runRange(in, out, c, c+n)
		}
	}
	// The buffers and the code must outlive every call above.
	runtime.KeepAlive(in)
	runtime.KeepAlive(out)
	runtime.KeepAlive(k.mem)
	runtime.KeepAlive(k.streaming)
}

// runRange runs the block machine on elements [lo, hi).
func (k *loopKernel) runRange(in, out []*Buffer, lo, hi int) {
	bl := k.prog.blockLen
	s := k.prog.acquire(in, out, hi-lo)
	for b := lo; b < hi; b += bl {
		s.runBlock(b, min(bl, hi-b))
	}
	k.prog.release(s)
}

func dataAddress(b *Buffer) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b.data))) }
