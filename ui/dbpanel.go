package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"muehle/layers"
	"muehle/muehle"
)

// Database is what the database panel shows and computes. The program
// passes one backed by packages layers and retro.
type Database interface {
	// Game returns the game and stones whose database the panel shows and
	// the other methods compute; SetGame switches to another. The panel
	// follows the game on the board while it computes nothing.
	Game() muehle.Variant
	SetGame(v muehle.Variant)
	// Dir returns the database directory (the folder of every game's
	// database, layers.GameDir).
	Dir() string
	// SetDir switches to the database in dir.
	SetDir(dir string) error
	// Summary describes which layers exist, a few lines of text.
	Summary() string
	// Empty reports whether no layer has been computed yet.
	Empty() bool
	// Compute computes the missing layers (only the small endgames when
	// small is set, else the complete database), calling progress from
	// any goroutine, until done or until ctx is cancelled. The finished
	// parts are kept; computing again continues.
	Compute(ctx context.Context, small bool, progress func(DBProgress)) error
	// SmallDescription names the small endgame layers, for the offer.
	SmallDescription() string
	// Damaged names the layers whose files are damaged ("" when none):
	// the players treat them as missing.
	Damaged() string
	// Repair recomputes the damaged layers, like Compute.
	Repair(ctx context.Context, progress func(DBProgress)) error
	// Old says what the folder holds of the layer format before: files
	// the players do not read, and that Compute and Repair do not touch,
	// until Convert has rewritten them.
	Old() DBOld
	// Convert rewrites the layers of the format before in this one, with
	// the same values and verification, calling progress from any
	// goroutine before each layer, until done or until ctx is cancelled:
	// then it stops after the layer being converted (each is replaced
	// whole), and converting again does the rest.
	Convert(ctx context.Context, progress func(DBProgress)) error
	// Flat says what the folder holds of verified layers lying flat,
	// which Compress keeps compressed.
	Flat() DBFlat
	// Compress keeps the verified layers compressed, in place, with the
	// same values and verification, calling progress from any goroutine
	// before each layer, until done or until ctx is cancelled: then it
	// stops after the layer being compressed (each is replaced whole),
	// and compressing again does the rest.
	Compress(ctx context.Context, progress func(DBProgress)) error
	// Estimate returns what Compute(small) would cost; it may read every
	// layer file, so the panel calls it off the UI thread.
	Estimate(small bool) (DBEstimate, error)
	// Speed and SetSpeed give this machine's speed relative to the cost
	// model, measured in the last long computation (0: none), kept in the
	// preferences.
	Speed() float64
	SetSpeed(float64)
	// CacheBytes and SetCacheBytes give the bound of the memory each
	// open database's compressed layers take decoded
	// (layers.DB.SetCacheBytes), kept in the preferences.
	CacheBytes() int64
	SetCacheBytes(n int64)
}

// The preferences of the database panel. A computation started with
// Compute is remembered until it finishes, so that Resume, also after a
// restart of the program, continues it.
const (
	prefDBSpeed     = "database.speed"      // Database.Speed of the last long computation
	prefDBMemory    = "database.memory.mib" // Database.CacheBytes in MiB, the Memory setting
	prefDBRun       = "database.run"        // "small" or "complete": a computation not finished
	prefDBRunDir    = "database.run.dir"    // its folder
	prefDBRunGame   = "database.run.game"   // its game's ID ("standard" when not set)
	prefDBRunStones = "database.run.stones" // and stones per side (the game's when not set)
	prefDBRedo      = "database.run.redo"   // what resuming it redoes, a sentence
	prefDBParts     = "database.run.parts"  // its parts finished (runBase)
	prefDBTime      = "database.run.time"   // the seconds it ran
	prefDBWork      = "database.run.work"   // the model's processor seconds of the parts finished
	runSmall        = "small"               // the values of prefDBRun
	runComplete     = "complete"            //
	resumeSays      = "Resume continues, "  // the start of the sentence on resuming
)

