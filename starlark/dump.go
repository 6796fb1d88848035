package starlark

import (
	"os"
	"strings"
)

// dumpEnabled reports whether the JAXSH_DUMP environment variable (a
// comma-separated list of stages, or "all") asks for stage to be written to
// stderr. Stages: syntax (the desugared tree of every file), ir (the jaxpr
// of every function jit compiles), passes (the IR after each compiler
// pass) and kernels (the final kernel program).
func dumpEnabled(stage string) bool {
	for _, s := range strings.Split(os.Getenv("JAXSH_DUMP"), ",") {
		if s = strings.TrimSpace(s); s == stage || s == "all" {
			return true
		}
	}
	return false
}
