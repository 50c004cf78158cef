package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"muehle/cmd/muehlectl/serve"
	"muehle/layers"
	"muehle/muehle"
)

// startServer starts the server of dir's databases on a loopback port
// with the limits of serve, the timeouts shortened by tune, and returns
// its base URL.
func startServer(t *testing.T, dir string, maxConns int, tune func(*http.Server)) string {
	t.Helper()
	dbs, err := serve.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := serve.New(dbs, serve.DefaultCache, t.Logf)
	l, err := serve.Listen("127.0.0.1:0", maxConns)
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer(l.Addr().String())
	if tune != nil {
		tune(hs)
	}
	go hs.Serve(l)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return "http://" + l.Addr().String()
}

// snapshot lists every file under dir with its size and time of change.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestServeBadInput sends the server malformed and unreachable positions,
// huge query strings, unknown games and paths, other methods and a
// missing layer: each gets a 4xx JSON error, never a 500; a missing layer
// with search=1 gets alpha-beta's estimate marked as such. The database
// folder is unchanged afterwards (the server never writes it).
func TestServeBadInput(t *testing.T) {
	dir := engineDB(t)
	before := snapshot(t, dir)
	base := startServer(t, dir, 100, nil)
	q := url.QueryEscape
	missing := "WWWW.....BBBB........... w 0 0" // 4-4: not in the 3-stone games
	for _, c := range []struct {
		method, path string
		code         int
		want         string
	}{
		{"GET", "/healthz", 200, `"status":"ok"`},
		{"GET", "/api/v1/", 200, `"name":"lasker-k3"`},
		{"GET", "/api/v1/standard-k3", 200, `"source":"database"`},
		{"GET", "/api/v1/standard-k3?position=" + q("WW.BB....W.............B w 0 0"), 200, `"value":{"outcome":"won","depth":1`},
		{"GET", "/api/v1/twelve-k3?position=" + q("........................ w 3 3 twelve"), 200, `"game":"twelve"`},
		{"GET", "/api/v1/standard-k3?position=xyz", 400, "want 4 fields"},
		{"GET", "/api/v1/standard-k3?position=" + q("X....................... w 3 3"), 400, "error"},
		{"GET", "/api/v1/standard-k3?position=" + q("........................ w 3 3 twelve"), 400, "error"},
		{"GET", "/api/v1/standard-k3?position=" + q("WWWW.................... w 0 0"), 422, "error"},
		{"GET", "/api/v1/standard-k3?position=" + q(missing), 422, "error"},
		{"GET", "/api/v1/standard-k3?position=" + strings.Repeat("W", 5000), 414, "at most"},
		{"GET", "/api/v1/chess", 404, "no database"},
		{"GET", "/api/v1/..%2f..%2fetc%2fpasswd", 404, "no database"},
		{"GET", "/api/v2/standard-k3", 404, "no such API path"},
		{"GET", "/etc/passwd", 404, "no such page"},
		{"GET", "/../../etc/passwd", 404, "no such page"},
		{"POST", "/api/v1/standard-k3", 405, "only GET"},
		{"DELETE", "/", 405, "only GET"},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", c.method, c.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ct := resp.Header.Get("Content-Type")
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) || !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %.80s: got %d %s %.200s; want %d JSON with %q", c.method, c.path, resp.StatusCode, ct, body, c.code, c.want)
		}
	}
	// A layer the database lacks: a 404 naming it, or with search=1 the
	// search's estimate, marked. Five stones a side in the 3-stone game
	// cannot arise; the 4-stone game's positions need layers not solved:
	// serve a folder where only the 3-3 endgame of k=4 is solved.
	dir4 := t.TempDir()
	if code, _, stderr := muehlectl("solve", "--db", dir4, "--stones", "4", "--max-stones", "6"); code != 0 {
		t.Fatalf("solve: %d %s", code, stderr)
	}
	before4 := snapshot(t, dir4)
	base4 := startServer(t, dir4, 100, nil)
	for _, c := range []struct {
		query string
		code  int
		want  string
	}{
		{"?position=" + q(missing), 404, `"layer":"4-4"`},
		{"?position=" + q(missing) + "&search=1", 200, `"source":"search"`},
		{"", 404, `"layer":"p0+4-0+4"`},
	} {
		resp, err := http.Get(base4 + "/api/v1/standard-k4" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("k4 %s: got %d %.300s; want %d with %q", c.query, resp.StatusCode, body, c.code, c.want)
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the database folder changed under the server:\nbefore\n%s\nafter\n%s", before, after)
	}
	if after := snapshot(t, dir4); after != before4 {
		t.Errorf("the k4 folder changed under the server:\nbefore\n%s\nafter\n%s", before4, after)
	}
}

