// Command gencoeffs writes cpu/vmath's coeffs_gen.go; see package
// internal/coeffgen for what it derives and how.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/jaxsh/jaxsh/cpu/vmath/internal/coeffgen"
)

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	src, err := coeffgen.Generate()
	if err != nil {
		log.Fatal(err)
	}
	if *out == "" {
		os.Stdout.Write(src)
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
