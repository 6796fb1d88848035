package cpu

import (
	"unsafe"

	"github.com/jaxsh/jaxsh/trace"
)

// smallResult is a result buffer of at most smallResultBytes together with
// its storage: one allocation instead of two, for the small arrays of eager
// scalar-like work.
type smallResult struct {
	buf   Buffer
	words [smallResultBytes / 8]uint64
}

const smallResultBytes = 32

// newResultBuffer is newBuffer for an Execute's results: 8-byte aligned,
// made in one allocation when it is small, and recycled storage when it is
// large (see recycle.go). zeroed reports whether its elements are zero,
// recyclable whether its storage may be handed to recycleWhenUnreachable.
func newResultBuffer(dev *Device, aval trace.AVal) (buf *Buffer, zeroed, recyclable bool) {
	n := aval.Size() * aval.DType.Size()
	if n >= recycledMinBytes {
		words, zeroed := newRecyclableStorage((n + 7) / 8)
		data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
		return &Buffer{aval: aval, dev: dev, data: data}, zeroed, true
	}
	if n == 0 || n > smallResultBytes {
		return newBuffer(dev, aval), true, false
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
