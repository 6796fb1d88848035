package cpu

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// Elementwise primitives run as block ops: functions that compute one
// primitive over a contiguous run of elements. The eager kernels
// (elementwise_eager.go) run one block op over a whole array, split across
// the worker pool; a fused kernel chains several over cache-sized blocks so
// that intermediates stay in L1 (DESIGN decision 7).
//
// # Using a block op from a fused kernel
//
// At compile time, look up each equation once:
//
//	k, err := elementwiseBlock(e.Prim.Name, e.Params, operandDTypes)
//
// k.in[i] is the dtype whose layout operand i's run must hold, k.out[j] the
// layout result j's run receives. They equal the operands' and results'
// own dtypes except for float16 and bfloat16, which most ops compute in
// float32 (k.in/k.out say float32); the fused kernel widens such inputs per
// block (widenRun) and rounds such results to their own dtype before any
// other op reads them (narrowRun into the output, or a narrow and widen
// round trip on a register), so that fused and eager results agree bit for
// bit. A few ops (copy, select_n, reduce_precision, nextafter) work on the
// 16-bit layout directly, and convert_element_type writes a 16-bit result
// in its own layout, rounded once from the source.
//
// At run time, per block of n elements, call
//
//	k.op(outRuns, inRuns)
//
// with one []byte per result (exactly n elements of k.out[j]) and one per
// operand (n elements of k.in[i], or exactly one element, which stands for
// all n: a rank-0 operand broadcast). A length-one run costs a fill of a
// scratch block per call, so a fused kernel should materialise a scalar
// into a full register once and reuse it across blocks. An output run may
// be the very memory of an input run of the same layout (in place: every op
// reads an element's inputs before writing its outputs); runs must not
// otherwise overlap. Ops do not allocate per element; they are safe for
// concurrent use on disjoint runs, so workers may run one block each.

// A blockOp computes one elementwise primitive over a run of elements: out
// holds one run per result, in one run per operand, as described above.
type blockOp func(out, in [][]byte)

// A blockKernel is a block op with the layouts of its runs.
type blockKernel struct {
	op blockOp
	// body is op for runs that are all full (op broadcasts length-one runs
	// into scratch, then calls body).
	body blockOp
	in   []trace.DType // layout of each operand's run
	out  []trace.DType // layout of each result's run
}

// elementwiseBlock returns the block kernel computing prim with params on
// operands of dtypes in. It reports primitives and dtype combinations that
// have no block op, and params the op cannot honour.
func elementwiseBlock(prim string, params trace.Params, in []trace.DType) (blockKernel, error) {
	if p := trace.Lookup(prim); p == nil || len(in) < max(1, p.MinIn) || (p.MaxIn >= 0 && len(in) > p.MaxIn) {
		return blockKernel{}, fmt.Errorf("cpu: no %s kernel for %d operands", prim, len(in))
	}
	key := blockKey{prim: prim, dt: in[0]}
	switch prim {
	case "pow":
		if len(in) == 2 && in[1] != in[0] {
			key.aux = in[1]
		}
	case "select_n":
		key.dt, key.aux = in[1], in[0]
	case "clamp":
		key.dt = in[1]
	}
	for i, dt := range in {
		if dt != key.dt && !(dt == key.aux && (i == 0 || prim == "pow")) {
			return blockKernel{}, fmt.Errorf("cpu: %s operands of mixed dtypes %s", prim, dtypeList(in))
		}
	}
	entry, ok := blockTable[key]
	if !ok && isHalf(key.dt) {
		// float16 and bfloat16 compute in float32 unless they have rows
		// of their own.
		entry, ok = blockTable[blockKey{prim: key.prim, dt: trace.Float32, aux: key.aux}]
	}
	if !ok {
		return blockKernel{}, fmt.Errorf("cpu: no %s kernel for %s", prim, dtypeList(in))
	}
	body, err := entry.build(params, len(in))
	if err != nil {
		return blockKernel{}, fmt.Errorf("cpu: %s: %w", prim, err)
	}
	k := blockKernel{in: make([]trace.DType, len(in)), out: make([]trace.DType, entry.results)}
	for i, dt := range in {
		k.in[i] = dt // pow's exponent and select_n's which keep their own
		if dt == key.dt {
			k.in[i] = entry.compute
		}
	}
	for j := range k.out {
		k.out[j] = entry.result
		if entry.resultParam != "" {
			k.out[j] = params.DType(entry.resultParam)
		}
	}
	k.op, k.body = withBroadcast(body, dtypeSizes(k.in), dtypeSizes(k.out)), body
	return k, nil
}

