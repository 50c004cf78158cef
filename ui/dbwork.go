package ui

import (
	"context"
	"fmt"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
	"muehle/retro/dbservice"
	"muehle/retro/play"
)

// DBEstimate is what a computation will cost (dbservice.Estimate).
type DBEstimate = dbservice.Estimate

// DBProgress is the state of a computation (dbservice.Progress).
type DBProgress = dbservice.Progress

// runBase is what a computation did before it was paused or the program
// closed (dbservice.Base).
type runBase = dbservice.Base

// The words of numbers, sizes and times are the service's, so that the
// window and muehlectl say them alike.
var (
	count         = dbservice.Count
	bytesText     = dbservice.Bytes
	roughDuration = dbservice.Rough
	barPercent    = dbservice.Percent
	layerCount    = dbservice.LayerCount
)

// computeOptions returns the solver's options for Compute: the small
// endgames, or the complete database: every moving layer, then the
// placement layers (their classes reachable from the empty board). The
// layers are kept compressed once verified, as the players read them.
func computeOptions(small bool) retro.SolveOptions {
	if small {
		return retro.SolveOptions{MaxStones: SmallMaxStones, Compress: true}
	}
	return retro.SolveOptions{Placement: true, Compress: true}
}

// Estimate returns what Compute(small) would cost (dbservice.EstimateFor).
// It reads every present layer file (to find damaged ones), so it is
// called off the UI thread.
func (e *DBEngines) Estimate(small bool) (DBEstimate, error) {
	db, err := e.database()
	if err != nil {
		return DBEstimate{}, err
	}
	return dbservice.EstimateFor(db, computeOptions(small), e.Speed()), nil
}

// Speed returns this machine's speed relative to the cost model, measured
// in the last computation (dbservice.Solve); 0 when none ran.
func (e *DBEngines) Speed() float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.speed
}

// SetSpeed sets the measured speed (from the preferences of an earlier run).
func (e *DBEngines) SetSpeed(s float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.speed = s
}

// computing returns the layer being computed, ok false when none is, and
// whether it is being converted rather than computed.
func (e *DBEngines) computing() (k layers.Key, ok, converting bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn, e.busyConvert
}

// computingIn is computing for the layers of variant v: ok is false while
// the layer computed is one of another variant.
func (e *DBEngines) computingIn(v muehle.Variant) (k layers.Key, ok, converting bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busy, e.busyOn && e.busyIn == v, e.busyConvert
}

// notComputing forgets the layer being computed when a run ends.
func (e *DBEngines) notComputing(context.Context) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.busyOn, e.busyConvert, e.busyCompress = false, false, false
	e.recheckReads()
}

// playerWords says what the perfect player of variant v does with the
// layers present: moving of movingAll moving layers and placement of
// placementAll layers with stones in hand (damaged ones not counted). The
// panel wraps the lines.
func playerWords(v muehle.Variant, moving, movingAll, placement, placementAll int) string {
	var b strings.Builder
	b.WriteString("The perfect player:\n")
	switch moving {
	case movingAll:
		b.WriteString("- Moving phase: complete; every move comes from the database.\n")
	case 0:
		b.WriteString("- Moving phase: no layer yet; it plays alpha-beta there.\n")
	default:
		fmt.Fprintf(&b, "- Moving phase: %d of %d layers. Its moves are perfect where the position's layer is present (#); elsewhere it plays alpha-beta.\n",
			moving, movingAll)
	}
	switch {
	case v.Rules().Mixed && placement == placementAll:
		b.WriteString("- Stones in hand: complete; every placement and move comes from the database.\n")
	case v.Rules().Mixed:
		// No placement phase to search over: the layers with stones in
		// hand are solved in pairs like the moving ones.
		fmt.Fprintf(&b, "- Stones in hand: %d of %d layers. Its moves are perfect where the position's layer is present; elsewhere it plays alpha-beta.\n",
			placement, placementAll)
	case placement == placementAll:
		b.WriteString("- Opening: stored; every placement comes from the database (a position set up by hand that no game can reach is searched over the layers).\n")
	case moving == movingAll:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, exact, and plays alpha-beta where that is not enough.\n",
			placement, placementAll, roughDuration(play.PlacementTime))
	default:
		fmt.Fprintf(&b, "- Opening: not stored (%d of %d layers). It searches each placement over the moving layers for up to %s, and plays alpha-beta where the search reaches a missing layer or runs out of time.\n",
			placement, placementAll, roughDuration(play.PlacementTime))
	}
	b.WriteString("After each alpha-beta move the status line says why.")
	return b.String()
}
