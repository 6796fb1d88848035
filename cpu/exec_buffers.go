package cpu

import (
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// smallResult is a result buffer of at most smallResultBytes together with
// its storage: one allocation instead of two, for the small arrays of eager
// scalar-like work. tinyResult is the same for at most 16 bytes (four
// float32s), which then fits the allocator's 80-byte class, not 96.
type smallResult struct {
	buf   Buffer
	words [smallResultBytes / 8]uint64
}

type tinyResult struct {
	buf   Buffer
	words [tinyResultBytes / 8]uint64
}

const (
	smallResultBytes = 32
	tinyResultBytes  = 16
)

// newResultBuffer is newBuffer for an Execute's results: 8-byte aligned,
// made in one allocation when it is small, and recycled storage when it is
// large (see recycle.go). zeroed reports whether its elements are zero,
// recyclable whether its storage may be handed to recycleWhenUnreachable.
func newResultBuffer(dev *Device, aval trace.AVal) (buf *Buffer, zeroed, recyclable bool) {
	n := aval.Size() * aval.DType.Size()
	switch {
	case n >= recycledMinBytes:
		words, zeroed := newRecyclableStorage((n + 7) / 8)
		data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
		return &Buffer{aval: aval, dev: dev, data: data}, zeroed, true
	case n == 0 || n > smallResultBytes:
		return newBuffer(dev, aval), true, false
	case n <= tinyResultBytes:
		s := &tinyResult{}
		s.buf = Buffer{aval: aval, dev: dev, data: unsafe.Slice((*byte)(unsafe.Pointer(&s.words[0])), n)}
		return &s.buf, true, false
	}
	s := &smallResult{}
	s.buf = Buffer{aval: aval, dev: dev, data: unsafe.Slice((*byte)(unsafe.Pointer(&s.words[0])), n)}
	return &s.buf, true, false
}

// recyclable reports whether p starts the storage of a result buffer this
// run made recyclable.
func (sc *execScratch) recyclable(p *byte) bool {
	for i, b := range sc.outs {
		if b != nil && sc.outRecyclable[i] && unsafe.SliceData(b.data) == p {
			return true
		}
	}
	return false
}

// newUninitializedBuffer is newResultBuffer for a result whose first
// writer writes every byte: a large one is recycled storage or fresh
// storage Go has not zeroed (zeroing is an extra write pass over memory,
// which is what bounds a fused loop kernel). recyclable is as for
// newResultBuffer.
func newUninitializedBuffer(dev *Device, aval trace.AVal) (buf *Buffer, recyclable bool) {
	n := aval.Size() * aval.DType.Size()
	if n < uninitializedMin {
		buf, _, recyclable = newResultBuffer(dev, aval)
		return buf, recyclable
	}
	words := (n + 7) / 8
	var storage []uint64
	if n >= recycledMinBytes {
		storage, recyclable = recycled.take(words), true
	}
	if storage == nil {
		storage = unsafe.Slice((*uint64)(mallocgc(uintptr(words)*8, nil, false)), words)
	}
	buf = &Buffer{aval: aval, dev: dev, data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(storage))), n)}
	if poisonUninitialized {
		for i := range buf.data {
			buf.data[i] = 0xFF
		}
	}
	return buf, recyclable
}

// poisonUninitialized, set by tests, fills unzeroed results with all-ones
// bytes (NaN, -1, True), so that an element a kernel fails to write shows.
var poisonUninitialized bool

// uninitializedMin is the size from which results are left unzeroed:
// below it clearing costs next to nothing (and Go allocates small objects
// from spans it zeroes anyway).
const uninitializedMin = 1 << 16

// mallocgc is the Go runtime's allocator, which the runtime keeps
// reachable by this name for packages that need memory it does not zero
// (go.dev/issue/67401). A nil type allocates memory the garbage collector
// does not scan, with the alignment of its size class (at least 8 bytes).
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer
