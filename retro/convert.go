package retro

import (
	"context"
	"errors"
	"fmt"
	"os"

	"muehle/layers"
)

// ConvertOld rewrites the layer files of db of the format before (the A
// rank major: layers.OldVersion) in this format, with the same values
// (layers.DB.ConvertOld). The placement layers of a folder of the
// reachable sweep (some of them leave unreachable classes Unused) become
// dense, all of them, so that each holds its reachable slots and the
// reach files can go; a folder of the full sweep keeps one byte per slot.
// Each layer is converted under its unit's claim, so that no solver
// writes it meanwhile; a layer whose claim another process holds is
// skipped and named in note. It is safe to interrupt: each layer is
// replaced whole or not at all, and running it again converts the rest.
// When every placement layer is then dense and verified, the reach files
// are removed (RemoveReach). each, when not nil, is called before each
// layer to convert, with its number and the count.
func ConvertOld(ctx context.Context, db *layers.DB, each func(k layers.Key, i, n int), note func(string)) (converted int, err error) {
	todo := db.OldLayers()
	dense := reachableFolder(db)
	for i, k := range todo {
		if err := ctx.Err(); err != nil {
			return converted, err
		}
		if each != nil {
			each(k, i, len(todo))
		}
		claim, err := db.Claim(ctx, string(NameOf(k)), false)
		if errors.Is(err, layers.ErrLocked) {
			if note != nil {
				note(fmt.Sprintf("%s: skipped, another process is working on it", k))
			}
			continue
		}
		if err != nil {
			return converted, err
		}
		ok, err := db.ConvertOld(k, dense && !k.IsMoving())
		claim.Release()
		if err != nil {
			return converted, err
		}
		if ok {
			converted++
		}
	}
	if _, err := RemoveReach(db); err != nil {
		return converted, err
	}
	return converted, nil
}

// reachableFolder reports whether db's placement layers are of the
// reachable sweep: some layer is dense, or some layer of the format
// before leaves classes Unused.
func reachableFolder(db *layers.DB) bool {
	for _, k := range layers.PlacementLayers(db.Stones()) {
		if h, err := db.Header(k); err == nil && h.Dense() {
			return true
		}
		if h, err := db.OldHeader(k); err == nil && h.Won+h.Lost+h.Drawn < db.Indexer().Layer(k).Classes() {
			return true
		}
	}
	return false
}

// RemoveReach removes the reach files of db's placement layers once they
// are not needed: when every placement layer is dense (it holds its
// reachable slots itself) and verified. It returns how many it removed.
func RemoveReach(db *layers.DB) (int, error) {
	ks := layers.PlacementLayers(db.Stones())
	for _, k := range ks {
		h, err := db.Header(k)
		if err != nil || !h.Dense() || !db.Verified(k) {
			return 0, nil
		}
	}
	n := 0
	for _, k := range ks {
		err := os.Remove(db.ReachPath(k))
		switch {
		case err == nil:
			n++
		case !errors.Is(err, os.ErrNotExist):
			return n, fmt.Errorf("retro: removing the reach files: %w", err)
		}
	}
	return n, nil
}

// errOldLayers is the error of a solve in a folder that holds layers of
// the format before.
func errOldLayers(db *layers.DB) error {
	old := db.OldLayers()
	if len(old) == 0 {
		return nil
	}
	return fmt.Errorf("retro: %s holds %d layers of the format before (%s first): `muehlectl convert` rewrites them in format %d, keeping their values; solving would compute them again: %w",
		db.GameDir(), len(old), old[0], layers.FileVersion, layers.ErrOldFormat)
}