// progressIdle is the progress line before anything has run.
const progressIdle = "Computing asks first, with its time and disk."

// dbPanel shows which layers exist, the directory, and computes missing
// layers in the background with progress, pause and resume.
type dbPanel struct {
	u        *App
	db       Database
	do       func(func())
	free     func(dir string) (uint64, error) // the free disk space; layers.FreeBytes
	dir      *widget.Label
	heading  *widget.Label // "Layers of Twelve Men's Morris"
	other    *widget.Label // says the layers shown are not the board's game's, while they are computed
	summary  *widget.Label
	bar      *widget.ProgressBar // the current part
	overall  *widget.ProgressBar // the whole run
	progress *widget.Label       // the part and the run, or the outcome
	note     *widget.Label       // what pausing and resuming do
	small    *widget.Button
	all      *widget.Button
	repair   *widget.Button
	convert  *widget.Button // converts the layers of the older format
	compress *widget.Button // compresses the layers lying flat
	pause    *widget.Button
	resume   *widget.Button
	change   *widget.Button
	memory   *widget.Select // the bound of Database.CacheBytes (memoryChoices)
	box      fyne.CanvasObject

	stop    context.CancelFunc // cancels the running computation; nil when idle
	hold    bool               // a computation is asked for: the panel keeps its game until it starts or is refused
	running string             // runSmall or runComplete while Compute runs, "" for a repair
	redo    string             // what resuming the running computation would redo
	redoAt  string             // the part and phase p.redo was last saved for
	base    runBase            // what the running computation did before it was resumed
	shown   DBProgress         // the last progress shown, of the whole computation
	seen    bool               // progress has been shown since the computation (re)started
	pausing bool               // Pause was pressed; the computation has not stopped yet
	offered string             // the damaged layers last offered for repair
	last    time.Time          // when progress was last passed to the UI
	drawn   time.Time          // when the running computation's layers were last drawn
	drawnAt string             // and the part they were drawn for
	mu      sync.Mutex         // guards last, closed and cancel (progress comes from any goroutine)
	closed  bool               // the window is closing: no more progress for the widgets
	stopped bool               // the program has stopped: nothing more for the widgets
	cancel  context.CancelFunc // p.stop, for appStopped, which runs off the UI thread

	// converting says the running computation is a conversion
	// (Database.Convert), of oldAtStart layers of the older format.
	converting bool
	oldAtStart int
	// compressing says the running computation is a compression
	// (Database.Compress), of flatAtStart layers lying flat.
	compressing bool
	flatAtStart int
	offeredOld  string // the folder whose older layers were offered for conversion
	// gameOffered holds the variants whose database offerGame offered.
	gameOffered map[muehle.Variant]bool
}

