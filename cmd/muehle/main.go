// Command muehle is the desktop program: play Nine Men's Morris against a
// person, a random, an alpha-beta or a perfect computer opponent.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "muehle: the desktop program is being built; use bin/muehlectl for now")
	os.Exit(1)
}
