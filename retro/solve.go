package retro

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"muehle/layers"
)

// SolveOptions says what Solve computes and with which resources.
type SolveOptions struct {
	// MaxStones limits the moving layers to those with W+B ≤ MaxStones
	// stones on the board; 0 means all.
	MaxStones int
	// Placement adds the placement layers, after all moving layers: by
	// default only their classes reachable from the empty board (the
	// others stay Unused), marked by a forward pass first (see Reach).
	Placement bool
	// PlacementAll computes every class of the placement layers (the full
	// sweep) instead; the layers one ply down must then hold every class.
	PlacementAll bool
	// Workers is the number of goroutines; 0 means one per core.
	Workers int
	// MemBytes bounds what a pair holds in memory: its state words (4 bytes
	// per slot of the pair) and the copies of the layers its removals lead
	// to (copied only when both fit). A pair whose state is larger keeps it
	// in a memory-mapped file in TempDir instead, and the operating system
	// pages it. 0 means three quarters of the machine's memory. It does not
	// cover the index tables, the pages of mapped layer files in use, the
	// work-list blocks or the verifier's copies of a layer's children. The
	// bodies of the layers being written take no memory of their own: they
	// are made in the state's memory. While Solve (not SolveUnit) runs,
	// the compressed layers the units read are held decoded besides, up to
	// what the unit being done leaves of it (at least a quarter of it; in
	// the placement phase what the largest placement unit leaves:
	// hold.go), where the DB's own bound is lower.
	MemBytes int64
	// TempDir holds the work lists and spilled state; "" means a folder in
	// the database directory.
	TempDir string
	// SkipVerify skips re-deriving every value of each finished layer.
	SkipVerify bool
	// Compress keeps each layer compressed once it is verified
	// (layers.DB.Compress, layers/doc.go); a unit reads the compressed
	// layers it needs decoded into memory (layers.DB.Layer). The verified
	// layers an interrupted run left uncompressed are compressed when the
	// run is done (or by `muehlectl compress`). Without verification
	// nothing is compressed.
	Compress bool
	// OwnDB says that nothing but this Solve reads the DB while it runs:
	// after each unit it unmaps the files of the layers replaced that the
	// DB keeps for other readers (layers.DB.ReleaseRetired), those taken
	// from DB.Layer included. Without, a flat layer's file is given up as
	// soon as its compressed file replaces it all the same, unless a
	// reader other than the solver (which borrows what it reads,
	// layers.DB.Borrow) took it from DB.Layer.
	OwnDB bool
	// WaitLock waits for units other solvers of the folder hold (and the
	// units that need them) when nothing else is left, instead of failing
	// with an error wrapping layers.ErrLocked.
	WaitLock bool
	// Note, when set, is called with a line for each thing the person
	// should know: a damaged layer recomputed, a layer verified that an
	// interrupted run left unverified, a wrong layer removed.
	Note func(string)
	// Progress, when set, is called from time to time with the state of
	// the run, from any goroutine (progress.go).
	Progress func(Progress)
	// Plan, when set, is Plan's answer for these options, which the
	// caller has made already: Solve numbers its steps and weighs its
	// progress by it instead of reading every layer file again. Each unit
	// is checked again before it is computed either way.
	Plan []Task
}

// ErrNotSolved is wrapped by errors about layers a computation needs that
// the database does not have.
var ErrNotSolved = errors.New("retro: layer not solved")

// Layers returns every layer opts asks for, in order of computation.
func Layers(db *layers.DB, opts SolveOptions) []layers.Key {
	var keys []layers.Key
	for _, u := range Units(db.Variant(), opts) {
		keys = append(keys, u.Keys...)
	}
	return keys
}

