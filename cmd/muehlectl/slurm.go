package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"muehle/layers"
	"muehle/muehle"
	"muehle/retro"
)

func init() {
	register("slurm", "solve on a cluster: the units as Slurm jobs chained by their dependencies", runSlurm)
}

// slurmArgs are the checked flags of slurm.
type slurmArgs struct {
	db       dbFlags
	opts     retro.SolveOptions
	cpus     int
	array    bool
	jobs     string // folder of the job scripts and their output
	program  string // muehlectl as the nodes run it
	margin   float64
	extra    []string // more sbatch arguments
	noVerify bool
	dryRun   bool
	submit   bool
	sbatch   string
	squeue   string
}

// parseSlurm parses and checks the flags of slurm.
func parseSlurm(args []string, stderr io.Writer) (slurmArgs, error) {
	fs := newFlags("slurm", "[--db DIR] [--stones K] [--max-stones N | --placement | --all-phases] [--cpus C] [--array] [--jobs DIR] [--muehlectl PATH] [--mem-margin F] [--sbatch-args ARGS] [--no-verify] [--dry-run | --submit]", stderr)
	a := slurmArgs{db: addDBFlags(fs)}
	sel := addLayerFlags(fs)
	cpus := fs.Int("cpus", 1, "--cpus-per-task of each job (the solver's workers)")
	array := fs.Bool("array", false, "one job array per level instead of one job per unit")
	jobs := fs.String("jobs", "", "`folder` for the job scripts and the jobs' output, on the shared file system (default DIR/slurm-k<K>)")
	program := fs.String("muehlectl", "", "`path` of muehlectl on the nodes (default: this program)")
	margin := fs.Float64("mem-margin", 1.25, "--mem of a job: the plan's expected memory times this")
	extra := fs.String("sbatch-args", "", "more sbatch `arguments` for every job, space-separated (--partition=x --account=y --time=…)")
	noVerify := fs.Bool("no-verify", false, "the jobs skip verifying their layers")
	dryRun := fs.Bool("dry-run", false, "print the sbatch commands; write and submit nothing")
	submit := fs.Bool("submit", false, "submit the jobs with sbatch (without it the scripts are written and the commands printed)")
	sbatch := fs.String("sbatch", "sbatch", "the sbatch `program`")
	squeue := fs.String("squeue", "squeue", "the squeue `program` (--submit asks it which units are queued already)")
	if err := parseFlags(fs, args); err != nil {
		return a, err
	}
	opts, err := sel.options(a.db.perSide())
	if err == nil {
		err = a.db.check()
	}
	if err == nil {
		err = inRange("--cpus", *cpus, 1, 1<<16, "")
	}
	if err == nil && (*margin < 1 || *margin > 100 || math.IsNaN(*margin)) {
		err = fmt.Errorf("--mem-margin %g: want 1 to 100", *margin)
	}
	if err == nil && *dryRun && *submit {
		err = errors.New("--dry-run and --submit: give one")
	}
	if err != nil {
		return a, flagError(fs, err)
	}
	a.opts, a.cpus, a.array, a.margin, a.noVerify = opts, *cpus, *array, *margin, *noVerify
	a.dryRun, a.submit, a.sbatch, a.squeue = *dryRun, *submit, *sbatch, *squeue
	a.extra = strings.Fields(*extra)
	a.jobs, a.program = *jobs, *program
	if a.jobs == "" {
		a.jobs = layers.JobsDir(*a.db.dir, a.db.variant())
	}
	if a.program == "" {
		if a.program, err = os.Executable(); err != nil {
			return a, fmt.Errorf("finding this program for the jobs (give --muehlectl): %w", err)
		}
	}
	for _, p := range []*string{&a.jobs, a.db.dir, &a.program} {
		if abs, err := filepath.Abs(*p); err == nil {
			*p = abs // the jobs run in another folder
		}
	}
	return a, nil
}

// slurmJob is one sbatch submission: a unit, or a level of units as an
// array.
type slurmJob struct {
	name   string // the job's name: muehle-k5-m3-4, muehle-k5-level03
	file   string // the script's file name in the jobs folder
	units  []plannedUnit
	deps   []string // the names of the jobs it waits for
	script string
}

