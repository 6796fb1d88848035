package cuda

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The "cuda" platform: one Device per GPU the driver reports, cuda:0 …
// cuda:N-1 in the driver's order. The package probes the driver when it
// is initialised; only a driver that loads and reports a device registers
// the backend, so a machine without one runs on the CPU as before.

var (
	unavailable string   // why there is no cuda backend ("" when there is)
	theBackend  *backend // nil when unavailable
	probeOnce   sync.Once
)

func init() { probe() }

func probe() {
	probeOnce.Do(func() {
		defer func() {
			if unavailable != "" {
				jit.SetUnavailable("cuda", unavailable)
			}
		}()
		n, err := initDriver()
		switch {
		case err != nil:
			unavailable = err.Error()
			return
		case n == 0:
			unavailable = "no CUDA devices: the driver reports none"
			return
		}
		b := &backend{}
		for i := range n {
			d, err := newDevice(i)
			if err != nil {
				unavailable = fmt.Sprintf("cuda:%d: %v", i, err)
				return
			}
			b.devices = append(b.devices, d)
		}
		theBackend = b
		jit.RegisterBackend(b)
	})
}

// Unavailable says why no CUDA device is available ("no CUDA driver:
// libcuda.so.1: cannot open shared object file ..."), or "" when the cuda
// backend is registered. The front end shows it in devices() diagnostics.
func Unavailable() string {
	probe()
	return unavailable
}

// Available reports whether the cuda backend registered.
func Available() bool { return Unavailable() == "" }

type backend struct {
	devices []*Device
}

func (b *backend) Platform() string { return "cuda" }

func (b *backend) Devices() []jit.Device {
	out := make([]jit.Device, len(b.devices))
	for i, d := range b.devices {
		out[i] = d
	}
	return out
}

// Capabilities: fused loop and reduction kernels, embedded constants.
func (b *backend) Capabilities() jit.Capabilities {
	return jit.Capabilities{FusedKernels: true, EmbeddedConstants: true}
}

// A Device is one GPU. Its context and stream are made on first use, so a
// process that never touches the GPU does not pay for them.
type Device struct {
	id   int
	name string
	sms  int
	cc   [2]int
	mem  uint64
	// memory is charged for every allocation on the device (limits.go).
	memory *jit.Budget

	once    sync.Once
	initErr error
	ctx     *Context
	stream  *Stream // every operation of the device runs on this stream, in order
	pools   bool    // stream-ordered allocation (cuMemAllocAsync) works
}

var _ jit.Device = (*Device)(nil)

func newDevice(i int) (*Device, error) {
	c, err := deviceHandle(i)
	if err != nil {
		return nil, err
	}
	d := &Device{id: i}
	if d.name, err = c.name(); err != nil {
		return nil, err
	}
	if d.sms, err = c.attribute(attrMultiprocessorCount); err != nil {
		return nil, err
	}
	if d.cc[0], err = c.attribute(attrComputeCapabilityMajor); err != nil {
		return nil, err
	}
	if d.cc[1], err = c.attribute(attrComputeCapabilityMinor); err != nil {
		return nil, err
	}
	if d.mem, err = c.totalMem(); err != nil {
		return nil, err
	}
	d.memory = newDeviceBudget(d, d.mem)
	pools, _ := c.attribute(attrMemoryPoolsSupported)
	d.pools = pools != 0 && drv.cuMemAllocAsync != nil && drv.cuMemFreeAsync != nil
	return d, nil
}

// deviceHandle gets a device without retaining its context (enough to
// read its name and attributes).
func deviceHandle(i int) (*Context, error) {
	c := &Context{ordinal: i}
	if err := check("cuDeviceGet", drv.cuDeviceGet(&c.dev, int32(i))); err != nil {
		return nil, err
	}
	return c, nil
}

func (d *Device) Platform() string { return "cuda" }
func (d *Device) ID() int          { return d.id }
func (d *Device) Kind() string     { return d.name }
func (d *Device) String() string   { return fmt.Sprintf("cuda:%d", d.id) }

// ComputeCapability is the GPU's (major, minor), e.g. (9, 0) for an H100.
func (d *Device) ComputeCapability() (int, int) { return d.cc[0], d.cc[1] }