func newDBPanel(u *App, db Database, do func(func())) *dbPanel {
	p := &dbPanel{
		u:        u,
		db:       db,
		do:       do,
		free:     layers.FreeBytes,
		dir:      widget.NewLabel(""),
		heading:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		other:    widget.NewLabel(""),
		summary:  widget.NewLabel(""),
		bar:      widget.NewProgressBar(),
		overall:  widget.NewProgressBar(),
		progress: widget.NewLabel(progressIdle),
		note:     widget.NewLabel(""),
	}
	if s := u.app.Preferences().Float(prefDBSpeed); s > 0 {
		db.SetSpeed(s)
	}
	p.newMemory()
	// A program stopped without closing its window (SIGTERM, SIGINT) runs
	// no OnClosed; and once the driver has stopped, fyne.Do runs its
	// functions on the calling goroutine. So the panel stops the
	// computation here too, and sends nothing to the widgets after it.
	u.app.Lifecycle().SetOnStopped(p.appStopped)
	p.dir.Wrapping = fyne.TextWrapBreak
	p.heading.Wrapping = fyne.TextWrapWord
	p.other.Wrapping = fyne.TextWrapWord
	p.summary.TextStyle.Monospace = true
	p.summary.Wrapping = fyne.TextWrapWord
	p.progress.Wrapping = fyne.TextWrapWord
	p.note.Wrapping = fyne.TextWrapWord
	p.small = widget.NewButton("Small endgames", func() { p.askCompute(true) })
	p.all = widget.NewButton("Complete database", func() { p.askCompute(false) })
	p.repair = widget.NewButton("Recompute damaged layers", p.startRepair)
	p.convert = widget.NewButton("Convert older layers", p.askConvert)
	p.compress = widget.NewButton("Compress layers", p.askCompress)
	p.pause = widget.NewButton("Pause", p.pauseCompute)
	p.resume = widget.NewButton("Resume", p.resumeCompute)
	p.change = widget.NewButton("Change folder…", p.chooseDir)
	p.overall.TextFormatter = func() string {
		if p.converting {
			return "Whole conversion: " + barPercent(p.overall.Value)
		}
		if p.compressing {
			return "Whole compression: " + barPercent(p.overall.Value)
		}
		return "Whole computation: " + barPercent(p.overall.Value)
	}
	p.bar.TextFormatter = func() string { return "Current part: " + barPercent(p.bar.Value) }
	// The buttons and the progress stay in view below the layers, which
	// scroll; the buttons at the bottom, so that they stay in place when
	// the lines of text above them change.
	p.box = container.NewBorder(
		container.NewVBox(
			widget.NewLabelWithStyle("Folder", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
			p.dir, p.change,
			container.NewBorder(nil, nil, widget.NewLabel("Memory for the database:"), nil, p.memory),
			widget.NewSeparator()),
		container.NewVBox(widget.NewSeparator(),
			p.overall, p.bar, p.progress, p.note, p.convert, p.compress, p.repair,
			container.NewGridWithColumns(2, p.small, p.all, p.pause, p.resume)),
		nil, nil,
		container.NewVScroll(container.NewVBox(p.heading, p.other, p.summary)))
	p.refresh()
	return p
}

// pending returns the computation of this folder that was started and did
// not finish ("": none), and what resuming it redoes. pendingGame says
// which game's database it computes.
func (p *dbPanel) pending() (run, redo string) {
	prefs := p.u.app.Preferences()
	run = prefs.String(prefDBRun)
	if run == "" || prefs.String(prefDBRunDir) != p.db.Dir() {
		return "", ""
	}
	return run, prefs.String(prefDBRedo)
}

// pendingGame returns the game whose computation pending returns: Nine
// Men's Morris with nine stones for one remembered before the panel
// computed other games, or when the game remembered is not known.
func (p *dbPanel) pendingGame() muehle.Variant {
	prefs := p.u.app.Preferences()
	r, ok := muehle.GameByName(prefs.StringWithFallback(prefDBRunGame, muehle.Standard.Rules().ID))
	if !ok {
		return muehle.NineMensMorris
	}
	v := r.Game().With(prefs.IntWithFallback(prefDBRunStones, r.Stones))
	if v.Check() != nil {
		return muehle.NineMensMorris
	}
	return v
}

// runNamed names a computation of run for a person, with its game when
// that is not the game of the layers shown: "the small endgames of Lasker
// Morris with 3 stones".
func (p *dbPanel) runNamed(run string, v muehle.Variant) string {
	if v == p.db.Game() {
		return runWords(run)
	}
	return runWords(run) + " of " + v.Name()
}

// follow makes the panel show the database of the game on the board,
// unless a computation runs or is being asked for: then it keeps the
// layers of that computation's game until it ends.
func (p *dbPanel) follow() {
	if p.stop != nil || p.hold {
		return
	}
	if v := p.u.variant; v.Check() == nil && v != p.db.Game() {
		p.db.SetGame(v)
	}
}

// release ends the hold of a computation asked for that does not start
// (refused, or the person said no): the panel follows the board again.
func (p *dbPanel) release() {
	p.hold = false
	p.refresh()
}

// otherWords says, when the layers shown are not those of the game on the
// board, whose they are and why; "" when they are the board's.
func (p *dbPanel) otherWords() string {
	v, board := p.db.Game(), p.u.variant
	if v == board || board.Check() != nil {
		return ""
	}
	if p.stop != nil {
		verb := "being computed"
		if p.converting {
			verb = "being converted"
		}
		if p.compressing {
			verb = "being compressed"
		}
		return fmt.Sprintf("These are %s's layers, %s; the game on the board is %s. "+
			"The tab shows that game's layers when this computation ends or is paused.", v.Name(), verb, board.Name())
	}
	return fmt.Sprintf("These are %s's layers, whose computation is asked for; the game on the board is %s.", v.Name(), board.Name())
}

// refresh shows the directory, the layers and the buttons' state.
//
// While the folder holds layers of the older format, computing, resuming
// and repairing are disabled, and the note says why beside the button that
// converts them. The solver refuses such a folder anyway; and the
// estimate a click on Complete database shows first would count those
// layers as missing (hours of computing), where converting them takes
// minutes and rewrites files the person computed, which deserves its own
// button and confirmation rather than a step hidden behind another one.
func (p *dbPanel) refresh() {
	p.follow()
	p.dir.SetText(p.db.Dir())
	p.heading.SetText("Layers of " + p.db.Game().Name())
	other := p.otherWords()
	p.other.SetText(other)
	setVisible(p.other, other != "")
	p.summary.SetText(p.db.Summary())
	p.drawn = time.Now()
	busy := p.stop != nil
	run, redo := p.pending()
	old := p.db.Old()
	blocked := old.Layers > 0
	for _, b := range []*widget.Button{p.small, p.all} {
		setEnabled(b, !busy && !blocked)
	}
	setEnabled(p.change, !busy)
	damaged := p.db.Damaged() != ""
	setEnabled(p.repair, !busy && damaged && !blocked)
	setVisible(p.repair, damaged) // room for the layers when nothing is damaged
	setEnabled(p.convert, !busy && blocked)
	if blocked && p.progress.Text == progressIdle {
		p.say("") // computing is disabled: the note says why
	}
	setVisible(p.convert, blocked || p.converting)
	flat := p.db.Flat().Layers > 0 && !blocked
	setEnabled(p.compress, !busy && flat)
	setVisible(p.compress, flat || p.compressing)
	setEnabled(p.pause, busy && !p.pausing)
	setEnabled(p.resume, !busy && run != "" && !blocked)
	// The bars show a computation under way; idle, they would show the
	// end of the last one (or nothing) as if it were the database's state.
	// A conversion knows no share of its layer: only the whole is shown.
	setVisible(p.bar, busy && !p.converting && !p.compressing)
	setVisible(p.overall, busy)
	switch {
	case busy && p.converting:
		p.setNote(convertNote)
	case busy && p.compressing:
		p.setNote(compressNote)
	case busy && p.running != "":
		p.setNote(p.busyNote())
	case busy:
		p.setNote("")
	case blocked && run != "":
		p.setNote(old.Words() + fmt.Sprintf(" The computation of %s here was interrupted: Resume continues it after that.", p.runNamed(run, p.pendingGame())))
	case blocked:
		p.setNote(old.Words())
	case run != "":
		p.setNote(fmt.Sprintf("The computation of %s here was interrupted. %s%s", p.runNamed(run, p.pendingGame()), resumeSays, redo))
	default:
		p.setNote("")
	}
}

// say shows s on the progress line, or nothing (and takes no room) when s
// is "".
func (p *dbPanel) say(s string) {
	p.progress.SetText(s)
	setVisible(p.progress, s != "")
}

// setNote shows s below the progress, or nothing (and takes no room) when
// s is "".
func (p *dbPanel) setNote(s string) {
	p.note.SetText(s)
	setVisible(p.note, s != "")
}

// setVisible shows or hides o.
func setVisible(o fyne.CanvasObject, on bool) {
	if on {
		o.Show()
	} else {
		o.Hide()
	}
}

// runWords names a computation for a person.
func runWords(run string) string {
	if run == runSmall {
		return "the small endgames"
	}
	return "the complete database"
}

// checked estimates Compute(small) and measures the free disk space off
// the UI thread, then on the UI thread refuses (a message) or calls ok
// with the estimate and a line about the disk. The panel keeps its game
// meanwhile (hold): ok starts the computation or calls release.
func (p *dbPanel) checked(small bool, ok func(est DBEstimate, disk string)) {
	p.hold = true
	p.say("Looking at the layers present and the free disk space…")
	dir := p.db.Dir()
	go func() {
		est, err := p.db.Estimate(small)
		var free uint64
		var ferr error
		if err == nil && est.Units > 0 {
			free, ferr = p.free(dir)
		}
		p.do(func() {
			p.say("")
			switch {
			case err != nil:
				p.release()
				p.say("Failed: " + err.Error())
				return
			case est.Units == 0:
				// Nothing left (another program may have finished it):
				// an interrupted computation of this kind is done too.
				if run, _ := p.pending(); run == runOf(small) && p.pendingGame() == p.db.Game() {
					p.forgetRun()
				}
				p.release()
				p.say(est.String())
				return
			}
			refuse, warn := est.DiskProblem(dir, free, ferr)
			if refuse != "" {
				p.release()
				p.say("Not enough disk space: nothing was computed.")
				dialog.ShowInformation("Not enough disk space", refuse, p.u.win)
				return
			}
			ok(est, warn)
		})
	}()
}

// askCompute says what computing takes (parts, disk, time on this
// machine), refuses when the disk is too small, and computes when the
// person agrees.
func (p *dbPanel) askCompute(small bool) {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	p.checked(small, func(est DBEstimate, disk string) {
		title := "Compute the complete database"
		if small {
			title = "Compute the small endgames"
		}
		msg := fmt.Sprintf("Compute %s in\n%s?\n\n%s\n%s\n\n"+
			"It runs in the background. Pause (or closing the program)\n"+
			"stops at once and keeps the finished parts; Resume continues,\n"+
			"also after a restart.", computeWhat(p.db.Game(), small, p.db.SmallDescription()), p.db.Dir(), est, disk)
		dialog.ShowConfirm(title, msg, func(yes bool) {
			if yes {
				p.compute(small)
			} else {
				p.release()
			}
		}, p.u.win)
	})
}

// computeWhat says what Compute(small) computes for a game of v, in lines
// short enough for a dialog; the small endgames are the layers named
// small.
func computeWhat(v muehle.Variant, small bool, names string) string {
	switch {
	case small:
		return fmt.Sprintf("the small endgames (%s)\nof %s", names, v.Name())
	case v.Rules().Mixed:
		return fmt.Sprintf("the complete database of %s\n(every layer still missing: the moving phase,\nthen the layers with stones in hand)", v.Name())
	}
	return fmt.Sprintf("the complete database of %s\n(every layer still missing: the moving phase,\nthen the opening's positions that a game can reach)", v.Name())
}

// resumeCompute continues the interrupted computation of this folder,
// after the disk check.
//
// The computation may be one of another game than the board's: the panel
// shows that game's layers from now until it ends.
func (p *dbPanel) resumeCompute() {
	run, _ := p.pending()
	if p.stop != nil || run == "" {
		return
	}
	if v := p.pendingGame(); v != p.db.Game() {
		p.db.SetGame(v)
		p.hold = true
		p.refresh()
	}
	if p.oldBlocks() {
		p.release()
		return
	}
	p.checked(run == runSmall, func(DBEstimate, string) { p.run(run == runSmall, true) })
}

// runOf returns the name of a computation in the preferences.
func runOf(small bool) string {
	if small {
		return runSmall
	}
	return runComplete
}

// forgetRun forgets the remembered computation: it has finished.
func (p *dbPanel) forgetRun() {
	prefs := p.u.app.Preferences()
	prefs.RemoveValue(prefDBRun)
	prefs.RemoveValue(prefDBRunDir)
	prefs.RemoveValue(prefDBRunGame)
	prefs.RemoveValue(prefDBRunStones)
	prefs.RemoveValue(prefDBRedo)
	prefs.RemoveValue(prefDBParts)
	prefs.RemoveValue(prefDBTime)
	prefs.RemoveValue(prefDBWork)
}

// compute starts computing anew (Database.Compute) in the background.
func (p *dbPanel) compute(small bool) { p.run(small, false) }

// run runs Database.Compute in the background, remembered in the
// preferences until it finishes; with resume it continues the computation
// remembered, counting its parts and time on from there.
func (p *dbPanel) run(small, resume bool) {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	run := runOf(small)
	prefs := p.u.app.Preferences()
	p.base = runBase{}
	if _, redo := p.pending(); resume && redo != "" {
		p.base = runBase{Parts: prefs.Int(prefDBParts), Elapsed: time.Duration(prefs.Float(prefDBTime) * float64(time.Second)),
			Work: prefs.Float(prefDBWork)}
		p.redo = redo
	} else {
		p.redo = "computing the first part again from its start."
	}
	prefs.SetString(prefDBRun, run)
	prefs.SetString(prefDBRunDir, p.db.Dir())
	prefs.SetString(prefDBRunGame, p.db.Game().Rules().ID)
	prefs.SetInt(prefDBRunStones, p.db.Game().Stones)
	p.running, p.redoAt = run, ""
	p.saveRun()
	p.start(func(ctx context.Context, progress func(DBProgress)) error {
		return p.db.Compute(ctx, small, progress)
	})
}

// startRepair runs Database.Repair in the background.
func (p *dbPanel) startRepair() {
	if p.stop != nil || p.oldBlocks() {
		return
	}
	p.running, p.base = "", runBase{}
	p.start(p.db.Repair)
}

// saveRun remembers in the preferences what resuming the running
// computation redoes and what it keeps (runBase).
func (p *dbPanel) saveRun() {
	prefs := p.u.app.Preferences()
	prefs.SetString(prefDBRedo, p.redo)
	b := p.base
	if p.seen {
		b = p.shown.Kept()
	}
	prefs.SetInt(prefDBParts, b.Parts)
	prefs.SetFloat(prefDBTime, b.Elapsed.Seconds())
	prefs.SetFloat(prefDBWork, b.Work)
}

// start runs a computation in a goroutine; progress and the end reach the
// widgets through do.
func (p *dbPanel) start(work func(ctx context.Context, progress func(DBProgress)) error) {
	if p.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.stop, p.seen, p.hold = cancel, false, false
	p.mu.Lock()
	p.cancel = cancel
	p.last = time.Time{} // the run's first progress is shown
	p.mu.Unlock()
	p.bar.SetValue(0)
	p.overall.SetValue(0)
	p.say("Starting…")
	p.refresh()
	go func() {
		err := work(ctx, func(pr DBProgress) {
			p.mu.Lock()
			now := time.Now()
			// A conversion reports once a layer: each is shown.
			if p.closed || now.Sub(p.last) < 100*time.Millisecond && pr.Fraction < 1 && !pr.Converting {
				p.mu.Unlock()
				return
			}
			p.last = now
			p.mu.Unlock()
			p.do(func() { p.show(pr) })
		})
		p.mu.Lock()
		stopped := p.stopped
		p.mu.Unlock()
		if !stopped {
			p.do(func() { p.finished(err) })
		}
	}()
}

// appStopped stops the running computation when the program stops; it is
// called off the UI thread, and touches no widget. The computation stays
// remembered in the preferences: the next start offers to resume it.
func (p *dbPanel) appStopped() {
	p.mu.Lock()
	p.closed, p.stopped = true, true
	cancel := p.cancel
	p.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// show passes progress pr to the widgets, and remembers what resuming
// would redo.
func (p *dbPanel) show(pr DBProgress) {
	if p.stop == nil {
		return // finished or cancelled meanwhile
	}
	pr = pr.After(p.base)
	p.shown, p.seen = pr, true
	p.bar.SetValue(pr.Part)
	p.overall.SetValue(pr.Overall)
	if !p.pausing {
		p.say(pr.Lines())
	}
	// The layers are drawn again when the part changes, else once a
	// second: a game of many layers (Lasker Morris) reads thousands of
	// headers for them.
	if time.Since(p.drawn) >= time.Second || pr.Unit != p.drawnAt {
		p.summary.SetText(p.db.Summary())
		p.drawn, p.drawnAt = time.Now(), pr.Unit
	}
	if p.converting || p.compressing || p.running == "" {
		return
	}
	p.redo = pr.RedoWords()
	p.setNote(p.busyNote())
	// The preferences are written when the part or its phase changes, not
	// with every percent; pausing and closing write the last words.
	if at := fmt.Sprint(pr.Step, pr.Unit, pr.Verifying); at != p.redoAt {
		p.redoAt = at
		p.saveRun()
	}
}

// busyNote says what pausing does now.
func (p *dbPanel) busyNote() string {
	return "Pause stops at once; " + resumeSays + p.redo
}

func (p *dbPanel) finished(err error) {
	p.stop, p.pausing = nil, false
	p.mu.Lock()
	p.cancel = nil
	p.mu.Unlock()
	prefs := p.u.app.Preferences()
	if s := p.db.Speed(); s > 0 {
		prefs.SetFloat(prefDBSpeed, s)
	}
	// The tab follows the board again below: a computation of another
	// game says whose it was.
	of := ""
	if v := p.db.Game(); v != p.u.variant {
		of = " (" + v.Name() + ")"
	}
	switch {
	case p.converting:
		p.convertFinished(err)
		p.converting = false
	case p.compressing:
		p.compressFinished(err)
		p.compressing = false
	case errors.Is(err, context.Canceled):
		if p.running != "" {
			p.saveRun()
		}
		p.say("Paused" + of + ". The finished parts are kept.")
	case err != nil:
		p.say("Failed" + of + ": " + err.Error())
	default:
		if p.running != "" {
			p.forgetRun()
		}
		p.bar.SetValue(1)
		p.overall.SetValue(1)
		p.say("Done" + of + ".")
	}
	p.running = ""
	p.refresh()
	p.u.databaseChanged()
	p.offerRepair()
}

// offerFolder offers what the folder needs: converting its layers of the
// older format, else recomputing its damaged layers.
func (p *dbPanel) offerFolder() {
	if !p.offerConvert() {
		p.offerRepair()
	}
}

// offerRepair asks whether to recompute the damaged layers, once for each
// set of damaged layers found.
//
// Not while the folder holds layers of the older format: they are
// converted first (offerConvert), and the solver would refuse the folder.
func (p *dbPanel) offerRepair() {
	d := p.db.Damaged()
	if d == "" || d == p.offered || p.stop != nil || p.db.Old().Layers > 0 {
		return
	}
	p.offered = d
	msg := fmt.Sprintf("These layers in\n%s\nare damaged: %s.\n"+
		"The players treat them as missing (alpha-beta plays there).\nRecompute them now?", p.db.Dir(), d)
	dialog.ShowConfirm("Damaged layers", msg, func(yes bool) {
		if yes {
			p.startRepair()
		}
	}, p.u.win)
}

// shutdown cancels a running computation when the window closes or the
// program quits, so that the solver stops cleanly (keeping the finished
// layers) and sends no more progress to widgets that are going away. The
// computation stays remembered: the next start offers to resume it. It is
// called on the UI thread.
func (p *dbPanel) shutdown() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	if p.stop != nil {
		if p.running != "" {
			p.saveRun()
		}
		p.stop()
	}
}

// pauseCompute stops the running computation at once; the finished parts
// are kept and Resume continues.
func (p *dbPanel) pauseCompute() {
	if p.stop != nil {
		p.stop()
		p.pausing = true
		p.say("Pausing: the solver stops at its next check…")
		if p.converting {
			p.say("Pausing: the layer being converted is finished first…")
		}
		if p.compressing {
			p.say("Pausing: the layer being compressed is finished first…")
		}
		p.pause.Disable()
	}
}

// chooseDir lets the person pick another database folder.
func (p *dbPanel) chooseDir() {
	dialog.ShowFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			p.say("Folder: " + err.Error())
			return
		}
		if l == nil {
			return
		}
		if err := p.db.SetDir(l.Path()); err != nil {
			p.say(fmt.Sprintf("Cannot use %s: %v", l.Path(), err))
			return
		}
		p.u.app.Preferences().SetString(prefDBDir, l.Path())
		p.refresh()
		p.u.databaseChanged()
		p.offerFolder()
	}, p.u.win)
}

