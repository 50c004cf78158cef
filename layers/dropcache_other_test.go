//go:build !linux

package layers

import "errors"

func dropCache(f *File) error { return errors.New("not supported on this system") }