func dtypeList(dts []trace.DType) string {
	s := ""
	for i, dt := range dts {
		if i > 0 {
			s += ", "
		}
		s += dt.Name()
	}
	return s
}

func dtypeSizes(dts []trace.DType) []int {
	sizes := make([]int, len(dts))
	for i, dt := range dts {
		sizes[i] = dt.Size()
	}
	return sizes
}

// The table of block ops. A row is keyed by the primitive and the dtype of
// its main operands (select_n: the cases; clamp: the operand; otherwise
// the first operand) and, where a second operand may have another dtype
// (pow's exponent, select_n's predicate), that dtype as aux.
type blockKey struct {
	prim    string
	dt, aux trace.DType
}

type blockEntry struct {
	compute trace.DType // layout of the runs of operands of dtype key.dt
	result  trace.DType // layout of every result run
	// resultParam, when set, names the dtype param whose dtype is the
	// result layout instead (convert_element_type's new_dtype).
	resultParam string
	results     int
	// build makes the op for given params and operand count. Its runs all
	// have the same length: withBroadcast handles length-one operands.
	build func(p trace.Params, nIn int) (blockOp, error)
}

var blockTable = map[blockKey]blockEntry{}

func defineBlock(key blockKey, e blockEntry) {
	if _, dup := blockTable[key]; dup {
		panic(fmt.Sprintf("cpu: block op defined twice: %s on %s/%s", key.prim, key.dt, key.aux))
	}
	if e.results == 0 {
		e.results = 1
	}
	blockTable[key] = e
}

// fixed wraps a parameterless op for blockEntry.build.
func fixed(op blockOp) func(trace.Params, int) (blockOp, error) {
	return func(trace.Params, int) (blockOp, error) { return op, nil }
}

// Typed adapters: they turn typed loops, which see runs of one length as
// Go slices, into blockOps. Loops are generic over dtype families (see the
// constraints below) and instantiated once per dtype in the init functions.

func unaryOp[T, R any](f func(dst []R, x []T)) blockOp {
	return func(out, in [][]byte) { f(runAs[R](out[0]), runAs[T](in[0])) }
}

func binaryOp[T, U, R any](f func(dst []R, x []T, y []U)) blockOp {
	return func(out, in [][]byte) { f(runAs[R](out[0]), runAs[T](in[0]), runAs[U](in[1])) }
}

func ternaryOp[T, R any](f func(dst []R, x, y, z []T)) blockOp {
	return func(out, in [][]byte) { f(runAs[R](out[0]), runAs[T](in[0]), runAs[T](in[1]), runAs[T](in[2])) }
}

// defUnary and defBinary define the common rows: operands and results in
// the key dtype's own layout (or bool results, for predicates).
func defUnary[T, R any](prim string, dt, result trace.DType, f func(dst []R, x []T)) {
	defineBlock(blockKey{prim: prim, dt: dt}, blockEntry{compute: dt, result: result, build: fixed(unaryOp(f))})
}

func defBinary[T, R any](prim string, dt, result trace.DType, f func(dst []R, x, y []T)) {
	defineBlock(blockKey{prim: prim, dt: dt}, blockEntry{compute: dt, result: result, build: fixed(binaryOp(f))})
}

