//go:build !windows

package layers

import "os"

// ReplaceFile renames the file old to new, replacing new if it exists:
// os.Rename. Readers that have new open or mapped keep reading the old
// file. (On Windows it does more: rename_windows.go.)
func ReplaceFile(old, new string) error { return os.Rename(old, new) }

// removeFile removes the file at path: os.Remove. (On Windows it does
// more: rename_windows.go.)
func removeFile(path string) error { return os.Remove(path) }