// Task is a unit of work Solve has to do: compute a moving pair or a
// placement layer, or only verify layers that are present and sound but
// not yet verified.
type Task struct {
	Unit   Unit
	Verify []layers.Key // with Compute false: the layers to verify
	// Compute says the unit is computed (and then verified): one of its
	// layers is missing or damaged.
	Compute bool
	// Why says, a line per layer, what is unusual beyond missing layers:
	// "3-4 damaged (…): recomputing it", "3-3 not verified yet".
	Why []string
	// Cost is the unit's expected cost (UnitCostWith) for a solver with
	// opts' memory budget, the layers it reads kept as they are or as
	// opts keeps them (CostOptionsFor), in Plan those held decoded by
	// the units before it not read again (CostOptions.Held); a task that
	// only verifies takes VerifyShare of its time (CPUSeconds).
	Cost Cost
}

// Plan returns the work Solve would do on db with opts, in order, with
// its cost. It checks every present layer file completely (header, size,
// body checksum), so a damaged layer is found here and recomputed, never
// relied upon. Solve makes it once and passes each task in its Progress.
func Plan(db *layers.DB, opts SolveOptions) []Task {
	var tasks []Task
	// The units costed in order, in one process: a layer the DB holds
	// decoded from an earlier unit is not read again.
	co := CostOptionsFor(db, opts)
	co.Held = NewHeldLayers(db.Indexer(), db.Variant(), opts)
	for _, u := range Units(db.Variant(), opts) {
		if t := status(db, u, opts); t.Compute || len(t.Verify) > 0 {
			t.Cost = UnitCostWith(db.Indexer(), u, co)
			tasks = append(tasks, t)
		}
	}
	return tasks
}

// memBudget returns the memory budget of a solver with opts.
func (o SolveOptions) memBudget() int64 {
	if o.MemBytes > 0 {
		return o.MemBytes
	}
	return defaultMemBytes()
}

// check returns what is to be done for unit u, as status does, with the
// unit's cost alone (CostOptionsFor).
func check(db *layers.DB, u Unit, opts SolveOptions) Task {
	t := status(db, u, opts)
	t.Cost = UnitCostWith(db.Indexer(), u, CostOptionsFor(db, opts))
	return t
}

// status returns what is to be done for unit u: nothing, verify some of
// its layers, or compute it; without its cost.
func status(db *layers.DB, u Unit, opts SolveOptions) Task {
	t := Task{Unit: u}
	for _, k := range u.Keys {
		st, err := db.Check(k)
		switch st {
		case layers.StatusMissing:
			t.Compute = true
		case layers.StatusDamaged:
			t.Compute = true
			t.Why = append(t.Why, fmt.Sprintf("%s damaged (%v): recomputing it", k, err))
		case layers.StatusUnverified:
			if !opts.SkipVerify {
				t.Verify = append(t.Verify, k)
				t.Why = append(t.Why, k.String()+" not verified yet")
			}
		}
	}
	return t
}

// Solve computes every layer of opts that db lacks or holds damaged, in
// dependency order: the moving pairs by retrograde analysis, smallest first,
// then (with Placement) the placement layers from the last placement back.
// It claims each unit before computing it (DB.Claim), so several solvers,
// in one process or many, on one machine or several sharing the folder,
// divide the units between them: a unit another live solver has claimed,
// and the units that need it, are left to that solver; Solve does the
// others meanwhile. When only such units are left it waits for them with
// WaitLock, and otherwise returns an error wrapping layers.ErrLocked that
// names the holder. A claim whose holder died is taken over and its unit
// redone. A layer is written only when complete, so an interrupted run
// loses at most the unit it was computing, and the next run picks up there;
// the files are the same whatever was interrupted. Each layer is verified
// unless SkipVerify is set, and the verification is recorded beside it; a
// layer present but not verified (an interrupted verification) is verified,
// not recomputed. A layer is removed only when verification proves it
// wrong: a freshly computed one with an error, a stored one to be
// recomputed at once.
func Solve(ctx context.Context, db *layers.DB, opts SolveOptions) error {
	if err := errOldLayers(db); err != nil {
		return err
	}
	s := newSolver(db, opts)
	defer s.close()
	units := Units(db.Variant(), opts)
	s.hold = holdWhileSolving(db, opts, units)
	defer s.hold.release()
	s.plan = opts.Plan
	if s.plan == nil {
		s.plan = Plan(db, opts)
	}
	s.steps = len(s.plan)
	for _, t := range s.plan {
		s.workTotal += t.CPUSeconds()
	}
	waiting, looked := "", false
	for ctx.Err() == nil {
		progressed, blocked, err := s.pass(ctx, units)
		if err != nil {
			return err
		}
		if !progressed && blocked == nil { // done
			if opts.Placement {
				// The dense layers hold their reachable slots now.
				_, err = RemoveReach(db)
			}
			if err == nil && opts.Compress {
				_, err = compressVerified(ctx, db, Layers(db, opts))
			}
			return err
		}
		if progressed {
			if opts.OwnDB {
				if err := db.ReleaseRetired(); err != nil {
					return err
				}
			}
			waiting, looked = "", false
			continue
		}
		if !opts.WaitLock && looked {
			return blocked
		}
		looked = true // look once more after a pause: the holder may just have finished
		// The line names the holders with their heartbeats' ages, which
		// change every second: it is printed again only when the
		// holders change.
		if key := s.holders; opts.WaitLock && key != waiting {
			opts.note("waiting: " + blocked.Error())
			waiting = key
		}
		select {
		case <-ctx.Done():
		case <-time.After(pollClaims):
		}
	}
	return ctx.Err()
}

