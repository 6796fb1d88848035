// Package cpu runs jaxsh Programs on logical CPU devices. Buffers are plain
// Go memory; kernels are Go functions, one per primitive (generic over
// dtypes), split across a persistent worker pool on large arrays.
//
// Importing the package registers the "cpu" backend with jit.
package cpu

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// Device is one logical CPU device. Logical devices share the machine's
// cores through one worker pool. Its name is made once: dispatch asks for
// it on every call.
type Device struct {
	id   int
	name string
}

func newDevice(id int) *Device { return &Device{id: id, name: "cpu:" + strconv.Itoa(id)} }

var _ jit.Device = (*Device)(nil)

func (d *Device) Platform() string { return "cpu" }
func (d *Device) ID() int          { return d.id }
func (d *Device) Kind() string     { return "cpu" }
func (d *Device) String() string   { return d.name }

// Buffer is an array in host memory: its elements in row-major order, each
// in its dtype's layout (float16/bfloat16 as raw uint16 bits, bool as one
// byte). The backing store is 8-byte aligned so any dtype can view it.
type Buffer struct {
	aval trace.AVal
	dev  *Device
	data []byte
}

var _ jit.Buffer = (*Buffer)(nil)

func (b *Buffer) AVal() trace.AVal   { return b.aval }
func (b *Buffer) Device() jit.Device { return b.dev }
func (b *Buffer) String() string     { return fmt.Sprintf("cpu.Buffer(%s on %s)", b.aval, b.dev) }
func (b *Buffer) Bytes() []byte      { return b.data }
func (b *Buffer) Len() int           { return b.aval.Size() }
func (b *Buffer) DType() trace.DType { return b.aval.DType }
func (b *Buffer) Shape() trace.Shape { return b.aval.Shape }

// newBuffer allocates a zeroed buffer for aval on dev.
func newBuffer(dev *Device, aval trace.AVal) *Buffer {
	n := aval.Size() * aval.DType.Size()
	words := make([]uint64, (n+7)/8)
	var data []byte
	if n > 0 {
		data = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n)
	}
	return &Buffer{aval: aval, dev: dev, data: data}
}

// view returns the buffer's elements as a []T; T must match the dtype's
// layout (see elemType).
func view[T any](b *Buffer) []T {
	n := b.aval.Size()
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b.data))), n)
}
