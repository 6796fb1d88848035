package starlark

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Python numbers met as operands (the 1 of x + 1) become 0-d arrays. Their
// buffers are cached by value, dtype, weakness and device, so that an eager
// op with a number operand copies nothing to the device and allocates only
// the array that holds the cached buffer. Buffers are immutable; the array
// is marked shared, so donating it donates a copy and the cached buffer
// stays intact.

// scalarKey is what a cached scalar buffer depends on: its element's bytes
// in its dtype (so -0.0 and 0.0, or 1 and 1.0 in float32, are told apart
// exactly as the device would hold them).
type scalarKey struct {
	dev   jit.Device
	dtype trace.DType
	weak  bool
	bytes [16]byte
}

type scalarEntry struct {
	key scalarKey
	buf jit.Buffer
}

// scalarSlots is a direct-mapped cache: a key's slot holds the latest
// buffer made for a key hashing there. Lookups and stores are lock-free; a
// collision only costs a new buffer.
var (
	scalarSlots [256]atomic.Pointer[scalarEntry]
	scalarSeed  = maphash.MakeSeed()
)

func (k *scalarKey) slot() *atomic.Pointer[scalarEntry] {
	var h maphash.Hash
	h.SetSeed(scalarSeed)
	h.Write(k.bytes[:])
	h.WriteByte(byte(k.dtype))
	return &scalarSlots[h.Sum64()%uint64(len(scalarSlots))]
}

// scalarOperand returns the 0-d array of Python number v in type t on dev,
// with a cached buffer; ok is false when v is not a Python number.
func scalarOperand(fn string, v starlark.Value, t trace.Type, dev jit.Device) (a *Array, ok bool, err error) {
	switch v.(type) {
	case starlark.Int, starlark.Float, starlark.Bool:
	default:
		return nil, false, nil
	}
	size := t.DType.Size()
	key := scalarKey{dev: dev, dtype: t.DType, weak: t.Weak}
	if size > len(key.bytes) {
		return nil, false, nil
	}
	raw := key.bytes[:size]
	if err := encodeScalar(fn, raw, 0, t.DType, v); err != nil {
		return nil, true, err
	}
	slot := key.slot()
	if e := slot.Load(); e != nil && e.key == key {
		return &Array{aval: e.buf.AVal(), buf: e.buf, shared: true}, true, nil
	}
	// A copy: the key stays on this goroutine's stack.
	buf, err := jit.FromHost(dev, trace.AVal{DType: t.DType, Weak: t.Weak}, append([]byte(nil), raw...))
	if err != nil {
		return nil, true, err
	}
	slot.Store(&scalarEntry{key: key, buf: buf})
	return &Array{aval: buf.AVal(), buf: buf, shared: true}, true, nil
}