// pollClaims is how often a solver waiting for units other solvers hold
// looks again.
const pollClaims = 500 * time.Millisecond

// solver is the state of a Solve or SolveUnit call.
type solver struct {
	db      *layers.DB
	opts    SolveOptions
	workers int
	tmp     string
	step    int // units done so far
	steps   int // units to do, as planned at the start
	plan    []Task
	// workDone and workTotal are the expected processor seconds of the
	// tasks done and of all tasks planned (Progress.WorkDone).
	workDone, workTotal float64
	// holders names the units the last pass found blocked and their
	// holders (host, pid, start), without the heartbeats.
	holders string
	// hold is what Solve holds decoded for the next units (hold.go);
	// nil in SolveUnit.
	hold *hold
	// done marks the units (by their place in Solve's list) a pass found
	// complete and verified; later passes skip them without reading their
	// files again (pass).
	done []bool
}

func newSolver(db *layers.DB, opts SolveOptions) *solver {
	tmp := opts.TempDir
	if tmp == "" {
		tmp = layers.TempDir(db.Dir())
	}
	return &solver{db: db, opts: opts, workers: Workers(opts.Workers), tmp: tmp}
}

// close removes the folder of work files when it is empty: the work of
// each unit is removed with it, and another solver may still use it.
func (s *solver) close() { os.Remove(s.tmp) }

// pass does the first unit of units, in order, that needs work, whose
// dependencies are complete and that no other live solver holds. It
// reports whether it did one (progressed), or else why units are left
// (blocked: an error wrapping layers.ErrLocked naming a holder, nil when
// none is left).
//
// A unit found complete is remembered and not looked at again, so that a
// pass costs the units left, not the game's (the files of every finished
// layer were read before each unit: half a minute of the standard game's
// hour, minutes of Lasker Morris's). Before it says that nothing is left
// or that it must wait, pass forgets them and looks at every unit once
// more: a layer that has gone or been damaged since is found then.
func (s *solver) pass(ctx context.Context, units []Unit) (progressed bool, blocked error, err error) {
	if len(s.done) != len(units) {
		s.done = make([]bool, len(units))
	}
	progressed, blocked, err = s.passOver(ctx, units)
	if progressed || err != nil || !slices.Contains(s.done, true) {
		return progressed, blocked, err
	}
	clear(s.done)
	return s.passOver(ctx, units)
}

