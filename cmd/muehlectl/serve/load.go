package serve

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
)

// LoadResult is what a load run measured: the requests answered in the
// time, their rate, the median and 99th percentile latency, and the
// answers that were not 200 OK by status (0: the request failed).
type LoadResult struct {
	Clients   int
	Requests  int
	Elapsed   time.Duration
	PerSecond float64
	Median    time.Duration
	P99       time.Duration
	Errors    map[int]int
}

// String returns the result as a line of the load table.
func (r LoadResult) String() string {
	errs := "none"
	if len(r.Errors) > 0 {
		errs = fmt.Sprint(r.Errors)
	}
	return fmt.Sprintf("%7d  %8d  %8.0f  %7.2f ms  %7.2f ms  %s", r.Clients, r.Requests, r.PerSecond,
		float64(r.Median)/1e6, float64(r.P99)/1e6, errs)
}

// LoadHeader heads the lines of LoadResult.String.
const LoadHeader = "clients  requests  per second   median       p99         errors"

// MaxLoadRequests bounds the requests of one load run.
const MaxLoadRequests = 5_000_000

// Loopback reports whether the URL base names this machine (a loopback
// address or localhost): the load test runs against nothing else.
func Loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Load sends GET requests for paths (each relative to base, e.g.
// "/api/v1/standard?position=...") from clients goroutines, each with
// its own connection kept alive, for the time d or MaxLoadRequests
// requests, and measures them. Each client starts at another path and
// goes round them.
func Load(ctx context.Context, base string, paths []string, clients int, d time.Duration) (LoadResult, error) {
	if !Loopback(base) {
		return LoadResult{}, fmt.Errorf("serve: load test against %s: only a loopback address", base)
	}
	if clients < 1 || len(paths) == 0 {
		return LoadResult{}, fmt.Errorf("serve: load test: want clients and paths")
	}
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu    sync.Mutex
		lats  []time.Duration
		errs  = map[int]int{}
		count int
		wg    sync.WaitGroup
	)
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			var mine []time.Duration
			myErrs := map[int]int{}
			for i := c * len(paths) / clients; ctx.Err() == nil; i++ {
				mu.Lock()
				if count >= MaxLoadRequests {
					mu.Unlock()
					break
				}
				count++
				mu.Unlock()
				t0 := time.Now()
				code := get(ctx, client, base+paths[i%len(paths)])
				if ctx.Err() != nil {
					break // cut off by the end of the run: not counted
				}
				mine = append(mine, time.Since(t0))
				if code != http.StatusOK {
					myErrs[code]++
				}
			}
			mu.Lock()
			lats = append(lats, mine...)
			for k, v := range myErrs {
				errs[k] += v
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	el := time.Since(start)
	r := LoadResult{Clients: clients, Requests: len(lats), Elapsed: el, PerSecond: float64(len(lats)) / el.Seconds()}
	if len(errs) > 0 {
		r.Errors = errs
	}
	if len(lats) > 0 {
		slices.Sort(lats)
		r.Median = lats[len(lats)/2]
		r.P99 = lats[min(len(lats)-1, len(lats)*99/100)]
	}
	return r, nil
}

// get requests u and reads the answer; it returns the status, 0 when the
// request failed.
func get(ctx context.Context, c *http.Client, u string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0
	}
	return resp.StatusCode
}

// SamplePaths returns the API paths of SamplePositions.
func SamplePaths(ctx context.Context, db *layers.DB, n int, seed uint64) []string {
	name := VariantName(db.Variant())
	var out []string
	for _, pos := range SamplePositions(ctx, db, n, seed) {
		out = append(out, "/api/v1/"+name+"?position="+url.QueryEscape(pos.String()))
	}
	return out
}

// SamplePositions returns up to n positions of db's game that the
// database answers and that are not over, from random games from the
// empty board (seeded, up to 4 plies a stone), at most 50·n games, fewer
// when ctx ends.
func SamplePositions(ctx context.Context, db *layers.DB, n int, seed uint64) []muehle.Position {
	rng := rand.New(rand.NewPCG(seed, 54))
	var out []muehle.Position
	var buf [muehle.MaxMoves]muehle.Move
	for tries := 0; len(out) < n && tries < 50*n && ctx.Err() == nil; tries++ {
		pos := db.Variant().NewPosition()
		for range rng.IntN(4 * db.Stones()) {
			ms := pos.AppendMoves(buf[:0])
			if len(ms) == 0 || pos.IsOver() {
				break
			}
			pos = pos.Play(ms[rng.IntN(len(ms))])
		}
		if a, err := analysis.Of(db, pos); err == nil && !a.Over {
			out = append(out, pos)
		}
	}
	return out
}