// runAs views a run's bytes as a []T. Runs come from buffers and scratch
// blocks that are 8-byte aligned, at offsets that are multiples of the
// element size.
func runAs[T any](b []byte) []T {
	var zero T
	n := len(b) / int(unsafe.Sizeof(zero))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// bytesOf is the memory of s as a run.
func bytesOf[T any](s []T) []byte {
	var zero T
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}

// Type sets of the dtype families. bool runs compute as uint8 (0 or 1):
// its logical ops are the bitwise ops on those values, and its order
// (False < True) is theirs.
type signedElem interface {
	~int8 | ~int16 | ~int32 | ~int64
}

type unsignedElem interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

type intElem interface{ signedElem | unsignedElem }

type floatElem interface{ ~float32 | ~float64 }

type complexElem interface{ ~complex64 | ~complex128 }

type realElem interface{ intElem | floatElem }

type numElem interface {
	intElem | floatElem | complexElem
}

// broadcastPiece is how many bytes of each length-one operand withBroadcast
// expands at a time: small enough to stay in L1 next to the other runs.
const broadcastPiece = 4 << 10

var broadcastScratch = sync.Pool{New: func() any { return new(broadcastState) }}

// broadcastState is withBroadcast's scratch: expanded pieces of the
// length-one operands (8-byte words, so any dtype aligns) and the run
// lists it hands the body.
type broadcastState struct {
	words             []uint64
	filled, pin, pout [][]byte
}

// runs returns (*list)[:n], cleared, growing it when short.
func (*broadcastState) runs(list *[][]byte, n int) [][]byte {
	if cap(*list) < n {
		*list = make([][]byte, n)
	}
	r := (*list)[:n]
	clear(r)
	return r
}

// withBroadcast lets body, which needs every run to have the same length,
// accept length-one input runs: it fills a scratch piece with each such
// operand's element and runs body piece by piece.
func withBroadcast(body blockOp, inSizes, outSizes []int) blockOp {
	maxSize := 1
	for _, s := range append(append([]int(nil), inSizes...), outSizes...) {
		maxSize = max(maxSize, s)
	}
	return func(out, in [][]byte) {
		n := len(out[0]) / outSizes[0]
		scalars := 0
		for i, r := range in {
			if len(r) != n*inSizes[i] {
				if len(r) != inSizes[i] {
					panic(fmt.Sprintf("cpu: block op operand %d has %d bytes for %d elements", i, len(r), n))
				}
				scalars++
			}
		}
		if scalars == 0 {
			body(out, in)
			return
		}
		piece := max(1, broadcastPiece/maxSize)
		sc := broadcastScratch.Get().(*broadcastState)
		defer broadcastScratch.Put(sc)
		words := scalars * broadcastPiece / 8
		if len(sc.words) < words {
			sc.words = make([]uint64, words)
		}
		scratch := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(sc.words))), len(sc.words)*8)
		// The operand lists come with the scratch: a small eager op should
		// not allocate here.
		filled := sc.runs(&sc.filled, len(in)) // the expanded operands, nil for full runs
		pin, pout := sc.runs(&sc.pin, len(in)), sc.runs(&sc.pout, len(out))
		next := 0
		for i, r := range in {
			if len(r) == n*inSizes[i] {
				continue
			}
			f := scratch[next*broadcastPiece : next*broadcastPiece+min(n, piece)*inSizes[i]]
			next++
			fillRepeat(f, r)
			filled[i] = f
		}
		for lo := 0; lo < n; lo += piece {
			hi := min(n, lo+piece)
			for i, r := range in {
				if filled[i] != nil {
					pin[i] = filled[i][:(hi-lo)*inSizes[i]]
				} else {
					pin[i] = r[lo*inSizes[i] : hi*inSizes[i]]
				}
			}
			for j, r := range out {
				pout[j] = r[lo*outSizes[j] : hi*outSizes[j]]
			}
			body(pout, pin)
		}
	}
}

// fillRepeat fills dst with copies of the element elem, doubling the
// filled prefix with each copy.
func fillRepeat(dst, elem []byte) {
	if len(dst) == 0 {
		return
	}
	k := copy(dst, elem)
	for k < len(dst) {
		k += copy(dst[k:], dst[:k])
	}
}