// slurmJobs returns the jobs that compute the units of p not done yet, in
// order of submission.
func (a slurmArgs) slurmJobs(p plan) []slurmJob {
	var jobs []slurmJob
	if a.array {
		prev := ""
		for level := range maxLevel(p.Units) + 1 {
			j := slurmJob{name: fmt.Sprintf("%s-level%02d", a.jobPrefix(p.Stones), level), file: fmt.Sprintf("level%02d.sh", level)}
			for _, u := range p.Units {
				if u.Level == level && !a.done(u) {
					j.units = append(j.units, u)
				}
			}
			if len(j.units) == 0 {
				continue
			}
			if prev != "" {
				j.deps = []string{prev} // the levels form a chain: afterok on it is afterok on all before
			}
			j.script = a.script(a.db.variant().Game.With(p.Stones), j.units)
			jobs = append(jobs, j)
			prev = j.name
		}
		return jobs
	}
	jobOf := map[string]string{}
	for _, u := range p.Units {
		if a.done(u) {
			continue
		}
		j := slurmJob{name: fmt.Sprintf("%s-%s", a.jobPrefix(p.Stones), u.Name), file: u.Name + ".sh", units: []plannedUnit{u}}
		for _, d := range u.Deps {
			if name, ok := jobOf[d]; ok {
				j.deps = append(j.deps, name)
			}
		}
		j.script = a.script(a.db.variant().Game.With(p.Stones), j.units)
		jobs = append(jobs, j)
		jobOf[u.Name] = j.name
	}
	return jobs
}

// jobPrefix returns the start of the jobs' names: muehle-k9 for the
// standard game, muehle-twelve-k12 for another.
func (a slurmArgs) jobPrefix(stones int) string {
	if g := a.db.variant().Game; g != muehle.Standard {
		return fmt.Sprintf("muehle-%s-k%d", g, stones)
	}
	return fmt.Sprintf("muehle-k%d", stones)
}

// done reports whether unit u needs no job.
func (a slurmArgs) done(u plannedUnit) bool {
	return u.done() || a.noVerify && u.Status == "unverified"
}

// script returns the job script that computes units: one unit, or as a job
// array task the unit of its index.
func (a slurmArgs) script(v muehle.Variant, units []plannedUnit) string {
	stones := v.Stones
	game := "" // the standard game's command lines name no game, as before there were others
	if v.Game != muehle.Standard {
		game = " --game " + v.Game.String()
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	unit := units[0].Name
	if len(units) > 1 || a.array {
		names := make([]string, len(units))
		for i, u := range units {
			names[i] = u.Name
		}
		fmt.Fprintf(&b, "# muehlectl slurm: level %d of the k=%d game, %d units; array task i computes the i-th.\n", units[0].Level, stones, len(units))
		fmt.Fprintf(&b, "set -- %s\nshift \"${SLURM_ARRAY_TASK_ID:?not a task of a job array}\"\n", strings.Join(names, " "))
		unit = `"$1"`
	} else {
		fmt.Fprintf(&b, "# muehlectl slurm: unit %s (%s) of the k=%d game.\n", unit, strings.Join(units[0].Layers, " + "), stones)
	}
	fmt.Fprintf(&b, "exec %s solve --db %s%s --stones %d --unit %s --workers \"${SLURM_CPUS_PER_TASK:-%d}\" --wait", shellQuote(a.program), shellQuote(*a.db.dir), game, stones, unit, a.cpus)
	if a.noVerify {
		b.WriteString(" --no-verify")
	}
	b.WriteString("\n")
	return b.String()
}

// sbatchArgs returns the arguments of sbatch for job j, with ids giving the
// job ids of the jobs it depends on.
func (a slurmArgs) sbatchArgs(j slurmJob, ids []string) []string {
	var mem uint64
	for _, u := range j.units {
		mem = max(mem, u.MemBytes)
	}
	memMiB := uint64(math.Ceil(float64(mem) * a.margin / (1 << 20)))
	args := []string{"--parsable", "--job-name=" + j.name, fmt.Sprintf("--mem=%dM", memMiB),
		fmt.Sprintf("--cpus-per-task=%d", a.cpus)}
	out := strings.TrimSuffix(j.file, ".sh") + "-%j.out"
	if a.array {
		args = append(args, fmt.Sprintf("--array=0-%d", len(j.units)-1))
		out = strings.TrimSuffix(j.file, ".sh") + "-%A_%a.out"
	}
	args = append(args, "--output="+filepath.Join(a.jobs, out))
	if len(ids) > 0 {
		args = append(args, "--dependency=afterok:"+strings.Join(ids, ":"), "--kill-on-invalid-dep=yes")
	}
	args = append(args, a.extra...)
	return append(args, filepath.Join(a.jobs, j.file))
}

func runSlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	a, err := parseSlurm(args, stderr)
	if err != nil {
		return err
	}
	db, err := a.db.open()
	if err != nil {
		return err
	}
	defer db.Close()
	p := makePlan(db, a.opts, 1, a.cpus, false)
	jobs := a.slurmJobs(p)
	units := 0
	for _, j := range jobs {
		units += len(j.units)
	}
	mode := "written, not submitted (--submit submits)"
	switch {
	case a.dryRun:
		mode = "not written (--dry-run)"
	case a.submit:
		mode = "submitted"
	}
	fmt.Fprintf(stdout, "# muehlectl slurm: k=%d, %d units, %d to compute in %d jobs; scripts in %s, %s\n",
		p.Stones, len(p.Units), units, len(jobs), a.jobs, mode)
	if len(jobs) == 0 {
		fmt.Fprintln(stdout, "# every unit is complete: nothing to submit")
		return nil
	}
	if !a.dryRun {
		if err := os.MkdirAll(a.jobs, 0o755); err != nil {
			return fmt.Errorf("writing the job scripts: %w", err)
		}
		for _, j := range jobs {
			if err := os.WriteFile(filepath.Join(a.jobs, j.file), []byte(j.script), 0o755); err != nil {
				return fmt.Errorf("writing the job scripts: %w", err)
			}
		}
	}
	if !a.submit {
		for _, j := range jobs {
			ids := make([]string, len(j.deps))
			for i, d := range j.deps {
				ids[i] = "$" + shellVar(d)
			}
			fmt.Fprintf(stdout, "%s=$(%s %s)\n", shellVar(j.name), a.sbatch, shellJoin(a.sbatchArgs(j, ids)))
		}
		return nil
	}
	return a.submitJobs(ctx, jobs, stdout)
}

