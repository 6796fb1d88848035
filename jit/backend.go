// Package jit turns jaxprs into Programs of kernels and runs them on the
// devices of registered backends. It never imports a backend: backends
// (cpu/, cuda/) register themselves with RegisterBackend.
//
// Eager operations take the same path as jitted functions (DESIGN decision
// 3): ApplyPrimitive wraps one primitive in a one-equation jaxpr, compiles it
// once per (primitive, params, operand types, device) and runs the cached
// executable.
package jit

import (
	"fmt"
	"sort"
	"sync"

	"github.com/jaxsh/jaxsh/trace"
)

// A Device is one place where buffers live and programs run.
type Device interface {
	// Platform is the backend's name: "cpu" or "cuda".
	Platform() string
	// ID is the device's index within its platform.
	ID() int
	// Kind describes the hardware, e.g. "cpu" or "NVIDIA H100".
	Kind() string
	// String is "platform:id", e.g. "cpu:0".
	String() string
}

// A Buffer is the storage of one array on one device.
type Buffer interface {
	AVal() trace.AVal
	Device() Device
}

// A Backend runs Programs on the devices of one platform.
type Backend interface {
	Platform() string
	Devices() []Device
	// Compile prepares p to run on dev.
	Compile(p *Program, dev Device) (Executable, error)
	// FromHost copies data — the array's elements in row-major order, each
	// in its dtype's little-endian layout (float16 and bfloat16 as their 16
	// bits, bool as one byte 0 or 1) — into a new buffer on dev.
	FromHost(dev Device, aval trace.AVal, data []byte) (Buffer, error)
	// ToHost copies a buffer's elements to host memory, in FromHost's layout.
	ToHost(b Buffer) ([]byte, error)
}

// An Executable is a Program compiled for one device.
type Executable interface {
	// Execute runs the program with one buffer per ConstVar of its jaxpr
	// followed by one per InVar, all on the executable's device, and returns
	// one buffer per OutVar. Host ops of the program call host, in program
	// order, on the goroutine running Execute.
	Execute(args []Buffer, host Host) ([]Buffer, error)
}

var (
	backendsMu sync.RWMutex
	backends   = map[string]Backend{}
)

// RegisterBackend makes a backend's devices available. A platform registers
// once; registering it again is a programming error and panics.
func RegisterBackend(b Backend) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if _, dup := backends[b.Platform()]; dup {
		panic(fmt.Sprintf("jit: backend %q registered twice", b.Platform()))
	}
	backends[b.Platform()] = b
}

var unavailable sync.Map // platform -> why its backend did not register

// SetUnavailable records why a platform's backend did not register (no
// driver, no device), for the messages of anything that asks for it.
func SetUnavailable(platform, reason string) { unavailable.Store(platform, reason) }

// Unavailable returns why a platform has no backend, or "" when it has one
// or nothing was recorded.
func Unavailable(platform string) string {
	if LookupBackend(platform) != nil {
		return ""
	}
	r, _ := unavailable.Load(platform)
	s, _ := r.(string)
	return s
}

// LookupBackend returns the backend of a platform, or nil.
func LookupBackend(platform string) Backend {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	return backends[platform]
}

// Devices lists the devices of every registered backend, or of one platform
// when platform is not empty, ordered by platform then id.
func Devices(platform string) []Device {
	backendsMu.RLock()
	defer backendsMu.RUnlock()
	var out []Device
	for name, b := range backends {
		if platform == "" || platform == name {
			out = append(out, b.Devices()...)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Platform() != out[j].Platform() {
			return out[i].Platform() < out[j].Platform()
		}
		return out[i].ID() < out[j].ID()
	})
	return out
}

// LookupDevice finds a device by its name ("cpu", "cpu:1", "cuda:0"); a
// bare platform name means its device 0.
func LookupDevice(name string) (Device, error) {
	platform, id := name, 0
	if i := indexByte(name, ':'); i >= 0 {
		platform = name[:i]
		if _, err := fmt.Sscanf(name[i+1:], "%d", &id); err != nil || fmt.Sprint(id) != name[i+1:] {
			return nil, fmt.Errorf("bad device name %q: want PLATFORM or PLATFORM:N", name)
		}
	}
	b := LookupBackend(platform)
	if b == nil {
		if why := Unavailable(platform); why != "" {
			return nil, fmt.Errorf("no %s devices available (device %q): %s", platform, name, why)
		}
		return nil, fmt.Errorf("no %s devices available (device %q)", platform, name)
	}
	devs := b.Devices()
	if id < 0 || id >= len(devs) {
		return nil, fmt.Errorf("no device %s: %s has %d device(s)", name, platform, len(devs))
	}
	return devs[id], nil
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// backendOf returns the backend that owns dev.
func backendOf(dev Device) (Backend, error) {
	b := LookupBackend(dev.Platform())
	if b == nil {
		return nil, fmt.Errorf("no backend for device %s", dev)
	}
	return b, nil
}

// FromHost copies host data into a new buffer on dev (see Backend.FromHost).
func FromHost(dev Device, aval trace.AVal, data []byte) (Buffer, error) {
	b, err := backendOf(dev)
	if err != nil {
		return nil, err
	}
	if want := aval.Size() * aval.DType.Size(); len(data) != want {
		return nil, fmt.Errorf("jit.FromHost: %d bytes for %s, want %d", len(data), aval, want)
	}
	return b.FromHost(dev, aval, data)
}

// ToHost copies a buffer's elements to host memory (see Backend.ToHost).
func ToHost(buf Buffer) ([]byte, error) {
	b, err := backendOf(buf.Device())
	if err != nil {
		return nil, err
	}
	return b.ToHost(buf)
}
