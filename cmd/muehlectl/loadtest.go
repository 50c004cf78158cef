package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
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
	fs := newFlags("loadtest", "[--db DIR] [--game NAME] [--clients 1,16,256] [--time 5s] [--positions N] [--seed S] [--cache-mb N] [--ties=false] [--url http://127.0.0.1:PORT]", stderr)
	dir := fs.String("db", layers.DefaultDir(), "database `directory`: the server is started in this process on a loopback port, and the positions are drawn from it")
	game := fs.String("game", "", "the database to ask, by its name in the API (standard, standard-k5, lasker, ...; default the first of /api/v1/)")
	clientList := fs.String("clients", "1,16,256", "the numbers of concurrent clients, one run each")
	d := fs.Duration("time", 5*time.Second, "the time of each run, at most 5m")
	n := fs.Int("positions", 1000, "positions drawn from random games (each answered by the database), at most 100000")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	cacheMB := fs.Int("cache-mb", serve.DefaultCache>>20, "MiB of answers the server started here keeps (0: none, every request computed)")
	ties := fs.Bool("ties", true, "ask for the perfect player's order and picks among equal moves; false: the values alone (ties=0)")
	base := fs.String("url", "", "an already running server to load instead (a loopback address only); --db still draws the positions")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	clients, err := parseClients(*clientList)
	if err == nil {
		err = errors.Join(inRange("--positions", *n, 1, 100000, ""), inRange("--cache-mb", *cacheMB, 0, 1<<16, ""), inRange("--time (seconds)", int(d.Seconds()), 0, 300, ""))
	}
	if err == nil && *base != "" && !serve.Loopback(*base) {
		err = fmt.Errorf("--url %s: only a loopback address (127.0.0.1, ::1, localhost)", *base)
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
	s := serve.New(dbs, *cacheMB<<20, func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) })
	defer s.Close() // closes the databases after the handlers still running

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
	paths := serve.SamplePaths(ctx, db, *n, *seed)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !*ties {
		for i := range paths {
			paths[i] += "&ties=0"
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("no position of %s that the database answers", db.Variant().Name())
	}
	if *base == "" {
		l, err := serve.Listen("127.0.0.1:0", 4096)
		if err != nil {
			return err
		}
		hs := s.HTTPServer(l.Addr().String())
		go hs.Serve(l)
		defer hs.Close()
		*base = "http://" + l.Addr().String()
	}
	fmt.Fprintf(stdout, "load test of %s (cache %d MiB, ties %t): %s, %d positions of %s (random games, seed %d), %s a run\n",
		*base, *cacheMB, *ties, *dir, len(paths), serve.VariantName(db.Variant()), *seed, *d)
	fmt.Fprintf(stdout, "%d cores%s\n", runtime.NumCPU(), loadAverage())
	fmt.Fprintln(stdout, serve.LoadHeader)
	for _, c := range clients {
		r, err := serve.Load(ctx, *base, paths, c, *d)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
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

// parseClients reads a list of client counts, each 1 to 4096.
func parseClients(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 || c > 4096 {
			return nil, fmt.Errorf("--clients %q: want numbers from 1 to 4096, separated by commas", s)
		}
		out = append(out, c)
	}
	return out, nil
}