// offerSmall asks, on the first start without any database, whether to
// compute the small endgame layers now; on a start after an interrupted
// computation, whether to resume it; on a start in a folder with layers of
// the older format, whether to convert them (first: nothing is computed
// there before).
func (p *dbPanel) offerSmall() {
	if p.offerConvert() {
		return
	}
	if run, redo := p.pending(); run != "" {
		msg := fmt.Sprintf("The computation of %s in\n%s\nwas interrupted (paused, or the program was closed).\n"+
			"Resume it now?\nIt continues, %s", p.runNamed(run, p.pendingGame()), p.db.Dir(), redo)
		dialog.ShowConfirm("Resume the computation?", msg, func(yes bool) {
			if yes {
				p.resumeCompute()
			}
		}, p.u.win)
		return
	}
	prefs := p.u.app.Preferences()
	if !p.db.Empty() || prefs.BoolWithFallback(prefOffered, false) {
		p.offerRepair()
		return
	}
	prefs.SetBool(prefOffered, true)
	of := ""
	if v := p.db.Game(); v != muehle.NineMensMorris {
		of = " of " + v.Name()
	}
	msg := fmt.Sprintf("There is no database%s in\n%s\nyet. Compute the small endgame layers (%s) now?\n"+
		"This takes under a minute; the perfect player and the perfect-move marks\n"+
		"then work in those endgames. The Database tab computes the rest.",
		of, p.db.Dir(), p.db.SmallDescription())
	dialog.ShowConfirm("No database yet", strings.TrimSpace(msg), func(yes bool) {
		if yes {
			p.compute(true)
		}
	}, p.u.win)
}

