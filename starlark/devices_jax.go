package starlark

import (
	"go.starlark.net/starlark"
)

// JAX's device queries beside devices(): device_count, local_devices,
// local_device_count, default_backend and device_get. jaxsh is one process,
// so every device is local.
func deviceQueries() starlark.StringDict {
	b := func(name string, fn BuiltinFunc) *starlark.Builtin { return starlark.NewBuiltin(name, guard(name, fn)) }
	return starlark.StringDict{
		"device_count":       b("device_count", builtinDeviceCount),
		"local_device_count": b("local_device_count", builtinDeviceCount),
		"local_devices":      b("local_devices", builtinDevices),
		"default_backend":    b("default_backend", builtinDefaultBackend),
		"device_get":         b("device_get", builtinDeviceGet),
	}
}

// backendName is JAX's name of a platform: CUDA devices are "gpu".
func backendName(platform string) string {
	if platform == "cuda" {
		return "gpu"
	}
	return platform
}

// device_count(backend=None): the number of devices of the default
// platform, or of the one named.
func builtinDeviceCount(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var backend starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "backend?", &backend); err != nil {
		return nil, err
	}
	devs, err := builtinDevices(thread, b, starlark.Tuple{backend}, nil)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(devs.(*starlark.List).Len()), nil
}

// default_backend(): "cpu" or "gpu", the platform of the default device.
func builtinDefaultBackend(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 0); err != nil {
		return nil, err
	}
	d, err := DefaultDeviceOf(thread)
	if err != nil {
		return nil, err
	}
	return starlark.String(backendName(d.Platform())), nil
}

// device_get(x): x with every array's computation finished, its failure
// raised here. JAX returns NumPy arrays; jaxsh's arrays are already
// readable on the host, so the pytree comes back as it is.
func builtinDeviceGet(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	leaves, _, err := FlattenTree(b.Name(), x)
	if err != nil {
		return nil, err
	}
	for _, v := range leaves {
		if a, ok := v.(*Array); ok {
			if a.Traced() {
				return nil, concretizationError(a, "device_get")
			}
			if _, err := a.buffer(); err != nil {
				return nil, err
			}
		}
	}
	return x, nil
}
