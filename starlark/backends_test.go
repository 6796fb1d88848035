package starlark_test

// The starlark package never imports a backend (DESIGN: backends register
// with jit); its tests run arrays on the CPU one.
import _ "github.com/jaxsh/jaxsh/cpu"
