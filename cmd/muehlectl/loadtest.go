package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"muehle/cmd/muehlectl/serve"
	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("loadtest", "measure muehlectl serve under load on this machine (loopback only)", runLoadtest)
}

func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("loadtest", "[--db DIR] [--game NAME] [--clients 1,16,256] [--rate 0,5000] [--time 5s] [--positions N] [--sample layers|games] [--seed S] [--cache-mb N] [--ties=false] [--server-cpus LIST] [--server-bin PROGRAM] [--url http://127.0.0.1:PORT]", stderr)
	dir := fs.String("db", layers.DefaultDir(), "database `directory`: the server is started on it, in a process of its own on a loopback port, and the positions are drawn from it")
	game := fs.String("game", "", "the database to ask, by its name in the API (standard, standard-k5, lasker, ...; default the first of /api/v1/)")
	clientList := fs.String("clients", "1,16,256", "the numbers of concurrent clients, one run each")
	rateList := fs.String("rate", "0", "requests a second of all clients together, one set of runs each: 0 as fast as the server answers (a closed loop), else on a fixed schedule (an open loop: the latency counts from the time each request was due)")
	d := fs.Duration("time", 5*time.Second, "the time of each run, at most 5m")
	n := fs.Int("positions", 1000, "positions to ask for, each answered by the database, at most 100000")
	sample := fs.String("sample", "layers", "where the positions come from: layers (every verified layer of the database an equal share, random slots) or games (random games from the empty board: openings and early middle games)")
	seed := fs.Uint64("seed", 1, "seed of the positions drawn")
	cacheMB := fs.Int("cache-mb", serve.DefaultCache>>20, "MiB of answers the server keeps (0: none, every request computed); with a cache every position is asked once before the runs")
	ties := fs.Bool("ties", true, "ask for the perfect player's order and picks among equal moves; false: the values alone (ties=0)")
	cpus := fs.String("server-cpus", "", "run the server under taskset -c LIST (Linux), e.g. 0, with this command under taskset -c 1: client and server on a core each")
	bin := fs.String("server-bin", "", "the muehlectl `program` whose serve command to start (default this one): two builds compared under the same client")
	base := fs.String("url", "", "an already running server to load instead (a loopback address only); --db still draws the positions")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	clients, err := parseCounts("--clients", *clientList, 1, 4096)
	var rates []int
	if err == nil {
		rates, err = parseCounts("--rate", *rateList, 0, 1_000_000)
	}
	if err == nil {
		err = errors.Join(inRange("--positions", *n, 1, 100000, ""), inRange("--cache-mb", *cacheMB, 0, 1<<16, ""),
			inRange("--time (seconds)", int(d.Seconds()), 0, 300, ""))
	}
	if err == nil && *sample != "layers" && *sample != "games" {
		err = fmt.Errorf("--sample %q: want layers or games", *sample)
	}
	if err == nil && *base != "" && !serve.Loopback(*base) {
		err = fmt.Errorf("--url %s: only a loopback address (127.0.0.1, ::1, localhost)", *base)
	}
	if err == nil && *base != "" && (*cpus != "" || *bin != "") {
		err = errors.New("--server-cpus, --server-bin: only for the server this command starts, not with --url")
	}
	if err != nil {
		return flagError(fs, err)
	}
	root, err := databaseDir(*dir, muehle.Variant{})
	if err != nil {
		return flagError(fs, err)
	}
	*dir = root
	dbs, err := serve.Open(*dir)
	if err != nil {
		return err
	}
	defer func() {
		for _, x := range dbs {
			x.DB.Close()
		}
	}()
	var db *layers.DB
	for _, x := range dbs {
		if *game == "" || x.Name == *game {
			db = x.DB
			break
		}
	}
	if db == nil {
		return fmt.Errorf("--game %s: no such database in %s", *game, *dir)
	}
	start := time.Now()
	var positions []muehle.Position
	from := "random games from the empty board"
	if *sample == "games" {
		positions = serve.SamplePositions(ctx, db, *n, *seed)
	} else {
		var keys []layers.Key
		positions, keys = serve.SampleLayers(ctx, db, *n, *seed)
		from = fmt.Sprintf("%d layers (%s), an equal share each", len(keys), keyRange(keys))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(positions) == 0 {
		return fmt.Errorf("no position of %s that the database answers", db.Variant().Name())
	}
	paths := serve.Paths(db, positions)
	if !*ties {
		for i := range paths {
			paths[i] += "&ties=0"
		}
	}
	fmt.Fprintf(stdout, "%d positions of %s from %s of %s (seed %d), drawn in %.1f s\n",
		len(paths), serve.VariantName(db.Variant()), from, *dir, *seed, time.Since(start).Seconds())

	var srv *serverProcess
	if *base == "" {
		maxConns := max(1000, slices.Max(clients)+64)
		if srv, err = startServerProcess(ctx, *bin, *dir, *cacheMB, maxConns, *cpus, stderr); err != nil {
			return err
		}
		defer srv.stop()
		*base = srv.url
		where := "in a process of its own"
		if *cpus != "" {
			where += " on CPUs " + *cpus
		}
		prog := "muehlectl"
		if *bin != "" {
			prog = *bin
		}
		fmt.Fprintf(stdout, "%s serve (pid %d) %s at %s, cache %d MiB; ties %t\n", prog, srv.cmd.Process.Pid, where, *base, *cacheMB, *ties)
	} else {
		fmt.Fprintf(stdout, "the server at %s; ties %t\n", *base, *ties)
	}
	{
		// Every position once, so that the runs measure a warm server
		// (its cache filled, its layers open and read), not the first
		// computation of each answer.
		start := time.Now()
		r, err := serve.Load(ctx, *base, paths, serve.LoadOptions{Clients: runtime.NumCPU(), Once: true})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "warmed: every position asked once, %d answers in %.1f s%s\n", r.Requests, time.Since(start).Seconds(), errorText(r.Errors, ""))
	}
	fmt.Fprintf(stdout, "%d cores%s\n", runtime.NumCPU(), loadAverage())
	fmt.Fprintln(stdout, "clients  rate asked  requests  per second    median       p99       max   server CPU  client CPU  load  errors")
	var rows []string
	for _, rate := range rates {
		for _, c := range clients {
			cpu0, self0 := srv.cpu(), processCPU("self")
			r, err := serve.Load(ctx, *base, paths, serve.LoadOptions{Clients: c, Duration: *d, Rate: float64(rate)})
			if err != nil {
				return err
			}
			server, client := perRequest(cpu0, srv.cpu(), r.Requests), perRequest(self0, processCPU("self"), r.Requests)
			asked := "as fast"
			if rate > 0 {
				asked = strconv.Itoa(rate) + "/s"
			}
			fmt.Fprintf(stdout, "%7d  %10s  %8d  %10.0f  %6.2f ms  %6.2f ms  %6.1f ms  %10s  %10s  %4s  %s\n", c, asked, r.Requests, r.PerSecond,
				ms(r.Median), ms(r.P99), ms(r.Max), server, client, load1(), errorText(r.Errors, "none"))
			rows = append(rows, fmt.Sprintf("| %d | %s | %.0f | %.2f ms | %.2f ms | %s |", c, asked, r.PerSecond, ms(r.Median), ms(r.P99), server))
		}
	}
	fmt.Fprintln(stdout, "\n| Clients | Rate asked | Lookups/s | Median | p99 | Server CPU per lookup |\n|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintln(stdout, r)
	}
	return nil
}

