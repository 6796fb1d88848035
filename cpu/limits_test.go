package cpu

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// endlessLoop is while True: x = x*0.5 + 1, which only a cancellation ends.
func endlessLoop(t *testing.T) jit.Executable {
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32, 4)
	cond := body(t, []trace.AVal{f32s(4)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		return []trace.Atom{ib.lit(true, trace.Bool)}
	})
	b := body(t, []trace.AVal{f32s(4)}, func(ib *jaxprBuilder, in []*trace.Var) []trace.Atom {
		return []trace.Atom{ib.bind("add", nil, ib.bind("mul", nil, in[0], f32Lit(ib, 0.5)), f32Lit(ib, 1))}
	})
	outs := jb.bindAll("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 0, "body_jaxpr": b, "body_nconsts": 0}, x)
	p, err := jit.CompileWith(jb.build(outs...), jit.OptionsFor(testDevice()))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// A compiled endless loop stops within milliseconds of its cancellation
// and fails with the cancellation's error.
func TestCancelStopsCompiledLoop(t *testing.T) {
	exe := endlessLoop(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	interrupt := errors.New("KeyboardInterrupt")
	host := jit.WithLimits(jit.NoHost, ctx, nil)
	var cancelledAt time.Time
	time.AfterFunc(20*time.Millisecond, func() { cancelledAt = time.Now(); cancel(interrupt) })
	done := make(chan error, 1)
	go func() {
		_, err := exe.Execute([]jit.Buffer{bufferOf(t, trace.Float32, []int{4}, 1.0, 2.0, 3.0, 4.0)}, host)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Execute = %v, want the cancellation", err)
		}
		if d := time.Since(cancelledAt); d > promptness {
			t.Fatalf("loop stopped %v after its cancellation", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the loop ignored its cancellation")
	}
}

// An Execute whose arrays exceed the host's budget fails before it
// allocates, naming the array; the budget is whole again afterwards, and
// results that fit stay charged only while they live.
func TestBudgetRefusesAndReleases(t *testing.T) {
	budget := jit.NewBudget(1<<20, "the test's limit")
	host := jit.WithLimits(jit.NoHost, nil, budget)
	bcast := func(n int) jit.Executable {
		jb := newJaxprBuilder(t)
		x := jb.input(trace.Float32)
		p, err := jit.CompileWith(jb.build(jb.broadcast(x, []int{n})), jit.OptionsFor(testDevice()))
		if err != nil {
			t.Fatal(err)
		}
		exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	one := []jit.Buffer{bufferOf(t, trace.Float32, nil, 1.0)}
	_, err := bcast(1<<20).Execute(one, host)
	var ae *jit.AllocError
	want := "cannot allocate 4.0 MiB for an array of shape (1048576,) and dtype float32: more than the test's limit (1.0 MiB)"
	if !errors.As(err, &ae) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if budget.Used() != 0 {
		t.Fatalf("a refused Execute left %d bytes charged", budget.Used())
	}
	out, err := bcast(160<<10).Execute(one, host) // 640 KiB: held while it lives
	if err != nil {
		t.Fatal(err)
	}
	if budget.Used() != 640<<10 {
		t.Fatalf("%d bytes charged for a live 640 KiB result", budget.Used())
	}
	if _, err := bcast(160<<10).Execute(one, host); err == nil || !strings.Contains(err.Error(), "640.0 KiB in use") {
		t.Fatalf("a second 640 KiB result with the first alive: %v, want refused", err)
	}
	runtime.KeepAlive(out)
	// Dropped, the first result is collected when the next charge would
	// fail, and its charge returns.
	if _, err := bcast(160<<10).Execute(one, host); err != nil {
		t.Fatalf("after the first result was dropped: %v", err)
	}
}

// The machine's memory is a budget too: an array larger than the machine
// is an error, not the Go runtime's fatal out-of-memory.
func TestMachineRefusesWhatItCannotHold(t *testing.T) {
	jb := newJaxprBuilder(t)
	x := jb.input(trace.Float32)
	p, err := jit.CompileWith(jb.build(jb.broadcast(x, []int{1 << 40})), jit.OptionsFor(testDevice()))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := jit.LookupBackend("cpu").Compile(p, testDevice())
	if err != nil {
		t.Fatal(err)
	}
	_, err = exe.Execute([]jit.Buffer{bufferOf(t, trace.Float32, nil, 1.0)}, jit.NoHost)
	if err == nil || !strings.Contains(err.Error(), "cannot allocate 4.0 TiB for an array of shape (1099511627776,) and dtype float32: more than this machine's memory") {
		t.Fatalf("got %v", err)
	}
}
