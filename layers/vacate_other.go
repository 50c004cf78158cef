//go:build !((linux || darwin) && amd64)

package layers

import "errors"

// vacate declines here: a probe's check after its read (lease.go) relies
// on x86-64's order of loads, and the empty mapping on Linux or macOS. A retired
// file stays mapped until Close or ReleaseRetired.
func vacate(m []byte) error { return errors.ErrUnsupported }