// TestServeSlowAndIdleClients opens more idle connections than the server
// keeps, and slow clients that never finish their request: the server
// cuts them off by its timeouts, answers a normal request within seconds
// all the same, and its memory stays bounded.
func TestServeSlowAndIdleClients(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("2,000 sockets at once: measured on Linux (make test-windows runs this package under Wine)")
	}
	dir := engineDB(t)
	base := startServer(t, dir, 200, func(hs *http.Server) {
		hs.ReadHeaderTimeout = 300 * time.Millisecond
		hs.ReadTimeout = 500 * time.Millisecond
		hs.IdleTimeout = 300 * time.Millisecond
	})
	addr := strings.TrimPrefix(base, "http://")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	const idle = 2000
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var d net.Dialer
	for i := range idle {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ") // a header never finished
		}
		conns = append(conns, c)
	}
	// A normal request gets through once the timeouts have cut the others.
	start := time.Now()
	client := &http.Client{Timeout: 15 * time.Second}
	resp, err := client.Get(base + "/api/v1/standard-k3")
	if err != nil {
		t.Fatalf("a request among %d idle connections: %v", idle, err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	t.Logf("answered after %v among %d idle and slow connections", time.Since(start), idle)
	// The slow ones were cut off: reading from one ends.
	c := conns[0]
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
		// A 408 line is also a cut-off; then the connection closes.
		if _, err := io.ReadAll(c); err != nil {
			t.Errorf("a slow client was not cut off: %v", err)
		}
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Errorf("a slow client was not cut off within 5 s")
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if grew := int64(ms.HeapAlloc) - int64(heap0); grew > 64<<20 {
		t.Errorf("the heap grew by %d MiB with %d idle connections", grew>>20, idle)
	}
}

// TestServeUnverifiedLayer removes the verification record of the 3-3
// layer from a copy of a database: the server then refuses positions of
// that layer (and the placement positions whose moves lead into it) as it
// refuses a missing layer, naming it, and never presents its values as
// the database's (layers.DB.VerifiedOnly).
func TestServeUnverifiedLayer(t *testing.T) {
	dir := solvedK3(t)
	db, err := layers.OpenDB(dir, muehle.Standard.With(3))
	if err != nil {
		t.Fatal(err)
	}
	rec := db.VerifiedPath(layers.Key{W: 3, B: 3})
	db.Close()
	if err := os.Remove(rec); err != nil {
		t.Fatal(err)
	}
	base := startServer(t, dir, 100, nil)
	resp, err := http.Get(base + "/api/v1/standard-k3?position=" + url.QueryEscape("WW.BB....W.............B w 0 0"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), `"layer":"3-3"`) || strings.Contains(string(body), `"value"`) {
		t.Errorf("a position of an unverified layer: got %d %s; want 404 naming layer 3-3, no value", resp.StatusCode, body)
	}
}

// TestServePageSelfContained gets the page's files: each is served from
// the binary with a Content-Security-Policy that allows only the page's
// own origin, and none names another origin (the SVG namespace aside, an
// identifier and not a request).
func TestServePageSelfContained(t *testing.T) {
	base := startServer(t, engineDB(t), 100, nil)
	for _, name := range []string{"/", "/app.js", "/style.css"} {
		resp, err := http.Get(base + name)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != 200 || !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: status %d, CSP %q", name, resp.StatusCode, csp)
		}
		text := strings.ReplaceAll(string(body), "http://www.w3.org/2000/svg", "")
		if strings.Contains(text, "http://") || strings.Contains(text, "https://") || strings.Contains(text, "//cdn") {
			t.Errorf("%s names another origin", name)
		}
	}
}