// submitJobs submits jobs with sbatch, each after the jobs it depends on.
// A job of the same name already in the queue (an earlier run's) is not
// submitted again; its id stands in for it.
func (a slurmArgs) submitJobs(ctx context.Context, jobs []slurmJob, stdout io.Writer) error {
	queued, err := a.queued(ctx)
	if err != nil {
		return err
	}
	id := map[string]string{}
	for _, j := range jobs {
		if q, ok := queued[j.name]; ok {
			id[j.name] = q
			fmt.Fprintf(stdout, "%s: in the queue already as job %s\n", j.name, q)
			continue
		}
		var ids []string
		for _, d := range j.deps {
			ids = append(ids, id[d])
		}
		var out, errOut bytes.Buffer
		cmd := exec.CommandContext(ctx, a.sbatch, a.sbatchArgs(j, ids)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("submitting %s: %s: %w: %s", j.name, a.sbatch, err, strings.TrimSpace(errOut.String()))
		}
		jobID, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
		if _, err := strconv.ParseUint(jobID, 10, 64); err != nil {
			return fmt.Errorf("submitting %s: %s printed %q, want a job id", j.name, a.sbatch, out.String())
		}
		id[j.name] = jobID
		after := ""
		if len(ids) > 0 {
			after = " after " + strings.Join(ids, ", ")
		}
		fmt.Fprintf(stdout, "%s: job %s%s\n", j.name, jobID, after)
	}
	return nil
}

// queued returns the jobs in the queue by name: id.
func (a slurmArgs) queued(ctx context.Context) (map[string]string, error) {
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, a.squeue, "--noheader", "--format=%F %j")
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("asking %s which jobs are queued: %w: %s", a.squeue, err, strings.TrimSpace(errOut.String()))
	}
	q := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			q[name] = id
		}
	}
	return q, nil
}

// shellVar turns a job name into a shell variable name.
func shellVar(name string) string {
	return strings.NewReplacer("-", "_", "+", "_").Replace(name)
}

// shellJoin quotes args for a shell command line where needed; $variables
// stay expandable.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, s := range args {
		q[i] = s
		if strings.ContainsAny(s, " '\"\\`;&|<>()*?[]#~!{}") {
			q[i] = shellQuote(s)
		}
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
