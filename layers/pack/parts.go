package pack

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"muehle/layers"
)

// A package is one file, or a folder of parts: part-0001.mpk,
// part-0002.mpk, … whose bytes, one after another, are the package. The
// parts are cut at any byte; only the last may be shorter than the others.
const partPattern = "part-%04d.mpk"

// source is the bytes of a package, from one file or from its parts.
type source struct {
	files []*os.File
	names []string
	ends  []int64 // the offset after each part
}

// openSource opens the package at path: a file, or a folder of parts
// (named by the folder or by its first part, part-0001.mpk).
func openSource(path string) (*source, error) {
	if filepath.Base(path) == fmt.Sprintf(partPattern, 1) {
		path = filepath.Dir(path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	names := []string{path}
	if fi.IsDir() {
		ents, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		names = names[:0]
		for _, e := range ents {
			var n int
			if _, err := fmt.Sscanf(e.Name(), partPattern, &n); err == nil && e.Name() == fmt.Sprintf(partPattern, n) {
				names = append(names, filepath.Join(path, e.Name()))
			}
		}
		slices.Sort(names)
		if len(names) == 0 {
			return nil, fmt.Errorf("%w: the folder %s holds no part-0001.mpk", ErrNotPackage, path)
		}
		for i, n := range names {
			if want := fmt.Sprintf(partPattern, i+1); filepath.Base(n) != want {
				return nil, fmt.Errorf("%w: the folder %s lacks %s", ErrTruncated, path, want)
			}
		}
	}
	s := &source{}
	var end int64
	for _, n := range names {
		f, err := layers.OpenRegular(n) // a FIFO or a device is no part
		if errors.Is(err, layers.ErrFormat) {
			err = fmt.Errorf("%w: %w", ErrNotPackage, err)
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			s.Close()
			return nil, err
		}
		end += fi.Size()
		s.files, s.names, s.ends = append(s.files, f), append(s.names, n), append(s.ends, end)
	}
	return s, nil
}

// Size returns the package's size in bytes.
func (s *source) Size() int64 { return s.ends[len(s.ends)-1] }

// ReadAt reads from the parts as if they were one file.
func (s *source) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for len(p) > 0 {
		i, _ := slices.BinarySearch(s.ends, off+1)
		if i >= len(s.files) {
			return n, io.EOF
		}
		start := int64(0)
		if i > 0 {
			start = s.ends[i-1]
		}
		want := min(int64(len(p)), s.ends[i]-off)
		m, err := s.files[i].ReadAt(p[:want], off-start)
		n, off, p = n+m, off+int64(m), p[m:]
		if err != nil && !(errors.Is(err, io.EOF) && int64(m) == want) {
			return n, err
		}
	}
	return n, nil
}

// Close closes the parts.
func (s *source) Close() error {
	var errs []error
	for _, f := range s.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// sink writes a package to one file or to parts of at most partBytes,
// under temporary names; Finish renames them into place.
type sink struct {
	out       string // the package's path
	tmp       string // the file or folder being written
	partBytes int64  // 0: one file
	f         *os.File
	part      int
	inPart    int64
	n         int64
}

// newSink starts writing the package out (a folder of parts when
// partBytes > 0). out must not exist.
func newSink(out string, partBytes int64) (*sink, error) {
	if _, err := os.Lstat(out); err == nil {
		return nil, fmt.Errorf("%s exists already: remove it or name another", out)
	}
	s := &sink{out: out, tmp: out + ".tmp", partBytes: partBytes}
	os.RemoveAll(s.tmp) // left by an interrupted export
	if partBytes > 0 {
		if err := os.Mkdir(s.tmp, 0o755); err != nil {
			return nil, err
		}
		return s, s.nextPart()
	}
	f, err := os.Create(s.tmp)
	s.f = f
	return s, err
}

func (s *sink) nextPart() error {
	if s.f != nil {
		if err := s.closeFile(); err != nil {
			return err
		}
	}
	s.part++
	f, err := os.Create(filepath.Join(s.tmp, fmt.Sprintf(partPattern, s.part)))
	s.f, s.inPart = f, 0
	return err
}

func (s *sink) closeFile() error {
	err := s.f.Sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f = nil
	return err
}

// Write writes p, starting a new part where the current one is full.
func (s *sink) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		take := len(p)
		if s.partBytes > 0 {
			if s.inPart == s.partBytes {
				if err := s.nextPart(); err != nil {
					return n, err
				}
			}
			take = int(min(int64(take), s.partBytes-s.inPart))
		}
		m, err := s.f.Write(p[:take])
		n, s.n, s.inPart, p = n+m, s.n+int64(m), s.inPart+int64(m), p[m:]
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Finish syncs and closes the last file and renames the package into
// place.
func (s *sink) Finish() error {
	if err := s.closeFile(); err != nil {
		return err
	}
	if err := os.Rename(s.tmp, s.out); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(s.out)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes what was written.
func (s *sink) Abort() {
	if s.f != nil {
		s.f.Close()
	}
	os.RemoveAll(s.tmp)
}

// Parts returns the number of parts written (1 for a single file).
func (s *sink) Parts() int { return max(s.part, 1) }
