package layers

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/windows"
)

// On Windows a file cannot be replaced by a rename, nor removed, while a
// program has it mapped: a layer that a DB has open, in this process (a
// DB keeps a replaced layer mapped until Close, for readers that still
// hold it) or in another one (the desktop program playing while muehlectl
// solves or imports into its folder). Nor while a handle that does not
// share deletion is open on it: a reader that is not this package
// (sysOpen shares it), for the moment it reads. Such a file can still be
// renamed, though, once no handle on it refuses deletion: so ReplaceFile
// and removeFile move it aside, to NAME.<random>.replaced in its folder,
// and put the new file in its place or remove the one aside. A file aside
// that is still mapped stays until its last mapping ends; every later
// ReplaceFile and removeFile in that folder removes those it can. While
// a file is aside, a reader that opens its name finds none: a layer that
// counts as missing for a moment (a DB looks again after missingRecheck).
// A handle that refuses deletion is waited for, up to replaceWait.

// replaceWait is how long ReplaceFile and removeFile retry while another
// program holds the file open without sharing its deletion.
const replaceWait = 2 * time.Second

// asideSuffix ends the name of a file moved aside (folder.go).
const asideSuffix = ".replaced"

// ReplaceFile renames the file old to new, replacing new if it exists,
// also when another process has new open or mapped: new is moved aside
// first. Readers that have new open or mapped keep reading the old file.
func ReplaceFile(old, new string) error {
	err := retryInUse(func() error {
		err := os.Rename(old, new)
		if err == nil || !inUse(err) {
			return err
		}
		if fi, serr := os.Lstat(new); serr == nil && !fi.Mode().IsRegular() {
			return err // a folder (or a link) is not moved aside
		}
		aside, aerr := moveAside(new)
		if aerr != nil {
			if errors.Is(aerr, os.ErrNotExist) {
				return os.Rename(old, new) // gone meanwhile
			}
			return err
		}
		if err := os.Rename(old, new); err != nil {
			os.Rename(aside, new) // put back: new is unchanged
			return err
		}
		os.Remove(aside)
		return nil
	})
	sweepAside(filepath.Dir(new))
	return err
}

// removeFile removes the file at path, also when another process has it
// open or mapped: it is moved aside and removed there (where a mapped one
// stays until unmapped). A missing file gives an error wrapping
// os.ErrNotExist, as os.Remove does.
func removeFile(path string) error {
	err := retryInUse(func() error {
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return os.Remove(path) // a folder (or a link) is not moved aside
		}
		aside, err := moveAside(path)
		if err != nil {
			return err
		}
		os.Remove(aside)
		return nil
	})
	sweepAside(filepath.Dir(path))
	return err
}

// retryInUse calls f until it returns nil or an error other than inUse,
// or replaceWait has passed; the last error says what holds the file.
func retryInUse(f func() error) error {
	deadline := time.Now().Add(replaceWait)
	wait := 5 * time.Millisecond
	for {
		err := f()
		if err == nil || !inUse(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w (another program holds the file open, and Windows keeps a file that is open from being replaced or removed)", err)
		}
		time.Sleep(wait)
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// inUse reports whether err says that a file is open or mapped elsewhere.
func inUse(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_USER_MAPPED_FILE)
}

// moveAside renames the file at path to a new name NAME.<random>.replaced
// in its folder and returns that name.
func moveAside(path string) (string, error) {
	var r [6]byte
	rand.Read(r[:])
	aside := path + "." + hex.EncodeToString(r[:]) + asideSuffix
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	return aside, nil
}

// sweepAside removes the files moved aside in dir that are no longer
// mapped or open; the others stay for a later sweep.
func sweepAside(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), asideSuffix) && !e.IsDir() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