// TestServeHugeRequests sends request lines and headers far over the
// limits (1 MiB each, many at once): the server refuses each with a 4xx
// (431 from net/http's header limit) or cuts the connection, never a 500,
// answers a normal request all the same, and its heap stays bounded.
func TestServeHugeRequests(t *testing.T) {
	base := startServer(t, engineDB(t), 100, nil)
	addr := strings.TrimPrefix(base, "http://")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	huge := strings.Repeat("W", 1<<20)
	requests := []string{
		"GET /api/v1/standard-k3?position=" + huge + " HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /api/v1/standard-k3 HTTP/1.1\r\nHost: x\r\nX-Big: " + huge + "\r\n\r\n",
		"GET /" + huge + " HTTP/1.1\r\nHost: x\r\n\r\n",
	}
	status := make(chan string, 3*20)
	for i := range 3 * 20 {
		go func() {
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				status <- "dial: " + err.Error()
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(15 * time.Second))
			go io.WriteString(c, requests[i%3]) // the server may stop reading and close
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				status <- "cut" // the connection cut off: also a refusal
				return
			}
			status <- strings.TrimSpace(line)
		}()
	}
	for range 3 * 20 {
		s := <-status
		if s != "cut" && !strings.HasPrefix(s, "HTTP/1.1 4") {
			t.Errorf("a request of 1 MiB: got %q, want a 4xx status or the connection cut", s)
		}
	}
	resp, err := http.Get(base + "/api/v1/standard-k3")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a normal request after the huge ones: status %d", resp.StatusCode)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if grew := int64(ms.HeapAlloc) - int64(heap0); grew > 32<<20 {
		t.Errorf("the heap grew by %d MiB after 60 requests of 1 MiB", grew>>20)
	}
}

// TestServeSlowReaders opens connections that send hundreds of requests
// at once and never read an answer: the server answers until the
// connection's buffers are full, then cuts it off when the write timeout
// ends, and answers a normal request in the meantime.
func TestServeSlowReaders(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("socket buffers: measured on Linux")
	}
	base := startServer(t, engineDB(t), 100, func(hs *http.Server) {
		hs.WriteTimeout = 500 * time.Millisecond
	})
	addr := strings.TrimPrefix(base, "http://")
	resp, err := http.Get(base + "/api/v1/twelve-k3")
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	const conns, each = 10, 3000 // 3,000 answers of a few KB: more than a socket's buffers
	req := strings.Repeat("GET /api/v1/twelve-k3 HTTP/1.1\r\nHost: x\r\n\r\n", each)
	var slow []net.Conn
	defer func() {
		for _, c := range slow {
			c.Close()
		}
	}()
	for range conns {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		c.(*net.TCPConn).SetReadBuffer(4 << 10)
		go io.WriteString(c, req)
		slow = append(slow, c)
	}
	start := time.Now()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err = client.Get(base + "/api/v1/standard-k3")
	if err != nil {
		t.Fatalf("a request beside %d connections that do not read: %v", conns, err)
	}
	resp.Body.Close()
	t.Logf("answered in %v beside %d connections that do not read", time.Since(start), conns)
	time.Sleep(2 * time.Second) // the write timeout (0.5 s) has ended for each
	for i, c := range slow {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := io.Copy(io.Discard, c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("connection %d: not cut off (%d bytes read, then nothing)", i, n)
		} else if n >= int64(each*len(answer)) {
			t.Errorf("connection %d: %d bytes read: every answer sent, not cut off", i, n)
		}
	}
}
