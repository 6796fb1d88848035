package bench_test

import (
	"bytes"
	"testing"
	"time"

	. "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Autodiff against the forward pass (the acceptance numbers): a
// 784-512-512-10 MLP on a batch of 128 (float32), jit(value_and_grad(loss))
// against jit(loss). Compare the ns/op of the pair (JAX on a CPU: 2-3x).

const mlpSetup = `
ks = random.split(random.key(0), 4)
params = [
    (random.normal(ks[0], (784, 512)) * 0.035, jnp.zeros(512)),
    (random.normal(ks[1], (512, 512)) * 0.044, jnp.zeros(512)),
    (random.normal(ks[2], (512, 10)) * 0.044, jnp.zeros(10)),
]
X = random.normal(ks[3], (128, 784))
Y = nn.one_hot(jnp.arange(128) % 10, 10)

def predict(params, x):
    for w, b in params[:-1]:
        x = nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b

def loss(params, x, y):
    return -jnp.mean(jnp.sum(y * nn.log_softmax(predict(params, x)), axis = -1))

forward = jit(loss)
step = jit(value_and_grad(loss))
`

func BenchmarkMLPForward(b *testing.B) {
	benchEval(b, mlpSetup, "forward(params, X, Y)")
	reportProgram(b, mlpSetup, "forward", "params, X, Y")
}

func BenchmarkMLPValueAndGrad(b *testing.B) {
	benchEval(b, mlpSetup, "step(params, X, Y)[0]")
	reportProgram(b, mlpSetup, "step", "params, X, Y")
}

// The temporaries of jit(grad(f)) for a 16-layer tanh MLP (batch 128,
// width 256), without checkpoint, with checkpoint around each layer, and
// around each block of 4 layers: checkpointing trades saved activations
// for recomputation. The metrics are temp_size_in_bytes from
// memory_analysis(); the time is one gradient. A tanh layer's only
// residual besides its input is 1 - y² of its output, which the fused
// backward kernel recomputes from the next layer's input, so checkpoint on
// each layer saves one activation of 17 (lib/transform/testdata/checkpoint_memory.star
// counts them); the same stack with sin, whose derivative needs the
// pre-activation, shows the halving a layer with its own residual gets.
const deepSetup = `
ks = random.split(random.key(1), 17)
ws = [random.normal(ks[i], (256, 256)) * 0.06 for i in range(16)]
x0 = random.normal(ks[16], (128, 256))

def layer(w, x):
    return jnp.tanh(x @ w)

def deep(ws, x, remat_layers):
    f = checkpoint(layer) if remat_layers else layer
    for w in ws:
        x = f(w, x)
    return jnp.sum(x)

def block(ws, x):
    for w in ws:
        x = layer(w, x)
    return x

def deep_blocks(ws, x):
    for i in range(0, 16, 4):
        x = checkpoint(block)(ws[i:i + 4], x)
    return jnp.sum(x)

plain = jit(grad(lambda ws, x: deep(ws, x, False)))
remat_each = jit(grad(lambda ws, x: deep(ws, x, True)))
remat_blocks = jit(grad(deep_blocks))

def sin_deep(ws, x, remat_layers):
    f = lambda w, x: jnp.sin(x @ w)
    f = checkpoint(f) if remat_layers else f
    for w in ws:
        x = f(w, x)
    return jnp.sum(x)

sin_plain = jit(grad(lambda ws, x: sin_deep(ws, x, False)))
sin_remat_each = jit(grad(lambda ws, x: sin_deep(ws, x, True)))
`

func BenchmarkDeepMLPGradTempSize(b *testing.B) {
	benchEval(b, deepSetup, "plain(ws, x0)[0]")
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", deepSetup+`
plain_temp = plain.lower(ws, x0).compile().memory_analysis().temp_size_in_bytes
remat_temp = remat_each.lower(ws, x0).compile().memory_analysis().temp_size_in_bytes
blocks_temp = remat_blocks.lower(ws, x0).compile().memory_analysis().temp_size_in_bytes
sin_plain_temp = sin_plain.lower(ws, x0).compile().memory_analysis().temp_size_in_bytes
sin_remat_temp = sin_remat_each.lower(ws, x0).compile().memory_analysis().temp_size_in_bytes
`)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	temp := func(m string) float64 {
		n, _ := starlark.AsInt32(globals[m])
		return float64(n)
	}
	for _, m := range []string{"plain_temp", "remat_temp", "blocks_temp", "sin_plain_temp", "sin_remat_temp"} {
		b.ReportMetric(temp(m), m+"-bytes")
	}
	b.ReportMetric(temp("remat_temp")/temp("plain_temp"), "remat/plain")
	b.ReportMetric(temp("blocks_temp")/temp("plain_temp"), "blocks/plain")
	b.ReportMetric(temp("sin_remat_temp")/temp("sin_plain_temp"), "sin-remat/plain")
}

func BenchmarkDeepMLPGradCheckpointed(b *testing.B) {
	benchEval(b, deepSetup, "remat_each(ws, x0)[0]")
}

func BenchmarkDeepMLPGradCheckpointedBlocks(b *testing.B) {
	benchEval(b, deepSetup, "remat_blocks(ws, x0)[0]")
}

// BenchmarkMLPGradOverForward runs the forward pass and value_and_grad
// alternately, so that both see the same machine load, and reports the
// ratio of their total times (and of their fastest runs).
func BenchmarkMLPGradOverForward(b *testing.B) {
	session := newSession(&bytes.Buffer{}, nil)
	thread := session.NewThread("bench")
	globals, err := session.ExecFile(thread, "bench.star", mlpSetup+`
def run_forward():
    return forward(params, X, Y)

def run_step():
    return step(params, X, Y)[0]
`)
	if err != nil {
		b.Fatal(FormatError(err))
	}
	timeOne := func(name string) (time.Duration, error) {
		start := time.Now()
		v, err := starlark.Call(thread, globals[name].(starlark.Callable), nil, nil)
		if err != nil {
			return 0, err
		}
		if _, err := v.(*Array).Buffer(); err != nil {
			return 0, err
		}
		return time.Since(start), nil
	}
	var fwd, vg, minFwd, minVG time.Duration
	err = asEntry(session, thread, func() error {
		for _, name := range []string{"run_forward", "run_step"} { // compile both first
			if _, err := timeOne(name); err != nil {
				return err
			}
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			f, err := timeOne("run_forward")
			if err != nil {
				return err
			}
			g, err := timeOne("run_step")
			if err != nil {
				return err
			}
			fwd, vg = fwd+f, vg+g
			if i == 0 || f < minFwd {
				minFwd = f
			}
			if i == 0 || g < minVG {
				minVG = g
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(FormatError(err))
	}
	b.ReportMetric(float64(vg)/float64(fwd), "grad/fwd")
	b.ReportMetric(float64(minVG)/float64(minFwd), "min-grad/min-fwd")
	b.ReportMetric(float64(minFwd.Microseconds()), "min-fwd-µs")
	b.ReportMetric(float64(minVG.Microseconds()), "min-grad-µs")
}