// start retains the primary context and makes the device's stream.
func (d *Device) start() error {
	d.once.Do(func() {
		c, err := retainContext(d.id)
		if err != nil {
			d.initErr = err
			return
		}
		d.ctx = c
		if d.stream, err = c.newStream(); err != nil {
			d.initErr = err
			return
		}
		if d.pools && drv.cuDeviceGetDefaultMemPool != nil && drv.cuMemPoolSetAttribute != nil {
			// Keep freed memory in the pool rather than giving it back
			// at every synchronisation: executions allocate their
			// temporaries per run.
			var pool uintptr
			if drv.cuDeviceGetDefaultMemPool(&pool, c.dev) == 0 {
				limit := ^uint64(0)
				drv.cuMemPoolSetAttribute(pool, memPoolAttrReleaseThreshold, &limit)
			}
		}
	})
	return d.initErr
}

// A Buffer is an array in device memory.
type Buffer struct {
	aval trace.AVal
	dev  *Device
	ptr  uint64 // 0 for an empty array
	size int
}

var _ jit.Buffer = (*Buffer)(nil)

func (b *Buffer) AVal() trace.AVal   { return b.aval }
func (b *Buffer) Device() jit.Device { return b.dev }
func (b *Buffer) String() string     { return fmt.Sprintf("cuda.Buffer(%s on %s)", b.aval, b.dev) }

// Ptr is the buffer's device address.
func (b *Buffer) Ptr() uint64 { return b.ptr }

// allocation is what a buffer's cleanup frees.
type allocation struct {
	dev    *Device
	ptr    uint64
	charge deviceCharge
}

func freeAllocation(a allocation) {
	// Stream-ordered: work already queued that reads the buffer finishes
	// first.
	_ = a.dev.ctx.memFree(a.ptr, a.dev.stream, a.dev.pools)
	a.charge.release()
}

// newBuffer allocates device memory for aval; the memory is freed when
// the Buffer is garbage.
func (d *Device) newBuffer(aval trace.AVal) (*Buffer, error) {
	return d.newBufferFor(aval, nil)
}

// newBufferFor is newBuffer charged to budget (nil: the device's alone).
func (d *Device) newBufferFor(aval trace.AVal, budget *jit.Budget) (*Buffer, error) {
	if err := d.start(); err != nil {
		return nil, err
	}
	n := aval.Size() * aval.DType.Size()
	b := &Buffer{aval: aval, dev: d, size: n}
	if n == 0 {
		return b, nil
	}
	charge, err := chargeDevice(d.memory, budget, int64(n), aval)
	if err != nil {
		return nil, err
	}
	p, err := d.ctx.memAlloc(n, d.stream, d.pools)
	if err != nil {
		charge.release()
		return nil, err
	}
	b.ptr = p
	runtime.AddCleanup(b, freeAllocation, allocation{dev: d, ptr: p, charge: charge})
	return b, nil
}

func (b *backend) device(d jit.Device) (*Device, error) {
	cd, ok := d.(*Device)
	if !ok {
		return nil, fmt.Errorf("cuda: %s is not a CUDA device", d)
	}
	return cd, cd.start()
}

func (b *backend) FromHost(d jit.Device, aval trace.AVal, data []byte) (jit.Buffer, error) {
	dev, err := b.device(d)
	if err != nil {
		return nil, err
	}
	buf, err := dev.newBuffer(aval)
	if err != nil {
		return nil, err
	}
	if err := dev.stream.copyHtoD(buf.ptr, data); err != nil {
		return nil, err
	}
	return buf, nil
}

// ToHost waits for the work that writes the buffer (everything queued on
// its device's stream before the copy).
func (b *backend) ToHost(jb jit.Buffer) ([]byte, error) {
	buf, ok := jb.(*Buffer)
	if !ok {
		return nil, fmt.Errorf("cuda: %T is not a CUDA buffer", jb)
	}
	out := make([]byte, buf.size)
	if err := buf.dev.stream.copyDtoH(out, buf.ptr); err != nil {
		return nil, err
	}
	runtime.KeepAlive(buf)
	return out, nil
}
