package layers

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Claim takes the claim of the unit called name for this process: a lock
// file (AcquireLock) that another solver of the folder, on this machine or
// another, respects. A live holder gives a *LockedError, or with wait set
// Claim waits for it; a dead holder's claim is taken over.
func (d *DB) Claim(ctx context.Context, name string, wait bool) (*Lock, error) {
	return AcquireLock(ctx, d.ClaimPath(name), wait)
}

// Claims returns the holders of the claims in the folder, by unit name.
// Stale claims (their holder gone) are included: only a solver taking one
// over tells them apart for sure.
func (d *DB) Claims() (map[string]LockInfo, error) {
	es, err := os.ReadDir(d.sub)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	claims := map[string]LockInfo{}
	for _, e := range es {
		name, ok := strings.CutSuffix(e.Name(), claimSuffix)
		if !ok {
			continue
		}
		if i, err := ReadLock(filepath.Join(d.sub, e.Name())); err == nil {
			claims[name] = i
		}
	}
	return claims, nil
}

// Recheck makes the DB look at the file of layer k again on its next use
// when it last found the layer missing or damaged (another process may have
// written it since). An open layer stays open; a layer found damaged is
// checked in full when it is opened again.
func (d *DB) Recheck(k Key) {
	s, ok := keySlot(k)
	if !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.slots[s].Load(); e != nil && e.f == nil {
		var next *dbLayer
		if e.full {
			next = &dbLayer{full: true} // long ago: not a cached answer
		}
		d.slots[s].Store(next)
	}
}