// passOver is one pass over units, skipping those marked done.
func (s *solver) passOver(ctx context.Context, units []Unit) (progressed bool, blocked error, err error) {
	s.holders = ""
	for i, u := range units {
		if s.done[i] {
			continue
		}
		if t := status(s.db, u, s.opts); !t.Compute && len(t.Verify) == 0 {
			s.done[i] = true
			continue
		}
		if dep, ok := s.depsReady(u); !ok {
			if blocked == nil {
				blocked = fmt.Errorf("retro: unit %s needs layer %s, which another solver holds (or a unit it needs): %w", u.Name, dep, layers.ErrLocked)
			}
			continue
		}
		if s.hold != nil {
			// Every unit before u is done when none was passed over
			// blocked: with u a placement unit, no moving one is left.
			s.hold.starting(i, u.Placement && blocked == nil)
		}
		_, err := s.claimAndDo(ctx, u, false)
		var le *layers.LockedError
		if errors.As(err, &le) {
			if blocked == nil {
				blocked = fmt.Errorf("retro: unit %s: %w", u.Name, err)
			}
			continue
		}
		// Done, or found done by another solver: the caller looks again.
		return true, nil, err
	}
	if blocked != nil {
		s.holders = blocked.Error()
		if claims, _ := s.db.Claims(); len(claims) > 0 {
			var who []string
			for name, i := range claims {
				who = append(who, fmt.Sprintf("%s %s %d %s", name, i.Host, i.PID, i.Start))
			}
			slices.Sort(who)
			s.holders = strings.Join(who, "; ")
			return false, s.describe(blocked, claims), nil
		}
	}
	return false, blocked, nil
}

// describe adds the holders of the claims to a blocked error.
func (s *solver) describe(blocked error, claims map[string]layers.LockInfo) error {
	var who []string
	for name, i := range claims {
		who = append(who, fmt.Sprintf("%s by %v", name, i))
	}
	slices.Sort(who)
	return fmt.Errorf("%w (claimed: %s)", blocked, strings.Join(who, "; "))
}

// depsReady reports whether the layers unit u reads are complete (and
// verified, unless SkipVerify is set); if not, it names the first missing
// one.
func (s *solver) depsReady(u Unit) (string, bool) {
	for _, d := range u.Needs {
		s.db.Recheck(d)
		if !s.db.Has(d) || !s.opts.SkipVerify && !s.db.Verified(d) {
			return d.String(), false
		}
	}
	return "", true
}

// claimAndDo claims unit u (waiting for a live holder with wait), looks
// again at what it needs (another solver may have done it meanwhile) and
// does that. It reports whether there was work to do.
func (s *solver) claimAndDo(ctx context.Context, u Unit, wait bool) (bool, error) {
	claim, err := s.db.Claim(ctx, string(u.Name), wait)
	if err != nil {
		return false, fmt.Errorf("retro: %w", err)
	}
	defer claim.Release()
	for _, k := range u.Keys {
		s.db.Recheck(k)
	}
	t := check(s.db, u, s.opts)
	if !t.Compute && len(t.Verify) == 0 {
		return false, nil
	}
	s.step++
	if s.step > s.steps { // a unit found to need work after the plan
		s.steps = s.step
		s.workTotal += t.CPUSeconds()
	}
	for _, w := range t.Why {
		s.opts.note(fmt.Sprintf("step %d of %d: %s", s.step, s.steps, w))
	}
	if err := s.checkDisk(t); err != nil {
		// Layers kept flat for their placement parents give their room
		// back first.
		if made, merr := s.makeRoom(ctx); merr != nil || !made {
			return true, errors.Join(err, merr)
		}
		if err := s.checkDisk(t); err != nil {
			return true, err
		}
	}
	r := &run{db: s.db, opts: s.opts, workers: s.workers, tmp: s.tmp, step: s.step, steps: s.steps, unit: u,
		task: t, workBefore: s.workDone, workTotal: s.workTotal, flatRoom: s.flatRoom(t)}
	if err := r.do(ctx, t); err != nil {
		return true, err
	}
	s.workDone += t.CPUSeconds()
	if s.opts.Progress != nil {
		s.opts.Progress(Progress{Unit: u.Name, Layer: u.Keys[0], Step: s.step, Steps: s.steps, Phase: PhaseDone,
			Elapsed: time.Since(r.start), Task: t, Fraction: 1, WorkDone: s.workDone, WorkTotal: s.workTotal})
	}
	return true, nil
}

