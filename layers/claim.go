package layers

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
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

// RemoveLeftovers removes what a killed process left beside the files of
// layers keys: NAME.tmp and NAME.*.tmp of the layer file, its block file,
// its verification record and its reach file (folder.go). Call it
// holding the claim of the layers' unit, so that no live writer's file
// is removed.
func (d *DB) RemoveLeftovers(keys ...Key) error {
	var errs []error
	for _, k := range keys {
		base := strings.TrimSuffix(d.Path(k), layerSuffix)
		names, _ := filepath.Glob(base + ".*tmp")
		for _, n := range names {
			if strings.HasSuffix(n, ".tmp") {
				if err := os.Remove(n); err != nil && !errors.Is(err, os.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// TidyClaims takes over the claims of the folder that no live process
// holds (left by a killed solver or import), removes the leftovers of
// their layers (RemoveLeftovers; keysOf gives the layers of a unit's
// name, nil when it does not know the name) and releases them, so that
// their files go. A claim a live process holds is left alone. It
// returns the names of the claims it removed.
func (d *DB) TidyClaims(ctx context.Context, keysOf func(name string) []Key) ([]string, error) {
	claims, err := d.Claims()
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(claims)) {
		l, err := d.Claim(ctx, name, false)
		if errors.Is(err, ErrLocked) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, d.RemoveLeftovers(keysOf(name)...), l.Release())
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}