// memoryChoices are the choices of the Memory setting in MiB: the bound
// of what each open database's compressed layers take decoded (the
// decoded blocks the players' probes keep, and the layers decoded in
// full), 1 GiB by default (layers.DefaultCacheBytes).
var memoryChoices = []int64{256, 512, 1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10}

// memoryText names a choice of memoryChoices: "512 MiB", "2 GiB".
func memoryText(mib int64) string {
	if mib >= 1<<10 && mib%(1<<10) == 0 {
		return fmt.Sprintf("%d GiB", mib>>10)
	}
	return fmt.Sprintf("%d MiB", mib)
}

// newMemory makes the Memory setting, set to the bound kept in the
// preferences (1 GiB when none), and applies that bound to the database.
// Choosing another applies it to every open database and keeps it.
func (p *dbPanel) newMemory() {
	var names []string
	byName := map[string]int64{}
	for _, mib := range memoryChoices {
		names = append(names, memoryText(mib))
		byName[memoryText(mib)] = mib
	}
	prefs := p.u.app.Preferences()
	mib := int64(prefs.IntWithFallback(prefDBMemory, layers.DefaultCacheBytes>>20))
	if mib <= 0 {
		mib = layers.DefaultCacheBytes >> 20
	}
	p.db.SetCacheBytes(mib << 20)
	p.memory = widget.NewSelect(names, nil)
	p.memory.SetSelected(memoryText(mib))
	if p.memory.Selected == "" { // a bound not among the choices (set by hand)
		p.memory.PlaceHolder = memoryText(mib)
	}
	p.memory.OnChanged = func(s string) {
		if mib, ok := byName[s]; ok {
			p.db.SetCacheBytes(mib << 20)
			prefs.SetInt(prefDBMemory, int(mib))
		}
	}
}