// SolveUnit computes the one unit called name (FindUnit: "m3-4",
// "p5+2-4+2", or one of its layers) of the whole game, as one job of a
// batch system does. It refuses, with an error wrapping ErrNotSolved, when
// a layer the unit reads is missing, damaged (fails its checksums) or,
// unless SkipVerify is set, not verified. It does nothing when the unit is
// complete and verified, and only verifies it when it is complete but not
// verified. The unit's claim is taken as Solve takes it; a live holder
// gives an error wrapping layers.ErrLocked, or with WaitLock a wait. It
// reports whether there was work to do.
func SolveUnit(ctx context.Context, db *layers.DB, name string, opts SolveOptions) (bool, error) {
	if err := errOldLayers(db); err != nil {
		return false, err
	}
	opts.MaxStones, opts.Placement = 0, true
	u, err := FindUnit(Units(db.Variant(), opts), name)
	if err != nil {
		return false, err
	}
	v := db.Variant()
	for _, d := range u.Needs {
		st, err := db.Check(d)
		switch {
		case st == layers.StatusMissing:
			return false, fmt.Errorf("retro: unit %s needs layer %s (unit %s), which is missing: %w", u.Name, d, unitName(v, d), ErrNotSolved)
		case st == layers.StatusDamaged:
			return false, fmt.Errorf("retro: unit %s needs layer %s (unit %s), which is damaged (%w): %w", u.Name, d, unitName(v, d), err, ErrNotSolved)
		case st == layers.StatusUnverified && !opts.SkipVerify:
			return false, fmt.Errorf("retro: unit %s needs layer %s (unit %s), which is not verified yet: %w", u.Name, d, unitName(v, d), ErrNotSolved)
		}
	}
	s := newSolver(db, opts)
	defer s.close()
	s.steps = 1
	if t := check(db, u, opts); t.Compute || len(t.Verify) > 0 {
		s.workTotal = t.CPUSeconds()
	}
	return s.claimAndDo(ctx, u, opts.WaitLock)
}

// note passes a line to opts.Note, if set.
func (o SolveOptions) note(s string) {
	if o.Note != nil {
		o.Note(s)
	}
}

// run computes one unit and reports its progress.
type run struct {
	db          *layers.DB
	opts        SolveOptions
	workers     int
	tmp         string
	step, steps int
	unit        Unit
	task        Task // the work planned, with its cost
	// workBefore is the expected processor time of the run's tasks before
	// this one, workTotal of all (Progress.WorkDone, WorkTotal).
	workBefore, workTotal float64
	fraction              float64 // of the task done so far (Progress.Fraction)
	start                 time.Time
	// afterCount, when set (by tests), sees the state words of a pair
	// after the count phase.
	afterCount func(state [][]uint32)
	// reading is the layer the count phase reads in full, nil when none
	// (Progress.Reading).
	reading atomic.Pointer[layers.Key]
	// filled holds the copies of the layers the count phase of a pair
	// (or a placement layer's computing) read as stored, the won depths
	// it needed found, until the unit's layers are verified: the verifier
	// reads them (filledCopies).
	filled filledCopies
	// flatRoom is the disk a layer kept flat for its placement parent
	// leaves free beside it (keepsFlat, solver.flatRoom).
	flatRoom uint64
}

// track reports the progress of a phase (verifying the layer verifying,
// in PhaseVerify) every 250 ms until the returned function is called, and
// once more then.
func (r *run) track(phase Phase, verifying layers.Key, total uint64, done *atomic.Uint64) func() {
	if r.opts.Progress == nil {
		return func() {}
	}
	var mu sync.Mutex // the last report and this one, from two goroutines
	report := func() {
		mu.Lock()
		defer mu.Unlock()
		d := done.Load()
		f := 0.0
		if total > 0 {
			f = min(1, float64(d)/float64(total))
		}
		r.fraction = max(r.fraction, r.task.Fraction(phase, verifying, f))
		var reading layers.Key
		if k := r.reading.Load(); k != nil {
			reading = *k
		}
		r.opts.Progress(Progress{Unit: r.unit.Name, Layer: r.unit.Keys[0], Step: r.step, Steps: r.steps,
			Phase: phase, Verifying: verifying, Reading: reading, Done: d, Total: total, Elapsed: time.Since(r.start),
			Task: r.task, Fraction: r.fraction,
			WorkDone: r.workBefore + r.fraction*r.task.CPUSeconds(), WorkTotal: r.workTotal})
	}
	stop := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				report()
			}
		}
	}()
	return func() { close(stop); <-finished; report() }
}

