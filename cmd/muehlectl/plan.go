package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"muehle/layers"
	"muehle/retro"
)

func init() {
	register("plan", "the units of work of a game, their dependencies and expected cost", runPlan)
}

// planArgs are the checked flags of plan.
type planArgs struct {
	db        dbFlags
	opts      retro.SolveOptions
	json      bool
	nodes     int
	cpus      int
	calibrate []string // solve records to compare the model with
}

// parsePlan parses and checks the flags of plan.
func parsePlan(args []string, stderr io.Writer) (planArgs, error) {
	fs := newFlags("plan", "[--db DIR] [--stones K] [--max-stones N | --placement | --all-phases] [--compress] [--json] [--nodes N] [--cpus C] [--calibrate RECORD,...]", stderr)
	a := planArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	compress := fs.Bool("compress", false, "the plan of solve --compress: the layers kept compressed once verified, so that a unit decodes the finished layers it reads and finds their won depths (the layers present count as they are kept)")
	jsonOut := fs.Bool("json", false, "print the plan as JSON")
	nodes := fs.Int("nodes", 1, "machines for the wall-time estimate")
	cpus := fs.Int("cpus", runtime.NumCPU(), "cores per machine for the wall-time estimate")
	calibrate := fs.String("calibrate", "", "compare the cost model with the units of these solve records (k<K>/solve-record.tsv of a database folder, of the game of --stones; comma-separated files) instead")
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	opts, err := sel.options(a.db.perSide())
	if err == nil {
		err = a.db.check()
	}
	if err == nil {
		err = inRange("--nodes", *nodes, 1, 1<<20, "")
	}
	if err == nil {
		err = inRange("--cpus", *cpus, 1, 1<<16, "")
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	opts.Compress = *compress
	a.opts, a.json, a.nodes, a.cpus = opts, *jsonOut, *nodes, *cpus
	if *calibrate != "" {
		a.calibrate = strings.Split(*calibrate, ",")
	}
	return a, nil
}

// plannedUnit is a unit of the plan with its expected cost and its state in
// the database folder.
type plannedUnit struct {
	Name       string   `json:"name"`
	Layers     []string `json:"layers"`
	Level      int      `json:"level"`
	Slots      uint64   `json:"slots"`
	Deps       []string `json:"deps"`
	MemBytes   uint64   `json:"mem_bytes"`
	CPUSeconds float64  `json:"cpu_seconds"`
	// DiskBytes is the size of the unit's layer files, TempBytes the
	// temporary disk space while it is computed (retro.Cost).
	DiskBytes uint64 `json:"disk_bytes"`
	TempBytes uint64 `json:"temp_bytes"`
	// Status is "verified", "unverified" (complete, verification to do),
	// "partial" (some layers written), "missing" or "damaged", and
	// "claimed by …" while a solver holds the unit.
	Status string `json:"status"`
}

// done reports whether the unit needs no more work.
func (u plannedUnit) done() bool { return u.Status == "verified" }

// plan is what plan prints.
type plan struct {
	Stones int           `json:"stones"`
	Units  []plannedUnit `json:"units"`
	// CPUSeconds is the expected processor time of all units, and
	// LeftCPUSeconds of those not done yet.
	CPUSeconds     float64 `json:"cpu_seconds"`
	LeftCPUSeconds float64 `json:"left_cpu_seconds"`
	// LeftReadCPUSeconds is the part of LeftCPUSeconds spent reading
	// finished layers kept compressed (retro.Cost.ReadCPUSeconds), and
	// Compress says the layers computed will be kept so (--compress).
	LeftReadCPUSeconds float64 `json:"left_read_cpu_seconds"`
	Compress           bool    `json:"compress"`
	// LeftDiskBytes is the disk space of the layer files not done yet,
	// and MaxTempBytes the most temporary space one of them needs.
	LeftDiskBytes uint64 `json:"left_disk_bytes"`
	MaxTempBytes  uint64 `json:"max_temp_bytes"`
	// MaxDiskBytes is the largest layer files of one unit not done yet,
	// which lie flat until verified when solved with --compress.
	MaxDiskBytes uint64 `json:"max_disk_bytes"`
	// KeptFlatBytes is the most that layers kept flat for their placement
	// parents take beyond compressed while the units left are solved with
	// --compress, reached after unit KeptFlatAt (retro.KeptFlatPeak).
	KeptFlatBytes uint64 `json:"kept_flat_bytes"`
	KeptFlatAt    string `json:"kept_flat_at,omitempty"`
	// MemBudget is the memory budget the units are costed with: a solve's
	// on this machine when the plan is for one (0: several machines, as
	// much as each unit asks for).
	MemBudget uint64 `json:"mem_budget_bytes"`
	// FreeBytes is the free space of the database folder's disk (0: not
	// known).
	FreeBytes uint64 `json:"free_bytes"`
	// WallSeconds is the expected wall time of the units not done yet on
	// Nodes machines of CPUs cores each (wallTime).
	Nodes       int     `json:"nodes"`
	CPUs        int     `json:"cpus_per_node"`
	WallSeconds float64 `json:"wall_seconds"`
}

// makePlan returns the units of opts with their cost and their state in db
// (read from the headers and records, not the bodies: cheap on any size).
// With oneProcess the units left are costed as one solve runs them, in
// order, a layer held decoded from an earlier unit not read again
// (retro.CostOptions.Held); else each as a unit run alone (a Slurm job).
func makePlan(db *layers.DB, opts retro.SolveOptions, nodes, cpus int, oneProcess bool) plan {
	ix := db.Indexer()
	claims, _ := db.Claims()
	p := plan{Stones: db.Stones(), Nodes: nodes, CPUs: cpus, Compress: opts.Compress}
	var budget int64 // a Slurm plan's machines: as much memory as a unit asks for
	if oneProcess {
		budget = retro.DefaultMemBytes()
	}
	co := modelOptions(db, opts, budget)
	p.MemBudget = uint64(budget)
	run := co
	if oneProcess {
		run.Held = retro.NewHeldLayers(ix, db.Variant(), opts)
	}
	units := retro.Units(db.Variant(), opts)
	done := map[retro.UnitName]bool{}
	for _, u := range units {
		status, uo := unitStatus(db, u), run
		if status == "verified" {
			uo = co // not run again
		}
		c := retro.UnitCostWith(ix, u, uo)
		pu := plannedUnit{Name: string(u.Name), Level: u.Level, Slots: u.Slots(ix), Deps: []string{},
			MemBytes: c.MemBytes, CPUSeconds: c.CPUSeconds, DiskBytes: c.DiskBytes, TempBytes: c.TempBytes,
			Status: status}
		for _, d := range u.Deps {
			pu.Deps = append(pu.Deps, string(d))
		}
		for _, k := range u.Keys {
			pu.Layers = append(pu.Layers, k.String())
		}
		if i, ok := claims[string(u.Name)]; ok && !pu.done() {
			pu.Status = "claimed by " + i.String()
		}
		p.CPUSeconds += c.CPUSeconds
		if !pu.done() {
			p.LeftCPUSeconds += c.CPUSeconds
			p.LeftReadCPUSeconds += c.ReadCPUSeconds
			p.LeftDiskBytes += c.DiskBytes
			p.MaxTempBytes = max(p.MaxTempBytes, c.TempBytes)
			p.MaxDiskBytes = max(p.MaxDiskBytes, c.DiskBytes)
		}
		p.Units = append(p.Units, pu)
		done[u.Name] = pu.done()
	}
	flat, at := retro.KeptFlatPeak(ix, units, func(u retro.Unit) bool { return done[u.Name] })
	p.KeptFlatBytes, p.KeptFlatAt = flat, string(at)
	p.WallSeconds = wallTime(p.Units, nodes, cpus)
	dir := db.Dir()
	for dir != filepath.Dir(dir) { // the folder may not exist yet: its nearest parent that does
		if _, err := os.Stat(dir); err == nil {
			break
		}
		dir = filepath.Dir(dir)
	}
	p.FreeBytes, _ = layers.FreeBytes(dir)
	return p
}

// unitStatus returns the state of unit u in db, from the layers' headers
// and verification records.
func unitStatus(db *layers.DB, u retro.Unit) string {
	has, verified := 0, 0
	for _, k := range u.Keys {
		if db.Damage(k) != nil {
			return "damaged"
		}
		if db.Has(k) {
			has++
		}
		if db.Verified(k) {
			verified++
		}
	}
	switch {
	case verified == len(u.Keys):
		return "verified"
	case has == len(u.Keys):
		return "unverified"
	case has > 0:
		return "partial"
	}
	return "missing"
}

// wallTime estimates the wall time of the units not done yet on nodes
// machines of cpus cores each: level after level (the units of a level are
// independent; a level waits for the one before), the units of a level
// assigned longest first to the machine free soonest, each unit using all
// cores of its machine.
func wallTime(units []plannedUnit, nodes, cpus int) float64 {
	var total float64
	for level := range maxLevel(units) + 1 {
		var times []float64
		for _, u := range units {
			if u.Level == level && !u.done() {
				times = append(times, retro.WallSeconds(u.CPUSeconds, cpus))
			}
		}
		slices.Sort(times)
		busy := make([]float64, min(nodes, len(times)))
		for i := len(times) - 1; i >= 0; i-- {
			j := slices.Index(busy, slices.Min(busy))
			busy[j] += times[i]
		}
		if len(busy) > 0 {
			total += slices.Max(busy)
		}
	}
	return total
}

// maxLevel returns the highest level of units, -1 for none.
func maxLevel(units []plannedUnit) int {
	m := -1
	for _, u := range units {
		m = max(m, u.Level)
	}
	return m
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parsePlan(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.open()
	if err != nil {
		return err
	}
	defer db.Close()
	if a.calibrate != nil {
		return calibrate(stdout, db, a.calibrate)
	}
	p := makePlan(db, a.opts, a.nodes, a.cpus, a.nodes == 1)
	if a.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	printPlan(stdout, p)
	return nil
}

// printPlan writes the plan as a table and a summary.
func printPlan(w io.Writer, p plan) {
	left, largest := 0, plannedUnit{}
	for _, u := range p.Units {
		if !u.done() {
			left++
		}
		if u.MemBytes > largest.MemBytes {
			largest = u
		}
	}
	fmt.Fprintf(w, "k=%d: %d units in %d levels, %d to do; expected %s of processor time in all, %s for what is left\n",
		p.Stones, len(p.Units), maxLevel(p.Units)+1, left, seconds(p.CPUSeconds), seconds(p.LeftCPUSeconds))
	if p.LeftReadCPUSeconds > 0 {
		fmt.Fprintf(w, "of the processor time left, %s reads the finished layers kept compressed (decoding them, and finding the won depths of form 2; retro/cost.go)\n",
			seconds(p.LeftReadCPUSeconds))
	}
	fmt.Fprintf(w, "%-5s %-10s %-20s %13s %9s %10s  %-24s %s\n", "level", "unit", "layers", "slots", "memory", "core-time", "needs", "status")
	for _, u := range p.Units {
		deps := strings.Join(u.Deps, ",")
		if deps == "" {
			deps = "-"
		}
		fmt.Fprintf(w, "%-5d %-10s %-20s %13d %9s %10s  %-24s %s\n", u.Level, u.Name, strings.Join(u.Layers, " + "),
			u.Slots, mib(u.MemBytes), seconds(u.CPUSeconds), deps, u.Status)
	}
	fmt.Fprintf(w, "largest memory: %s (unit %s)", mib(largest.MemBytes), largest.Name)
	if p.MemBudget > 0 {
		fmt.Fprintf(w, "; the memory budget of a solve here: %s, three quarters of the memory (above it a moving unit keeps its state in a file, and a placement unit reads its children's layers where they lie)", mib(p.MemBudget))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "disk for what is left: %s of layer files, and up to %s more while a unit is computed (its work lists)\n",
		mib(p.LeftDiskBytes), mib(p.MaxTempBytes))
	compressed, need := retro.KeptCompressed(p.LeftDiskBytes, p.MaxDiskBytes, p.MaxTempBytes, p.KeptFlatBytes)
	fits := "fits"
	if need > p.FreeBytes {
		fits = "does not fit"
	}
	flat := ""
	if p.KeptFlatBytes > 0 {
		flat = fmt.Sprintf(" and %s of layers kept flat for their placement parents (after unit %s, retro/keepflat.go)", mib(p.KeptFlatBytes), p.KeptFlatAt)
	}
	fmt.Fprintf(w, "solved with --compress: about %s of layer files (%.0f %% of that, retro.CompressedShare: measured on the standard game's largest layers, and the share zstd adds), at most %s while the largest unit lies flat until verified%s; %s free here: it %s\n",
		mib(compressed), 100*retro.CompressedShare, mib(need), flat, mib(p.FreeBytes), fits)
	fmt.Fprintf(w, "expected wall time of what is left on %d machine(s) of %d cores: %s (levels one after another, the units of a level spread over the machines;\n"+
		"  the model's rates were measured on %d cores, the standard game's on the idle machine, and are good to a factor 2 to 4, retro/cost.go)\n",
		p.Nodes, p.CPUs, seconds(p.WallSeconds), retro.CalibrationCores)
}

// mib formats bytes as MiB.
func mib(b uint64) string { return fmt.Sprintf("%d MiB", (b+(1<<20)-1)>>20) }

// seconds formats a duration in seconds, rounded to what matters.
func seconds(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d >= time.Hour:
		d = d.Round(time.Minute)
	case d >= time.Minute:
		d = d.Round(time.Second)
	default:
		d = d.Round(100 * time.Millisecond)
	}
	return d.String()
}

// modelOptions returns the cost options plan and plan --calibrate cost
// the units of db with: the layers they read as they lie, or as opts keeps
// those not computed yet (--compress); a solver's memory budget of
// memBytes (0: the state words in memory whatever their size, and every
// placement unit's children copied, as on a machine with the memory the
// plan asks for).
func modelOptions(db *layers.DB, opts retro.SolveOptions, memBytes int64) retro.CostOptions {
	co := retro.CostOptionsFor(db, opts)
	co.MemBytes = memBytes
	return co
}
