package cpu

import (
	"fmt"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// backend is the "cpu" platform. It has one logical device for now.
type backend struct {
	devices []*Device
}

func init() {
	jit.RegisterBackend(&backend{devices: []*Device{{id: 0}}})
}

func (b *backend) Platform() string { return "cpu" }

func (b *backend) Devices() []jit.Device {
	out := make([]jit.Device, len(b.devices))
	for i, d := range b.devices {
		out[i] = d
	}
	return out
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
	buf := newBuffer(dev, aval)
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