// do carries out task t: verify the unit's layers that need it, or compute
// the unit and verify it.
func (r *run) do(ctx context.Context, t Task) error {
	r.start = time.Now()
	defer r.filled.free()
	if !t.Compute {
		wrong, err := r.verify(ctx, t.Verify)
		if err != nil || len(wrong) == 0 {
			return err
		}
		for _, w := range wrong {
			r.opts.note(fmt.Sprintf("%s: removed; recomputing %s", w, r.unit))
		}
	}
	if err := r.solve(ctx); err != nil {
		return err
	}
	if r.opts.SkipVerify {
		return nil
	}
	wrong, err := r.verify(ctx, r.unit.Keys)
	if err == nil && len(wrong) > 0 {
		err = fmt.Errorf("retro: %s; the layer was removed", wrong[0])
	}
	return err
}

// copyRoom returns what the unit leaves of the memory budget for the
// copies of the layers its children lie in (newChildTables): the budget
// less, for a placement unit of the reachable sweep, what the cost model
// says it needs of its own (placementOwnBytes), as the model decides.
func (r *run) copyRoom() int64 {
	room := r.opts.memBudget()
	if r.unit.Placement && r.unit.Reachable {
		room -= int64(placementOwnBytes(r.db.Indexer(), r.unit))
	}
	return room
}

// verify verifies the layers keys and records each that passes. It
// removes each layer proven wrong and describes it in wrong. An error
// (cancellation included) leaves the layers as they are, unverified.
// With Compress, the layers that pass are compressed once all are
// verified: the count's copies (filled) are freed by then, and a layer's
// partner is verified against it as it was written, flat, its won
// depths there to read.
func (r *run) verify(ctx context.Context, keys []layers.Key) (wrong []string, err error) {
	var passed []layers.Key
	for _, k := range keys {
		var done atomic.Uint64
		stop := r.track(PhaseVerify, k, r.db.Indexer().Layer(k).Size(), &done)
		bad, err := verifyLayer(ctx, r.db, k, r.workers, 10, r.copyRoom(), &r.filled, &done)
		stop()
		if len(bad) == 0 && err != nil {
			return wrong, err
		}
		if len(bad) > 0 {
			if err := r.db.Remove(k); err != nil {
				return wrong, err
			}
			wrong = append(wrong, fmt.Sprintf("layer %s failed verification: %v", k, bad[0]))
			continue
		}
		if err := r.db.MarkVerified(k); err != nil {
			return wrong, err
		}
		passed = append(passed, k)
	}
	if !r.opts.Compress {
		return wrong, nil
	}
	r.filled.free()
	flat := slices.DeleteFunc(slices.Clone(r.unit.Keys), func(k layers.Key) bool { return !r.keepsFlat(k) })
	for _, k := range passed {
		if slices.Contains(flat, k) {
			continue
		}
		// Just verified: every value derived from the children
		// already, the won depths that Compress would find again by
		// one ply among them.
		if _, _, _, err := r.db.CompressDerived(k); err != nil {
			return wrong, err
		}
	}
	// A layer of the unit that a run stopped between its verification
	// and its compressing is compressed now, not when the solve ends.
	rest := slices.DeleteFunc(slices.Clone(r.unit.Keys), func(k layers.Key) bool { return slices.Contains(flat, k) })
	if _, err := compressVerified(ctx, r.db, rest); err != nil {
		return wrong, err
	}
	return wrong, r.compressPlacementChildren(ctx)
}

