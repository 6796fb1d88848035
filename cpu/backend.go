package cpu

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// The cpu platform has N logical devices, cpu:0 … cpu:N-1, all sharing the
// one worker pool. N is fixed for the life of the process when the devices
// are first used (the first Devices call, usually through jit.LookupDevice),
// because arrays hold on to their device: a count that could change later
// would strand them. N comes from, in order:
//
//  1. Configure(n) with n > 0, called before first use (the jaxsh command's
//     --cpu-devices flag and the embedding API's Options.CPUDevices);
//  2. the environment variable JAXSH_CPU_DEVICES;
//  3. 1.
//
// JAX fixes its CPU device count the same way (jax_num_cpu_devices must be
// set before the backends start).

// DevicesEnv is the environment variable that sets the number of logical
// CPU devices when Configure did not.
const DevicesEnv = "JAXSH_CPU_DEVICES"

// MaxDevices bounds the number of logical CPU devices: each is cheap, but a
// count in the thousands is a typo, not a plan.
const MaxDevices = 1024

// backend is the "cpu" platform.
type backend struct {
	mu      sync.Mutex
	devices []jit.Device // created on first use, then fixed; each a *Device
}

var cpuBackend = &backend{}

func init() { jit.RegisterBackend(cpuBackend) }

// ParseDeviceCount reads a number of logical CPU devices as the flag and the
// environment variable give it: a decimal integer from 1 to MaxDevices.
func ParseDeviceCount(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > MaxDevices {
		return 0, fmt.Errorf("bad number of CPU devices %q: want an integer from 1 to %d", s, MaxDevices)
	}
	return n, nil
}

// envDeviceCount is the count JAXSH_CPU_DEVICES asks for, 0 when it is
// unset or empty.
func envDeviceCount() (int, error) {
	s := os.Getenv(DevicesEnv)
	if s == "" {
		return 0, nil
	}
	n, err := ParseDeviceCount(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", DevicesEnv, err)
	}
	return n, nil
}

// Configure asks for n logical CPU devices. n == 0 asks for the default:
// JAXSH_CPU_DEVICES if set (an invalid value is this call's error), else 1.
// Before first use, n > 0 creates the devices; after it, asking for a count
// other than the one in use is an error. n == 0 never conflicts: an
// interpreter with no preference runs on the devices there are.
func Configure(n int) error {
	if n < 0 || n > MaxDevices {
		return fmt.Errorf("bad number of CPU devices %d: want an integer from 1 to %d", n, MaxDevices)
	}
	if n == 0 {
		_, err := envDeviceCount()
		return err
	}
	b := cpuBackend
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.devices == nil {
		b.create(n)
		return nil
	}
	if len(b.devices) != n {
		return fmt.Errorf("cannot use %d CPU devices: this process already runs on %d, a number fixed when they were first used", n, len(b.devices))
	}
	return nil
}

func (b *backend) Platform() string { return "cpu" }

// Devices creates the devices on first use (see the package comment for
// where their number comes from). An invalid JAXSH_CPU_DEVICES gives one
// device here, where no error can be returned; Configure(0), which the
// interpreter runs before any script, reports it.
func (b *backend) Devices() []jit.Device {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.devices == nil {
		n, _ := envDeviceCount()
		b.create(max(n, 1))
	}
	return append([]jit.Device(nil), b.devices...)
}

// create makes n devices; b.mu is held.
func (b *backend) create(n int) {
	b.devices = make([]jit.Device, n)
	for i := range b.devices {
		b.devices[i] = newDevice(i)
	}
}

func (b *backend) device(d jit.Device) (*Device, error) {
	cd, ok := d.(*Device)
	if !ok {
		return nil, fmt.Errorf("cpu: %s is not a CPU device", d)
	}
	return cd, nil
}

func (b *backend) FromHost(d jit.Device, aval trace.AVal, data []byte) (jit.Buffer, error) {
	dev, err := b.device(d)
	if err != nil {
		return nil, err
	}
	// The data is in memory already, so the machine can hold it once more
	// unless it is nearly full: check, not charge, so host arrays (which
	// the garbage collector frees unseen) leave no charge behind.
	if err := jit.ChargeFreeing(jit.Machine, int64(len(data)), aval); err != nil {
		return nil, err
	}
	jit.Machine.Release(int64(len(data)))
	buf, _, _ := newResultBuffer(dev, aval) // one allocation for a small array
	copy(buf.data, data)
	return buf, nil
}

func (b *backend) ToHost(jb jit.Buffer) ([]byte, error) {
	buf, ok := jb.(*Buffer)
	if !ok {
		return nil, fmt.Errorf("cpu: %T is not a CPU buffer", jb)
	}
	return append([]byte(nil), buf.data...), nil
}
