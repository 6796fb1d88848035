package cuda

import (
	"context"
	"errors"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// An allocation is charged to the device's memory and to the host's
// budget together: refused by either, it leaves neither charged, and its
// release returns what both gave.
func TestDeviceChargesBothBudgets(t *testing.T) {
	device := jit.NewBudget(1<<20, "the memory of cuda:0 (test)")
	host := jit.NewBudget(1<<16, "the interpreter's array memory limit")
	small := trace.NewAVal(trace.Float32, 1<<12) // 16 KiB
	c, err := chargeDevice(device, host, 16<<10, small)
	if err != nil {
		t.Fatal(err)
	}
	if device.Used() != 16<<10 || host.Used() != 16<<10 {
		t.Fatalf("charged %d and %d bytes, want 16 KiB each", device.Used(), host.Used())
	}
	large := trace.NewAVal(trace.Float32, 1<<15) // 128 KiB: the host refuses
	var ae *jit.AllocError
	if _, err := chargeDevice(device, host, 128<<10, large); !errors.As(err, &ae) || ae.What != "the interpreter's array memory limit" {
		t.Fatalf("over the host's budget: %v", err)
	}
	if device.Used() != 16<<10 || host.Used() != 16<<10 {
		t.Fatalf("a refused charge left %d and %d bytes charged", device.Used(), host.Used())
	}
	huge := trace.NewAVal(trace.Float32, 1<<19) // 2 MiB: the device refuses
	want := "cannot allocate 2.0 MiB for an array of shape (524288,) and dtype float32: more than the memory of cuda:0 (test) (1.0 MiB, 16.0 KiB in use)"
	if _, err := chargeDevice(device, nil, 2<<20, huge); err == nil || err.Error() != want {
		t.Fatalf("over the device's memory: %v\nwant %s", err, want)
	}
	c.release()
	if device.Used() != 0 || host.Used() != 0 {
		t.Fatalf("released, %d and %d bytes still charged", device.Used(), host.Used())
	}
}

func TestCancelledHost(t *testing.T) {
	if err := cancelledHost(jit.NoHost); err != nil {
		t.Fatalf("a host without cancellation: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	host := jit.WithLimits(jit.NoHost, ctx, nil)
	if err := cancelledHost(host); err != nil {
		t.Fatalf("before its cancellation: %v", err)
	}
	cancel()
	if err := cancelledHost(host); !errors.Is(err, context.Canceled) {
		t.Fatalf("after its cancellation: %v", err)
	}
}

// On a GPU: an Execute whose host was cancelled queues nothing and fails
// with the cancellation; one whose results exceed the host's budget fails
// naming the array and leaves nothing charged; one that fits holds its
// results' bytes while they live.
func TestGPUExecuteCancellationAndBudget(t *testing.T) {
	dev := requireGPU(t)
	p := newPB(t)
	x := p.in(trace.Float32, 1<<18)
	j := p.build(p.op("sin", nil, p.op("mul", nil, x, x)))
	prog, err := jit.CompileWith(j, jit.OptionsFor(dev))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cuda").Compile(prog, dev)
	if err != nil {
		t.Fatal(err)
	}
	arg, err := jit.FromHost(dev, x.Aval(), rampF32(1<<18, 0.001))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := exe.Execute([]jit.Buffer{arg}, jit.WithLimits(jit.NoHost, ctx, nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	small := jit.NewBudget(512<<10, "the interpreter's array memory limit")
	var ae *jit.AllocError
	if _, err := exe.Execute([]jit.Buffer{arg}, jit.WithLimits(jit.NoHost, nil, small)); !errors.As(err, &ae) || ae.Bytes != 1<<20 {
		t.Fatalf("over the budget: %v", err)
	}
	if small.Used() != 0 {
		t.Fatalf("a refused Execute left %d bytes charged", small.Used())
	}
	enough := jit.NewBudget(4<<20, "the interpreter's array memory limit")
	out, err := exe.Execute([]jit.Buffer{arg}, jit.WithLimits(jit.NoHost, nil, enough))
	if err != nil {
		t.Fatal(err)
	}
	if enough.Used() != 1<<20 {
		t.Fatalf("%d bytes charged for a live 1 MiB result", enough.Used())
	}
	if _, err := jit.ToHost(out[0]); err != nil {
		t.Fatal(err)
	}
}