// compressVerified compresses the verified layers of keys that lie flat:
// those an interrupted run verified but left uncompressed (and in a game
// whose phases mix, those kept flat for their placement parents). It
// reports whether it compressed any.
func compressVerified(ctx context.Context, db *layers.DB, keys []layers.Key) (bool, error) {
	any := false
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return any, err
		}
		if !db.Verified(k) {
			continue
		}
		_, _, done, err := db.Compress(k)
		if err != nil {
			return any, err
		}
		any = any || done
	}
	return any, nil
}

// solve computes the unit and writes its layers.
func (r *run) solve(ctx context.Context) error {
	for _, s := range r.unit.Needs {
		if !r.db.Has(s) {
			return fmt.Errorf("retro: %s needs layer %s first: %w", r.unit, s, ErrNotSolved)
		}
	}
	bodies, release, err := r.compute(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := ctx.Err(); err != nil {
		return err
	}
	var done atomic.Uint64
	var size uint64
	for _, b := range bodies {
		size += b.size()
	}
	stop := r.track(PhaseWrite, layers.Key{}, size, &done)
	defer stop()
	for i, k := range r.unit.Keys {
		if err := bodies[i].write(r.db, k); err != nil {
			return err
		}
		done.Add(bodies[i].size())
	}
	return nil
}

// layerBody is a computed layer, ready to be written: one byte per slot,
// or (a placement layer of the reachable sweep) dense.
type layerBody struct {
	flat  []byte
	dense *layers.Dense
}

// size returns the bytes of the body.
func (b layerBody) size() uint64 {
	if b.dense != nil {
		return layers.DenseBodySize(b.dense.Slots(), b.dense.Stored())
	}
	return uint64(len(b.flat))
}

// write writes the body as layer k of db.
func (b layerBody) write(db *layers.DB, k layers.Key) error {
	if b.dense != nil {
		return db.WriteDense(k, b.dense)
	}
	return db.Write(k, b.flat)
}

// compute returns the bodies of the unit's layers, and release, which
// frees them once they are written.
func (r *run) compute(ctx context.Context) (bodies []layerBody, release func(), err error) {
	if r.unit.Placement {
		k := r.unit.Keys[0]
		reach, err := r.reach(ctx, k)
		if err != nil {
			return nil, nil, err
		}
		var done atomic.Uint64
		stop := r.track(PhaseCount, layers.Key{}, r.db.Indexer().Layer(k).Size(), &done)
		body, err := solvePlacement(ctx, r.db, k, reach, r.workers, r.copyRoom(), &r.filled, &done)
		stop()
		return []layerBody{body}, func() {}, err
	}
	flat, release, err := r.solvePair(ctx)
	for _, b := range flat {
		bodies = append(bodies, layerBody{flat: b})
	}
	return bodies, release, err
}

// solvePair runs the retrograde analysis of a moving pair: count, then
// propagate, then turn the state words into layer bodies in place, so
// that the bodies live in the state's memory until release.
func (r *run) solvePair(ctx context.Context) (bodies [][]byte, release func(), err error) {
	keys := r.unit.Keys
	pr := &pair{game: r.db.Variant().Game, keys: keys}
	ix := r.db.Indexer()
	budget := r.opts.MemBytes
	if budget <= 0 {
		budget = defaultMemBytes()
	}
	// The memory plan: the state words, then copies of the layers the
	// moves out of the pair lead to (removals; in a game whose phases mix
	// placements too). Within the budget both are in memory; otherwise
	// those moves read the mapped files, and a state larger than the
	// budget itself lives in a mapped file too.
	v := r.db.Variant()
	pr.out = make([][moveKinds]outLayer, len(keys))
	var copies uint64
	outKeys := map[layers.Key]bool{}
	for l, k := range keys {
		pr.index = append(pr.index, ix.Layer(k))
		for kind, kl := range kindLayers(v, k) {
			if kind == kindSlide {
				continue // into the pair
			}
			o := &pr.out[l][kind]
			o.ends = kl.ends
			if kl.made {
				o.ix = ix.Layer(kl.key)
				if !outKeys[kl.key] {
					outKeys[kl.key] = true
					copies += o.ix.Size()
				}
			}
		}
	}
	copyOut := int64(4*pr.slots()+copies) <= budget
	spill := int64(4*pr.slots()) > budget
	// The count phase begins with reading the layers the moves out of the
	// pair lead to, which said nothing for many minutes in Lasker Morris.
	var done atomic.Uint64
	stopCount := r.track(PhaseCount, layers.Key{}, pr.slots(), &done)
	counting := true
	defer func() {
		if counting {
			stopCount()
		}
	}()
	// Copied into memory, a layer of compressed form 2 is read as stored,
	// its won slots without their depths: the count phase finds the few
	// it needs (seedPending).
	bodies0 := map[layers.Key][]byte{} // each layer read or copied once
	marks0 := map[layers.Key][]uint64{}
	for l := range keys {
		for kind := range pr.out[l] {
			o := &pr.out[l][kind]
			if o.ix == nil {
				continue
			}
			x := o.ix.Key()
			if b, ok := bodies0[x]; ok {
				o.body, o.marks = b, marks0[x]
				continue
			}
			r.reading.Store(&x)
			var f *layers.File
			var stored bool
			var release func()
			var err error
			if copyOut {
				f, stored, release, err = r.db.BorrowStored(x)
			} else {
				f, release, err = r.db.Borrow(x) // read until propagated
			}
			r.reading.Store(nil)
			if err != nil {
				return nil, nil, fmt.Errorf("retro: pair %s needs %s: %w", r.unit, x, err)
			}
			defer release()
			body := f.Body()
			if copyOut {
				var free func()
				if body, free, err = copyLarge(body); err != nil {
					return nil, nil, fmt.Errorf("retro: pair %s: reading %s: %w", r.unit, x, err)
				}
				if stored {
					// Its depths found, the verifier reads it too.
					r.filled.add(x, body, free)
				} else {
					defer free()
				}
			}
			if stored {
				marks0[x] = make([]uint64, (len(body)+63)/64)
				if pr.pending == nil {
					for _, ix := range pr.index {
						pr.pending = append(pr.pending, make([]uint64, (ix.Size()+63)/64))
					}
				}
			}
			bodies0[x], o.body, o.marks = body, body, marks0[x]
		}
	}
	work := filepath.Join(r.tmp, "pair-"+keys[0].String())
	if err := os.RemoveAll(work); err != nil {
		return nil, nil, fmt.Errorf("retro: %w", err)
	}
	defer os.RemoveAll(work)
	// The state outlives this function when it succeeds: it holds the
	// bodies until they are written.
	var freeState []func()
	releaseState := func() {
		for _, f := range freeState {
			f()
		}
	}
	defer func() {
		if err != nil {
			releaseState()
		}
	}()
	for l, k := range keys {
		s, release, err := allocState(pr.index[l].Size(), spill, filepath.Join(work, "state-"+k.String()))
		if err != nil {
			return nil, nil, err
		}
		freeState = append(freeState, release)
		pr.state = append(pr.state, s)
	}
	// Work-list blocks: 64 KiB each, or less for small pairs.
	block := int(min(max(pr.slots()/64, 512), 8192))
	if pr.lists, err = newWorklists(work, pr.slots(), block, r.workers); err != nil {
		return nil, nil, err
	}
	defer pr.lists.close()
	pr.sortMax = sortMax(pr.slots(), spill)

	for l := range keys {
		if err := pr.initLayer(ctx, l, r.workers, &done); err != nil {
			return nil, nil, err
		}
	}
	if pr.pending != nil {
		if err := pr.seedPending(ctx, r.db, r.workers); err != nil {
			return nil, nil, err
		}
	}
	counting = false
	stopCount()
	if r.afterCount != nil {
		r.afterCount(pr.state)
	}
	done.Store(0)
	stop := r.track(PhasePropagate, layers.Key{}, pr.slots(), &done)
	err = pr.propagate(ctx, r.workers, &done)
	stop()
	if err != nil {
		return nil, nil, err
	}
	for l := range keys {
		bodies = append(bodies, bodyInPlace(pr.state[l]))
	}
	return bodies, releaseState, nil
}
