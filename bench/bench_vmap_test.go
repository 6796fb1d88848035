package bench_test

import (
	"bytes"
	"syscall"
	"testing"
	"time"

	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// vmap against the hand-written batched program (the acceptance
// numbers): a matrix-vector product mapped over 1,024 vectors against the
// matrix product, both jitted. Each reports its kernel count and the size
// of its jaxpr; compare the ns/op of the pairs.

const vmapSetup = `
A = jnp.arange(65536.0).reshape((256, 256)) * 1e-5
vs = jnp.arange(262144.0).reshape((1024, 256)) * 1e-5
matvec = lambda v: A @ v
mapped = jit(vmap(matvec))
by_hand = jit(lambda vs: vs @ A.T)
by_hand_dot = jit(lambda vs: lax.dot_general(vs, A, (((1,), (1,)), ((), ()))))
`

// benchEvalCPU is benchEval that also reports the process's CPU time per
// call (cpu-ns/op): on a machine shared with other work the wall time of
// a call says more about the machine than about the program.
func benchEvalCPU(b *testing.B, setup, call string) {
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", setup+"\ndef run():\n    return "+call+"\n")
	if err != nil {
		b.Fatal(FormatError(err))
	}
	run := globals["run"].(starlark.Callable)
	if _, err := starlark.Call(thread, run, nil, nil); err != nil { // warm the compile cache
		b.Fatal(FormatError(err))
	}
	b.ResetTimer()
	start := cpuTime()
	err = callTimes(session, thread, run, b.N)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportProgram adds the kernel count of the jitted fn(args) and the
// equation count of its jaxpr as metrics (after the timing: ResetTimer
// drops metrics).
func reportProgram(b *testing.B, setup, fn, args string) {
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", setup+`
kernels = `+fn+`.lower(`+args+`).compile().kernel_count
eqns = len(`+fn+`.lower(`+args+`).as_text().split("\n")) - 2
`)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	for _, m := range []string{"kernels", "eqns"} {
		n, _ := starlark.AsInt32(globals[m])
		b.ReportMetric(float64(n), m)
	}
}

func BenchmarkVmapMatvec1024(b *testing.B) {
	benchEvalCPU(b, vmapSetup, "mapped(vs)")
	reportProgram(b, vmapSetup, "mapped", "vs")
}

func BenchmarkHandWrittenMatmul1024(b *testing.B) {
	benchEvalCPU(b, vmapSetup, "by_hand(vs)")
	reportProgram(b, vmapSetup, "by_hand", "vs")
}

func BenchmarkHandWrittenDotGeneral1024(b *testing.B) {
	benchEvalCPU(b, vmapSetup, "by_hand_dot(vs)")
	reportProgram(b, vmapSetup, "by_hand_dot", "vs")
}

// The jaxpr of vmap(f) over 1,024 elements against f's own: the same
// number of equations, not 1,024 copies. The time is make_jaxpr's (trace
// and batch).
func BenchmarkVmapJaxprSize(b *testing.B) {
	setup := vmapSetup + "f = lambda v: jnp.tanh(A @ v) + v\n"
	benchEval(b, setup, "make_jaxpr(vmap(f))(vs)")
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", setup+`
single = make_jaxpr(f)(vs[0])
batched = make_jaxpr(vmap(f))(vs)
`)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	count := func(name string) float64 { return float64(len(globals[name].(*JaxprValue).J.Eqns)) }
	b.ReportMetric(count("single"), "eqns-single")
	b.ReportMetric(count("batched"), "eqns-vmap1024")
}

// Per-example gradients of a small MLP (vmap of grad) against the gradient
// of the batch loss: the same work but for the per-example outputs. The
// per-example weight gradient of the first layer is 256 outer products of
// 32- and 64-vectors, one dot_general with a batch dimension and nothing
// to contract, 2 MiB written per call where the batch gradient writes
// 8 KiB; most of the difference is writing that result (its storage is
// recycled from call to call, cpu/recycle.go; compare the cpu-ns/op of the
// pair).
const perExampleSetup = `
W1 = jnp.sin(jnp.arange(2048.0)).reshape((32, 64)) * 0.1
b1 = jnp.zeros(64)
W2 = jnp.cos(jnp.arange(64.0)).reshape((64, 1)) * 0.1
params = {"W1": W1, "b1": b1, "W2": W2}
X = jnp.sin(jnp.arange(8192.0)).reshape((256, 32))
Y = jnp.cos(jnp.arange(256.0)).reshape((256, 1))
def loss(p, x, y):
    h = jnp.tanh(x @ p["W1"] + p["b1"])
    return jnp.sum((h @ p["W2"] - y) ** 2)
per_example = jit(vmap(grad(loss), in_axes = (None, 0, 0)))
batch = jit(grad(loss))
`

func BenchmarkPerExampleGradsMLP(b *testing.B) {
	benchEvalCPU(b, perExampleSetup, `per_example(params, X, Y)["W1"]`)
	reportProgram(b, perExampleSetup, "per_example", "params, X, Y")
}

func BenchmarkBatchGradMLP(b *testing.B) {
	benchEvalCPU(b, perExampleSetup, `batch(params, X, Y)["W1"]`)
	reportProgram(b, perExampleSetup, "batch", "params, X, Y")
}

// BenchmarkPerExampleOverBatch runs the per-example and the batch gradient
// alternately, so that both see the same machine load, and reports the
// ratio of the process CPU time each took (the garbage collector's work
// for the per-example result included), and of wall times.
func BenchmarkPerExampleOverBatch(b *testing.B) {
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", perExampleSetup+`
def run_per_example():
    return per_example(params, X, Y)["W1"]

def run_batch():
    return batch(params, X, Y)["W1"]
`)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	timeOne := func(name string) (cpu, wall time.Duration, err error) {
		startCPU, start := cpuTime(), time.Now()
		v, err := starlark.Call(thread, globals[name].(starlark.Callable), nil, nil)
		if err != nil {
			return 0, 0, err
		}
		if _, err := v.(*Array).Buffer(); err != nil {
			return 0, 0, err
		}
		return cpuTime() - startCPU, time.Since(start), nil
	}
	var cpuPer, cpuBatch, wallPer, wallBatch time.Duration
	err = asEntry(session, thread, func() error {
		for _, name := range []string{"run_per_example", "run_batch"} { // compile both first
			if _, _, err := timeOne(name); err != nil {
				return err
			}
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			c, w, err := timeOne("run_per_example")
			if err != nil {
				return err
			}
			cpuPer, wallPer = cpuPer+c, wallPer+w
			if c, w, err = timeOne("run_batch"); err != nil {
				return err
			}
			cpuBatch, wallBatch = cpuBatch+c, wallBatch+w
		}
		return nil
	})
	if err != nil {
		b.Fatal(FormatError(err))
	}
	b.ReportMetric(float64(cpuPer)/float64(cpuBatch), "cpu-per-example/batch")
	b.ReportMetric(float64(wallPer)/float64(wallBatch), "wall-per-example/batch")
}
