package layers

import (
	"fmt"
	"io"
	"os"
)

// Every file of a database folder is opened through the functions below.
// A FIFO, a device, a socket or a directory named like a layer, a block
// file, a verification record or a claim would make a plain open or read
// wait forever (a FIFO without a writer, deaf to signals) or read without
// end (/dev/zero). So a file is opened without blocking (on Unix
// O_NONBLOCK, which a regular file ignores: regular_unix.go) and used only
// when fstat says it is regular; anything else gives an error wrapping
// ErrFormat, which readers of layers treat as damage. On Windows, where a
// folder holds no FIFOs, a file is opened so that other processes may
// still rename and remove it (regular_windows.go): a reader never keeps a
// writer from replacing a file (ReplaceFile).

// OpenRegular opens the file at path for reading when it is a regular file.
func OpenRegular(path string) (*os.File, error) {
	return openRegular(path, os.O_RDONLY, 0)
}

// CreateRegular creates or truncates the file at path for writing, as
// os.Create does, refusing anything that is not a regular file.
func CreateRegular(path string) (*os.File, error) {
	return openRegular(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
}

// openRegular opens path with flag and perm (sysOpen) and returns it when
// it is a regular file.
func openRegular(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := sysOpen(path, flag, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: not a regular file (%v)", ErrFormat, fi.Mode().Type())}
	}
	return f, nil
}

// ReadRegular reads the regular file at path, at most limit bytes: a
// longer file gives an error wrapping ErrFormat.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", path, ErrFormat, limit)
	}
	return b, nil
}

// WriteRegular is os.WriteFile for a regular file only (CreateRegular).
func WriteRegular(path string, data []byte) error {
	f, err := CreateRegular(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// OpenAppendRegular opens the regular file at path for appending, creating
// it when needed.
func OpenAppendRegular(path string) (*os.File, error) {
	return openRegular(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
}