// ms returns d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// errorText renders the answers that were not 200 OK by status, or none.
func errorText(errs map[int]int, none string) string {
	if len(errs) == 0 {
		return none
	}
	return fmt.Sprint(" ", errs)
}

// keyRange names the first and last of keys ("3-3 … p0+6-0+6").
func keyRange(keys []layers.Key) string {
	if len(keys) == 0 {
		return "none"
	}
	return keys[0].String() + " … " + keys[len(keys)-1].String()
}

// loadAverage returns ", load average X Y Z" from /proc/loadavg where the
// system has it: the figures of a shared machine depend on it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return ", load average " + strings.Join(f[:3], " ")
	}
	return ""
}

// load1 returns the load average of the last minute, or "-".
func load1() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 1 {
		return f[0]
	}
	return "-"
}

// parseCounts reads a list of numbers from lo to hi separated by commas.
func parseCounts(flag, s string, lo, hi int) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < lo || c > hi {
			return nil, fmt.Errorf("%s %q: want numbers from %d to %d, separated by commas", flag, s, lo, hi)
		}
		out = append(out, c)
	}
	return out, nil
}

// serverProcess is muehlectl serve started by loadtest in a process of
// its own, so that the server's CPU time is its own and the client's
// garbage is not the server's.
type serverProcess struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// startServerProcess starts the serve command of the program exe (""
// this one) on dir on a loopback port chosen by the system, under taskset
// -c cpus when cpus is set, and waits for its address. Its log goes to
// stderr.
func startServerProcess(ctx context.Context, exe, dir string, cacheMB, maxConns int, cpus string, stderr io.Writer) (*serverProcess, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	args := []string{exe, "serve", "--db", dir, "--addr", "127.0.0.1:0", "--cache-mb", strconv.Itoa(cacheMB), "--max-conns", strconv.Itoa(maxConns)}
	if cpus != "" {
		ts, err := exec.LookPath("taskset")
		if err != nil {
			return nil, fmt.Errorf("--server-cpus: %w", err)
		}
		args = append([]string{ts, "-c", cpus}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = stderr
	endWithParent(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &serverProcess{cmd: cmd, done: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			// "serving [standard] from DIR on http://127.0.0.1:PORT/"
			if _, u, ok := strings.Cut(sc.Text(), " on http://"); ok && !strings.Contains(u, " on http://") {
				select {
				case addr <- "http://" + strings.TrimSuffix(u, "/"):
				default:
				}
			}
		}
		io.Copy(io.Discard, out)
		p.done <- cmd.Wait()
	}()
	select {
	case p.url = <-addr:
		return p, nil
	case err := <-p.done:
		return nil, fmt.Errorf("muehlectl serve ended before it listened: %v", err)
	case <-time.After(60 * time.Second):
		err = errors.New("muehlectl serve did not listen within 60 s")
	case <-ctx.Done():
		err = ctx.Err()
	}
	p.stop()
	return nil, err
}

// stop ends the server: an interrupt, then after 5 s a kill.
func (p *serverProcess) stop() {
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		p.cmd.Process.Kill()
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// cpu returns the server's CPU time so far, -1 where unknown (no server
// process, no /proc).
func (p *serverProcess) cpu() time.Duration {
	if p == nil {
		return -1
	}
	return processCPU(strconv.Itoa(p.cmd.Process.Pid))
}

// processCPU returns the user and system CPU time of the process pid
// ("self" for this one) from /proc/PID/stat, in clock ticks of 10 ms (the
// Linux USER_HZ), -1 where the system has no /proc.
func processCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return -1
	}
	// After the command name in parentheses: state, then utime and stime
	// as the 12th and 13th fields.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 13 {
		return -1
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(u+s) * 10 * time.Millisecond
}

// perRequest renders the CPU time from a to b per request in
// microseconds, "-" where unknown or less than 0.1 s in all (the clock
// ticks of 10 ms make a smaller sum too coarse).
func perRequest(a, b time.Duration, requests int) string {
	if a < 0 || b < 0 || requests == 0 || b-a < 100*time.Millisecond {
		return "-"
	}
	return fmt.Sprintf("%.0f µs", float64(b-a)/float64(requests)/1e3)
}
