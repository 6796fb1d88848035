package starlark

import (
	"fmt"
	"sync/atomic"

	"github.com/jaxsh/jaxsh/jit"
	"go.starlark.net/starlark"
)

// Devices (SPEC §6). Each Session has a default device, where arrays made
// from host values (jnp.array, jnp.zeros, Python numbers meeting nothing
// but numbers) are created and where computations with no array operands
// run. It is the platform's default — cuda:0 where a CUDA device is found,
// else cpu:0 — unless the session chose another (SetDefaultDevice, the
// jaxsh command's --device). Code reaches the setting through the thread
// running on its goroutine, as Truth does (truth.go), since most array
// functions have no thread of their own.
//
// Arrays do not move by themselves: an operation whose array operands are
// on different devices is an error naming both, as for arrays JAX calls
// "committed". device_put moves them; jit(f, device=d) moves its array
// arguments to d (jaxsh does not track JAX's distinction between committed
// and uncommitted arrays, so an argument that JAX would refuse because
// device_put placed it elsewhere is copied instead).

const defaultDeviceKey = "jaxsh.defaultDevice"

// sessionChoseDevice is set once a session has chosen a default device
// other than the platform's. Until then defaultDevice need not look for the
// running thread (which parses the goroutine's stack header).
var sessionChoseDevice atomic.Bool

// platformDevice caches PlatformDefaultDevice: backends register from init
// functions and a platform's devices are fixed at first use, so the answer
// never changes once found.
var platformDevice atomic.Pointer[jit.Device]

// PlatformDefaultDevice is the default device of a session that chose
// none: cuda:0 where a CUDA device is found, else cpu:0.
func PlatformDefaultDevice() (jit.Device, error) {
	if d := platformDevice.Load(); d != nil {
		return *d, nil
	}
	var d jit.Device
	if cuda := jit.Devices("cuda"); len(cuda) > 0 {
		d = cuda[0]
	} else {
		var err error
		if d, err = jit.LookupDevice("cpu:0"); err != nil {
			return nil, err
		}
	}
	platformDevice.Store(&d)
	return d, nil
}

// DefaultDevice is the default device of the thread running on this
// goroutine: where arrays made from host values live.
func DefaultDevice() (jit.Device, error) {
	if sessionChoseDevice.Load() {
		if th, ok := runningThreads.Load(goroutineID()); ok {
			return DefaultDeviceOf(th.(*starlark.Thread))
		}
	}
	return PlatformDefaultDevice()
}

// DefaultDeviceOf is the default device of thread's session.
func DefaultDeviceOf(thread *starlark.Thread) (jit.Device, error) {
	if thread != nil {
		if d, ok := thread.Local(defaultDeviceKey).(jit.Device); ok {
			return d, nil
		}
	}
	return PlatformDefaultDevice()
}

// SetDefaultDevice makes the device named name ("cpu", "cpu:1", "cuda",
// "cuda:0"; a bare platform is its device 0) the default device of the
// session's threads; "" keeps the platform's default. Call it before
// NewThread: threads take the setting when they are made.
func (s *Session) SetDefaultDevice(name string) error {
	if name == "" {
		s.defaultDevice = nil
		return nil
	}
	d, err := jit.LookupDevice(name)
	if err != nil {
		return err
	}
	platform, err := PlatformDefaultDevice()
	if err != nil {
		return err
	}
	if d != platform {
		sessionChoseDevice.Store(true)
	}
	s.defaultDevice = d
	return nil
}

// setThreadDevice gives a new thread its session's default device.
func (s *Session) setThreadDevice(th *starlark.Thread) {
	if s.defaultDevice != nil {
		th.SetLocal(defaultDeviceKey, s.defaultDevice)
	}
}

// deviceArg reads a device argument: a Device, a device name such as
// "cpu:1", or None (ok is false).
func deviceArg(fn string, v starlark.Value) (d jit.Device, ok bool, err error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return nil, false, nil
	case Device:
		return x.D, true, nil
	case starlark.String:
		d, err := jit.LookupDevice(string(x))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", fn, err)
		}
		return d, true, nil
	}
	return nil, false, fmt.Errorf("%s: device must be a Device, a device name such as \"cpu:0\", or None, got %s", fn, v.Type())
}

// devices(platform=None) lists the devices of a platform ("cpu", "cuda";
// "gpu" is cuda, as in JAX), ordered by id. With no platform it lists those
// of the default device's platform, as jax.devices() lists the default
// backend's.
func builtinDevices(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var platform starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "platform?", &platform); err != nil {
		return nil, err
	}
	var name string
	switch p := platform.(type) {
	case starlark.NoneType:
		d, err := DefaultDeviceOf(thread)
		if err != nil {
			return nil, err
		}
		name = d.Platform()
	case starlark.String:
		name = string(p)
		if name == "gpu" {
			name = "cuda"
		}
	default:
		return nil, fmt.Errorf("devices: platform must be a string such as \"cpu\" or None, got %s", platform.Type())
	}
	devs := jit.Devices(name)
	if len(devs) == 0 {
		if why := jit.Unavailable(name); why != "" {
			return nil, fmt.Errorf("devices: no %s devices available: %s", name, why)
		}
		return nil, fmt.Errorf("devices: no %s devices available", name)
	}
	out := make([]starlark.Value, len(devs))
	for i, d := range devs {
		out[i] = Device{d}
	}
	return starlark.NewList(out), nil
}

// device_put(x, device=None) copies the arrays of the pytree x to device
// (the session's default device when None) and returns the same structure.
// Arrays already there are returned as they are, as in JAX; Python numbers
// become weakly typed arrays there (jax.device_put(1.0) is a weak float32).
// Inside a trace the whole computation runs on one device, so traced
// values pass through unchanged.
func builtinDevicePut(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, device starlark.Value = nil, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "device?", &device); err != nil {
		return nil, err
	}
	dev, ok, err := deviceArg("device_put", device)
	if err != nil {
		return nil, err
	}
	if !ok {
		if dev, err = DefaultDeviceOf(thread); err != nil {
			return nil, err
		}
	}
	leaves, tree, err := FlattenTree("device_put", x)
	if err != nil {
		return nil, err
	}
	for i, l := range leaves {
		switch v := l.(type) {
		case *Array:
			if v.Traced() {
				continue
			}
			if leaves[i], err = moveArray(v, dev); err != nil {
				return nil, fmt.Errorf("device_put: %v", err)
			}
		case starlark.Int, starlark.Float, starlark.Bool:
			t, _ := ScalarType(v)
			if leaves[i], err = ArrayFromValue("device_put", v, t, dev); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("device_put: leaf %d of type %s is not an array or a number", i, l.Type())
		}
	}
	return tree.Unflatten(leaves)
}

// moveArray returns a concrete array on dev: a itself when it is there
// already, else a copy (shape, dtype and weak type kept).
func moveArray(a *Array, dev jit.Device) (*Array, error) {
	if a.Device() == dev {
		return a, nil
	}
	src, err := a.buffer()
	if err != nil {
		return nil, err
	}
	buf, err := jit.MoveBuffer(src, dev)
	if err != nil {
		return nil, err
	}
	return &Array{aval: a.aval, buf: buf}, nil
}
