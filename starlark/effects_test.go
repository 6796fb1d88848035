package starlark_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	. "github.com/jaxsh/jaxsh/starlark"
)

// Two goroutines, each running its own thread of one session at the same
// time, each see their own ordered prints (from compiled code and from the
// host) in program order: tokens are per thread.
func TestEffectsPerThreadOrderConcurrently(t *testing.T) {
	var out bytes.Buffer
	s := newSession(&out, nil)
	const steps = 40
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			th := s.NewThread(fmt.Sprint("g", g))
			src := fmt.Sprintf(`
f = jit(lambda x, i: print("g%[1]d device", i, x.sum()))
for i in range(%[2]d):
    f(jnp.ones(100) * i, jnp.int32(i))
    if i %% 7 == 0:
        print("g%[1]d host", i)
`, g, steps)
			_, err := s.ExecFile(th, fmt.Sprint("g", g, ".star"), src)
			if cerr := s.CloseThread(th); err == nil {
				err = cerr
			}
			errs[g] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(FormatError(err))
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for g := 0; g < 2; g++ {
		var mine []string
		for _, l := range lines {
			if strings.HasPrefix(l, fmt.Sprint("g", g, " ")) {
				mine = append(mine, l)
			}
		}
		var want []string
		for i := 0; i < steps; i++ {
			want = append(want, fmt.Sprintf("g%d device %d %d.0", g, i, 100*i))
			if i%7 == 0 {
				want = append(want, fmt.Sprintf("g%d host %d", g, i))
			}
		}
		if got := strings.Join(mine, "\n"); got != strings.Join(want, "\n") {
			t.Errorf("thread g%d saw its prints out of order:\n%s", g, got)
		}
	}
}
