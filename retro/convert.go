package retro

import (
	"context"
	"errors"
	"fmt"
	"os"

	"muehle/layers"
)

// ConvertDense rewrites the placement layers of db that the reachable
// sweep wrote before the dense files, one byte per slot with the
// unreachable classes Unused, as dense files with the same values
// (layers.DB.ConvertDense): when some placement layer has such holes,
// every placement layer of one byte per slot is converted (those whose
// classes are all reachable too, so that each holds its reachable slots
// and the reach files can go). A folder of the full sweep (no holes) is
// left as it is (a folder that has dense layers is not: a conversion
// interrupted after its layers with holes goes on with the rest). Each
// layer is converted under its unit's claim, so that no solver writes the layer meanwhile. A
// layer whose claim another process holds is skipped and named in note.
// It is safe to interrupt: each layer is replaced whole or not at all,
// and running it again converts the rest. When every placement layer is
// then dense and verified, the reach files are removed (RemoveReach).
// each, when not nil, is called before each layer to convert, with its
// number and the count.
func ConvertDense(ctx context.Context, db *layers.DB, each func(k layers.Key, i, n int), note func(string)) (converted int, err error) {
	var todo []layers.Key
	reachable := false // the folder is of the reachable sweep
	for _, k := range layers.PlacementLayers(db.Stones()) {
		switch h, err := db.Header(k); {
		case err != nil:
		case h.Dense():
			reachable = true
		default:
			todo = append(todo, k)
			reachable = reachable || db.Sparse(k)
		}
	}
	if !reachable {
		todo = nil
	}
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
		ok, err := db.ConvertDense(k)
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
