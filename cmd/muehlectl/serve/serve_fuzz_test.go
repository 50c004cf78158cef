package serve

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"

	"muehle/layers"
	"muehle/muehle"
)

// FuzzPosition asks the server for positions of any text, in a database
// folder without layers: every answer is a JSON 4xx (the position is
// malformed, cannot arise, or its layer is missing), never a 500.
func FuzzPosition(f *testing.F) {
	for _, s := range []string{
		"", "xyz", "........................ w 3 3", "WW.BB....W.............B w 0 0",
		"WWWW.................... w 0 0", "........................ w 3 3 twelve",
		"........................ w 99 3", "WWWWWWWWWWWWWWWWWWWWWWWW b 0 0", "\x00\xff w 0 0",
	} {
		f.Add(s, false)
	}
	h := emptyServer(f).Handler()
	f.Fuzz(func(t *testing.T, pos string, search bool) {
		u := "/api/v1/standard-k3?position=" + url.QueryEscape(pos)
		if search {
			u += "&search=1"
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u, nil))
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("position %q: status %d %s %s", pos, rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	})
}

// emptyServer returns a server, with a cache of 1 MiB, of a folder of the
// 3-stone standard game without layers; it is closed when tb ends.
func emptyServer(tb testing.TB) *Server {
	dir := tb.TempDir()
	if err := os.MkdirAll(layers.GameDir(dir, muehle.Standard.With(3)), 0o755); err != nil {
		tb.Fatal(err)
	}
	dbs, err := Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	s := New(dbs, 1<<20, tb.Logf)
	tb.Cleanup(func() { s.Close() })
	return s
}
