// Command gengemm writes cpu's dot_gemm_amd64.s; see package
// internal/gemmgen for the kernels it holds and why.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/jaxsh/jaxsh/cpu/internal/gemmgen"
)

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	src := gemmgen.Generate()
	if *out == "" {
		os.Stdout.Write(src)
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
