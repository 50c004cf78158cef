//go:build long

package layers

// longBuild is set by the build tag "long" (go test -tags long, make
// test-long): it turns on the checks that take minutes.
const longBuild = true
