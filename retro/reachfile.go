package retro

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"muehle/layers"
)

// The reachable slots of each placement layer are kept in a file beside
// the layer, p5+2-4+2.reach for p5+2-4+2.layer, written when its ply is
// complete, so that an interrupted run resumes at the first ply not
// written. Its format is layers' (layers/reach.go).

// reachClaim is the claim (DB.Claim) of the forward pass, so that solvers
// sharing a folder compute it once.
const reachClaim = "reach"

// reachPath returns the file of the reachable slots of placement layer k
// (layers.DB.ReachPath).
func reachPath(db *layers.DB, k layers.Key) string { return db.ReachPath(k) }

// writeReach writes the bits b of layer k (layers.WriteAtomic), so that
// the file is absent or complete.
func writeReach(db *layers.DB, k layers.Key, b ReachBits) error {
	path := reachPath(db, k)
	buf := make([]byte, layers.ReachHeaderSize+8*len(b))
	for i, w := range b {
		binary.LittleEndian.PutUint64(buf[layers.ReachHeaderSize+8*i:], w)
	}
	layers.PutReachHeader(buf, db.Stones(), k, db.Indexer().Layer(k).Size())
	return layers.WriteAtomic(path, buf)
}

// reachStored reports whether the reach file of layer k is present with a
// sound header and size (its checksum is checked when it is read).
func reachStored(db *layers.DB, k layers.Key) bool {
	path := reachPath(db, k)
	f, err := layers.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	h := make([]byte, layers.ReachHeaderSize)
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	if _, err := f.ReadAt(h, 0); err != nil {
		return false
	}
	return layers.CheckReachHeader(h, fi.Size(), db.Stones(), k, db.Indexer().Layer(k).Size()) == nil
}

// readReach reads the reachable slots of layer k from its file. A file
// that is damaged or not of the layer gives an error wrapping
// layers.ErrReachFile; a missing one an error wrapping os.ErrNotExist.
func readReach(db *layers.DB, k layers.Key) (ReachBits, error) {
	path := reachPath(db, k)
	slots := db.Indexer().Layer(k).Size()
	buf, err := layers.ReadRegular(path, int64(layers.ReachFileBytes(slots)))
	if err != nil {
		return nil, fmt.Errorf("retro: %w", err)
	}
	if err := layers.CheckReach(buf, db.Stones(), k, slots); err != nil {
		return nil, fmt.Errorf("retro: %s: %w", path, err)
	}
	words := buf[layers.ReachHeaderSize:]
	b := make(ReachBits, len(words)/8)
	for i := range b {
		b[i] = binary.LittleEndian.Uint64(words[8*i:])
	}
	return b, nil
}

// denseBits returns the reachable slots of placement layer k from its
// dense layer file, which holds them once the layer is computed (the
// reach file may be gone then); ok is false when there is no sound dense
// file.
func denseBits(db *layers.DB, k layers.Key) (b ReachBits, ok bool) {
	if h, err := db.Header(k); err != nil || !h.Dense() {
		return nil, false
	}
	bits, ok, err := db.DenseBits(k)
	if err != nil || !ok {
		return nil, false
	}
	return bits, true
}

// reachKnown reports whether the reachable slots of layer k are at hand:
// in its reach file, or in its dense layer file.
func reachKnown(db *layers.DB, k layers.Key) bool {
	if reachStored(db, k) {
		return true
	}
	h, err := db.Header(k)
	return err == nil && h.Dense()
}

// knownReach returns the reachable slots of layer k from its reach file,
// or else from its dense layer file.
func knownReach(db *layers.DB, k layers.Key) (ReachBits, error) {
	b, err := readReach(db, k)
	if err != nil && errors.Is(err, os.ErrNotExist) {
		if d, ok := denseBits(db, k); ok {
			return d, nil
		}
	}
	return b, err
}

// firstReachMissing returns the first ply of the game whose reachable
// slots are not all at hand (reachKnown), 2·stones when all are.
func firstReachMissing(db *layers.DB) int {
	stones := db.Stones()
	for ply := range 2 * stones {
		for _, k := range PlyLayers(stones, ply) {
			if !reachKnown(db, k) {
				return ply
			}
		}
	}
	return 2 * stones
}

// passWatch is told what ensureReach does, either hook may be nil: wait
// when another solver holds the pass's claim (its error names the
// holder), and start when this one computes.
type passWatch struct {
	wait  func(held error)
	start func()
}

// ensureReach makes sure the reach file of every placement layer of db is
// present: it computes the plies from the first one missing onwards, from
// the files of the ply before, under the claim reachClaim (waiting for
// another solver that holds it). done counts the slots gone through.
func ensureReach(ctx context.Context, db *layers.DB, workers int, done *atomic.Uint64, watch passWatch) error {
	if firstReachMissing(db) == 2*db.Stones() {
		return nil
	}
	claim, err := db.Claim(ctx, reachClaim, false)
	if errors.Is(err, layers.ErrLocked) {
		if watch.wait != nil {
			watch.wait(err)
		}
		claim, err = db.Claim(ctx, reachClaim, true)
	}
	if err != nil {
		return fmt.Errorf("retro: reach: %w", err)
	}
	defer claim.Release()
	first := firstReachMissing(db) // another solver may have done it meanwhile
	if first == 2*db.Stones() {
		return nil
	}
	if watch.start != nil {
		watch.start()
	}
	x := db.Indexer()
	ply, start := 0, reachStart(x, db.Variant())
	if first > 0 {
		ply, start = first-1, ReachPly{}
		for _, k := range PlyLayers(db.Stones(), ply) {
			if start[k], err = knownReach(db, k); err != nil {
				return err
			}
		}
	}
	err = reachFrom(ctx, x, db.Variant(), ply, start, workers, done, func(p int, r ReachPly) error {
		if p < first {
			return nil // read from the files
		}
		for k, b := range r {
			if err := writeReach(db, k, b); err != nil {
				return err
			}
		}
		if firstReachMissing(db) == 2*db.Stones() {
			return errReachDone // the plies after p are at hand: a layer was missing
		}
		return nil
	})
	if errors.Is(err, errReachDone) {
		return nil
	}
	return err
}

// errReachDone stops the forward pass of ensureReach once every ply is at
// hand.
var errReachDone = errors.New("every ply at hand")

// reachFor returns the reachable slots of the placement layer k of db,
// computing the reach files first where they are missing. A damaged file
// is removed and computed again, with the plies after it.
func reachFor(ctx context.Context, db *layers.DB, k layers.Key, workers int, done *atomic.Uint64, watch passWatch) (ReachBits, error) {
	for attempt := 0; ; attempt++ {
		if err := ensureReach(ctx, db, workers, done, watch); err != nil {
			return nil, err
		}
		b, err := knownReach(db, k)
		if err == nil || attempt > 0 || !errors.Is(err, layers.ErrReachFile) {
			return b, err
		}
		if err := os.Remove(reachPath(db, k)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("retro: removing a damaged reach file: %w", err)
		}
	}
}
