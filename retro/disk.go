package retro

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"muehle/layers"
)

// ErrDiskFull is wrapped by Solve and SolveUnit when the disk cannot hold
// the next unit: they stop before computing it rather than run out of
// space half way through it.
var ErrDiskFull = errors.New("retro: not enough free disk")

// diskReserve is the free space a unit leaves at least, for the folder's
// small files and for the rest of the system.
const diskReserve = 256 << 20

// freeBytes is the free space of a folder's disk (layers.FreeBytes);
// tests replace it.
var freeBytes = layers.FreeBytes

// checkDisk returns an error wrapping ErrDiskFull when the disk of the
// database folder (or of the work folder, when that lies elsewhere)
// cannot hold what computing task t writes: its layer files, flat until
// verified, a compressed copy beside each while it is written
// (SolveOptions.Compress), and its work files (Cost.TempBytes). A system
// that cannot say how much is free is not refused.
func (s *solver) checkDisk(t Task) error {
	if !t.Compute {
		return nil
	}
	layerBytes := s.layerBytes(t)
	type need struct {
		dir   string
		bytes uint64
		what  string
	}
	needs := []need{{s.db.Dir(), layerBytes, "its layer files"}}
	if inside(s.tmp, s.db.Dir()) {
		needs[0].bytes += t.Cost.TempBytes
		needs[0].what = "its layer files and work files"
	} else {
		needs = append(needs, need{s.tmp, t.Cost.TempBytes, "its work files"})
	}
	for _, n := range needs {
		free, err := freeBytes(n.dir)
		if err != nil {
			continue
		}
		if free < n.bytes+diskReserve {
			return fmt.Errorf("%w: unit %s needs about %d MiB for %s in %s, and %d MiB are free there (%d MiB kept in reserve): free some space, or move the folder (muehlectl plan says what the rest needs)",
				ErrDiskFull, t.Unit.Name, n.bytes>>20, n.what, n.dir, free>>20, diskReserve>>20)
		}
	}
	return nil
}

// layerBytes returns the most disk the layer files of task t take while
// it is computed: flat until verified, with a compressed copy beside each
// while it is written (SolveOptions.Compress).
func (s *solver) layerBytes(t Task) uint64 {
	if !t.Compute {
		return 0
	}
	n := t.Cost.DiskBytes
	if s.opts.Compress {
		kept, _ := KeptCompressed(t.Cost.DiskBytes, 0, 0, 0)
		n += kept
	}
	return n
}

// flatRoom returns the disk a layer kept flat for its placement parent
// leaves free beside it (run.keepsFlat): room for the largest unit of the
// plan, or for task t, its layer files and work files.
func (s *solver) flatRoom(t Task) uint64 {
	room := s.layerBytes(t) + t.Cost.TempBytes
	for _, p := range s.plan {
		room = max(room, s.layerBytes(p)+p.Cost.TempBytes)
	}
	return room
}

// makeRoom compresses the verified layers of the folder that lie flat
// (those kept flat for their placement parents, and any a stop left
// flat), when the disk is short for the next unit: it returns whether it
// compressed any.
func (s *solver) makeRoom(ctx context.Context) (bool, error) {
	if !s.opts.Compress {
		return false, nil
	}
	flat := slices.DeleteFunc(Layers(s.db, s.opts), func(k layers.Key) bool { return s.db.Form(k) != 0 })
	return compressVerified(ctx, s.db, flat)
}

// inside reports whether path lies in dir or is dir.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
