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

// newResultBuffer is newBuffer for an Execute's results: zeroed, 8-byte
// aligned, and made in one allocation when it is small.
func newResultBuffer(dev *Device, aval trace.AVal) *Buffer {
	n := aval.Size() * aval.DType.Size()
	if n == 0 || n > smallResultBytes {
		return newBuffer(dev, aval)
	}
	s := &smallResult{}
	s.buf = Buffer{aval: aval, dev: dev, data: unsafe.Slice((*byte)(unsafe.Pointer(&s.words[0])), n)}
	return &s.buf
}
