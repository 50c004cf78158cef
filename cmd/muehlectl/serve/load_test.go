package serve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoad runs Load against a server of three paths: an answer, a 404
// and an answer after which the server closes the connection. Every
// request is counted, a status other than 200 by its code, and a closed
// connection is dialled again; with Once each path is asked exactly once;
// an open loop keeps to its rate.
func TestLoad(t *testing.T) {
	var asked [3]atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			asked[0].Add(1)
			fmt.Fprint(w, strings.Repeat("x", 10000))
		case "/missing":
			asked[1].Add(1)
			http.NotFound(w, r)
		case "/close":
			asked[2].Add(1)
			w.Header().Set("Connection", "close")
			fmt.Fprint(w, "bye")
		}
	}))
	defer ts.Close()
	paths := []string{"/ok", "/missing", "/close"}
	r, err := Load(context.Background(), ts.URL, paths, LoadOptions{Clients: 2, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 3 || r.Errors[404] != 1 || len(r.Errors) != 1 {
		t.Errorf("once: got %d requests, errors %v; want 3, one 404", r.Requests, r.Errors)
	}
	for i := range asked {
		if n := asked[i].Swap(0); n != 1 {
			t.Errorf("once: %s asked %d times, want 1", paths[i], n)
		}
	}
	r, err = Load(context.Background(), ts.URL, paths, LoadOptions{Clients: 3, Duration: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests < 30 || r.Errors[0] != 0 || r.Errors[404] < r.Requests/4 || r.Median <= 0 || r.P99 < r.Median || r.Max < r.P99 {
		t.Errorf("closed loop: got %+v; want requests without failures, a third of them 404", r)
	}
	r, err = Load(context.Background(), ts.URL, paths[:1], LoadOptions{Clients: 4, Duration: time.Second, Rate: 200})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests < 150 || r.Requests > 201 || len(r.Errors) != 0 {
		t.Errorf("open loop at 200/s for 1 s: got %d requests, errors %v; want about 200", r.Requests, r.Errors)
	}
	if _, err := Load(context.Background(), "http://192.0.2.1:80", paths, LoadOptions{Clients: 1, Once: true}); err == nil {
		t.Error("a load test against another machine: no error")
	}
}

// TestComputeSlots takes every compute slot: an answer from the cache is
// given all the same, and a request that must be computed waits for a
// slot until its context ends, then gets a JSON 503.
func TestComputeSlots(t *testing.T) {
	s := emptyServer(t)
	s.cache.put("standard-k3?position=cached", encoded{body: []byte("{}\n"), length: []string{"3"}})
	for range cap(s.computing) {
		s.computing <- struct{}{}
	}
	h := s.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/standard-k3?position=cached", nil))
	if rec.Code != 200 || rec.Body.String() != "{}\n" {
		t.Errorf("a cached answer with every slot taken: got %d %q", rec.Code, rec.Body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rec = httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/standard-k3", nil).WithContext(ctx))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"error"`) || time.Since(start) < 150*time.Millisecond {
		t.Errorf("an answer to compute with every slot taken: got %d %q after %v; want a JSON 503 after 200 ms", rec.Code, rec.Body, time.Since(start))
	}
	for range cap(s.computing) {
		<-s.computing
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/standard-k3", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("with the slots free: got %d %q; want 404 (no layers here)", rec.Code, rec.Body)
	}
}
