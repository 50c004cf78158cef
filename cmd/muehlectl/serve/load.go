package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// LoadResult is what a load run measured: the requests answered in the
// time, their rate, the median, 99th percentile and largest latency, and
// the answers that were not 200 OK by status (0: the request failed).
type LoadResult struct {
	Clients   int
	Rate      float64 // the rate asked for (LoadOptions.Rate), 0: as fast as answered
	Requests  int
	Elapsed   time.Duration
	PerSecond float64
	Median    time.Duration
	P99       time.Duration
	Max       time.Duration
	Errors    map[int]int
}

// LoadOptions are the shape of a load run: Clients connections, each
// sending its requests one after the other for Duration. With Rate 0 each
// client sends its next request as soon as the last is answered (a closed
// loop: the rate is the most the server answers, and the latency is that
// of a queue of Clients requests). With Rate > 0 the clients together send
// Rate requests a second, each on a fixed schedule whatever the answers
// take (an open loop), and a request's latency counts from its scheduled
// time, so that a server falling behind is charged for the wait it causes.
//
// With Once set, the clients ask for each path exactly once between them,
// as fast as answered, however long it takes (a cache's warming).
type LoadOptions struct {
	Clients  int
	Duration time.Duration
	Rate     float64
	Once     bool
}

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
// "/api/v1/standard?position=...") as o says and measures them. Each client
// keeps its own connection alive, starts at another path and goes round
// them. The client is lean on purpose, since it shares the machine with
// the server: each request's bytes are built once, and an answer is read
// by its Content-Length (the server sends one with every answer), with
// no HTTP client library between. A run ends after o.Duration or
// MaxLoadRequests requests; the requests under way then are answered and
// counted.
func Load(ctx context.Context, base string, paths []string, o LoadOptions) (LoadResult, error) {
	if !Loopback(base) {
		return LoadResult{}, fmt.Errorf("serve: load test against %s: only a loopback address", base)
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return LoadResult{}, fmt.Errorf("serve: load test against %s: want http://HOST:PORT", base)
	}
	if o.Clients < 1 || len(paths) == 0 || o.Rate < 0 {
		return LoadResult{}, fmt.Errorf("serve: load test: want clients, paths and a rate of at least 0")
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	reqs := make([][]byte, len(paths))
	for i, p := range paths {
		reqs[i] = []byte("GET " + p + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: muehlectl-loadtest\r\n\r\n")
	}
	var (
		mu    sync.Mutex
		lats  []time.Duration
		errs  = map[int]int{}
		count int
		wg    sync.WaitGroup
		conns = make([]loadConn, o.Clients)
	)
	start := time.Now()
	end := start.Add(o.Duration)
	if o.Once {
		end, o.Rate = start.Add(24*time.Hour), 0
	}
	stop := context.AfterFunc(ctx, func() { // unblock the clients at once
		for i := range conns {
			conns[i].abort()
		}
	})
	defer stop()
	var interval time.Duration // between one client's requests, open loop
	if o.Rate > 0 {
		interval = time.Duration(float64(o.Clients) / o.Rate * float64(time.Second))
	}
	for c := range o.Clients {
		wg.Go(func() {
			lc := &conns[c]
			lc.addr, lc.deadline = addr, end.Add(30*time.Second)
			defer lc.close()
			var mine []time.Duration
			myErrs := map[int]int{}
			next := start.Add(time.Duration(c) * interval / time.Duration(o.Clients)) // open loop: staggered
			for i := c * len(paths) / o.Clients; ctx.Err() == nil; i++ {
				if interval > 0 {
					if next.After(end) {
						break
					}
					// Sleep until the request is due; less than a
					// millisecond ahead it goes at once (the runtime's
					// timers are not finer than that everywhere).
					if d := time.Until(next); d > time.Millisecond {
						time.Sleep(d - time.Millisecond)
					}
				} else if time.Now().After(end) {
					break
				}
				mu.Lock()
				if count >= MaxLoadRequests || o.Once && count >= len(reqs) {
					mu.Unlock()
					break
				}
				if o.Once {
					i = count
				}
				count++
				mu.Unlock()
				t0 := time.Now()
				if interval > 0 && next.Before(t0) {
					t0 = next // late: the wait behind the schedule counts
				}
				code := lc.get(reqs[i%len(reqs)])
				if ctx.Err() != nil {
					break // cut off by the caller: not counted
				}
				mine = append(mine, time.Since(t0))
				if code != 200 {
					myErrs[code]++
				}
				next = next.Add(interval)
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
	if err := ctx.Err(); err != nil {
		return LoadResult{}, err
	}
	el := time.Since(start)
	r := LoadResult{Clients: o.Clients, Rate: o.Rate, Requests: len(lats), Elapsed: el, PerSecond: float64(len(lats)) / el.Seconds()}
	if len(errs) > 0 {
		r.Errors = errs
	}
	if len(lats) > 0 {
		slices.Sort(lats)
		r.Median = lats[len(lats)/2]
		r.P99 = lats[min(len(lats)-1, len(lats)*99/100)]
		r.Max = lats[len(lats)-1]
	}
	return r, nil
}

// loadConn is one load client's connection, dialled when first needed
// and again after a failure.
type loadConn struct {
	addr     string
	deadline time.Time // of every read and write: the end of the run and 30 s
	mu       sync.Mutex
	c        net.Conn
	aborted  bool
	br       *bufio.Reader
}

// get writes the request req and reads the answer; it returns the status,
// 0 when the request failed (the connection is then closed).
func (lc *loadConn) get(req []byte) int {
	if lc.br == nil {
		if err := lc.dial(); err != nil {
			return 0
		}
	}
	code, err := lc.roundTrip(req)
	if err != nil {
		lc.close()
		return 0
	}
	return code
}

// dial connects, unless the run was aborted.
func (lc *loadConn) dial() error {
	c, err := net.DialTimeout("tcp", lc.addr, 10*time.Second)
	if err != nil {
		return err
	}
	c.SetDeadline(lc.deadline)
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.aborted {
		c.Close()
		return net.ErrClosed
	}
	lc.c, lc.br = c, bufio.NewReaderSize(c, 64<<10)
	return nil
}

// roundTrip writes req and reads one answer: its status line, its header
// for the Content-Length (or chunks) and whether the server closes, and
// its body.
func (lc *loadConn) roundTrip(req []byte) (int, error) {
	if _, err := lc.c.Write(req); err != nil {
		return 0, err
	}
	line, err := lc.br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, errors.New("serve: load test: not an HTTP answer")
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, err
	}
	length, chunked, closing := -1, false, false
	for {
		h, err := lc.br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, _ := bytes.Cut(h, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, err
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.Contains(bytes.ToLower(value), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")) && bytes.EqualFold(value, []byte("close")):
			closing = true
		}
	}
	switch {
	case chunked:
		if err := lc.discardChunks(); err != nil {
			return 0, err
		}
	case length >= 0:
		if _, err := lc.br.Discard(length); err != nil {
			return 0, err
		}
	default:
		return 0, errors.New("serve: load test: an answer without Content-Length or chunks")
	}
	if closing {
		lc.close()
	}
	return code, nil
}

// discardChunks reads a body in chunks: each a line with its size in hex,
// the bytes and CRLF, up to the chunk of size 0 and the trailer.
func (lc *loadConn) discardChunks() error {
	for {
		line, err := lc.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(bytes.TrimSpace(line), []byte(";"))
		n, err := strconv.ParseUint(string(size), 16, 31)
		if err != nil {
			return fmt.Errorf("serve: load test: chunk size %q: %w", size, err)
		}
		if n == 0 {
			break
		}
		if _, err := lc.br.Discard(int(n) + 2); err != nil {
			return err
		}
	}
	for { // the trailer, up to an empty line
		line, err := lc.br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
	}
}

// close closes the connection, if open.
func (lc *loadConn) close() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.c != nil {
		lc.c.Close()
		lc.c, lc.br = nil, nil
	}
}

// abort closes the connection and keeps it from dialling again.
func (lc *loadConn) abort() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.aborted = true
	if lc.c != nil {
		lc.c.Close() // its reader fails; get closes it again
	}
}
