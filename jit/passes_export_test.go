package jit

import (
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// StudyJaxprs builds the study's examples that fit in a test's memory, for
// the end-to-end tests in package jit_test, which run them on the CPU
// backend.
func StudyJaxprs(t *testing.T) map[string]*trace.Jaxpr {
	out := map[string]*trace.Jaxpr{}
	for _, sc := range studyCases {
		if strings.Contains(sc.name, "x of 128 MiB") || strings.HasPrefix(sc.name, "f_numpy") {
			continue
		}
		out[sc.name] = sc.build(t, newJB(t))
	}
	return out
}
