package serve

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"muehle/layers"
	"muehle/muehle"
)

// The limits of the server: a request's header, its query string and the
// time a client may take; searches (search=1) at once.
const (
	MaxHeaderBytes    = 8 << 10
	MaxQuery          = 1 << 10
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 30 * time.Second
)

// Database is one database the server answers from: a variant and its
// folder's layers, named in the API by Name ("standard", "standard-k5").
type Database struct {
	Name string
	DB   *layers.DB
}

// VariantName returns the name of v in the API: the game's ID for the
// game with its own stone count ("standard", "twelve", "lasker"), else
// the ID and "-k" and the stones ("standard-k5").
func VariantName(v muehle.Variant) string {
	if v.Stones == v.Rules().Stones {
		return v.Game.String()
	}
	return fmt.Sprintf("%s-k%d", v.Game, v.Stones)
}

// Open opens the databases of every variant with a folder in dir (the
// folders of layers.GameDir), read-only and reading verified layers only
// (layers.DB.VerifiedOnly). It returns an error when there is none.
func Open(dir string) ([]Database, error) {
	var dbs []Database
	for _, r := range muehle.Games {
		g := r.Game()
		for k := r.Stones; k >= muehle.MinStones; k-- {
			v := g.With(k)
			if layers.CheckVariant(v) != nil {
				continue
			}
			if fi, err := os.Stat(layers.GameDir(dir, v)); err != nil || !fi.IsDir() {
				continue
			}
			db, err := layers.OpenDB(dir, v)
			if err != nil {
				return nil, err
			}
			db.VerifiedOnly()
			dbs = append(dbs, Database{VariantName(v), db})
		}
	}
	if len(dbs) == 0 {
		return nil, fmt.Errorf("serve: no database in %s (muehlectl solve computes one)", dir)
	}
	return dbs, nil
}

// DBs returns the layers.DB of each of dbs.
func DBs(dbs []Database) []*layers.DB {
	all := make([]*layers.DB, len(dbs))
	for i, d := range dbs {
		all[i] = d.DB
	}
	return all
}

// CacheLimit returns the bound of the memory compressed layers take
// decoded of dbs together: the sum of their bounds
// (layers.DB.SetCacheBytes).
func CacheLimit(dbs []Database) int64 {
	var n int64
	for _, d := range dbs {
		n += d.DB.CacheLimit()
	}
	return n
}

// Server answers the API and serves the page. Its handlers are safe for
// concurrent use.
type Server struct {
	dbs       []Database
	byName    map[string]*layers.DB
	searches  chan struct{} // a token per search running (search=1)
	computing chan struct{} // a token per answer being computed
	cache     *answerCache
	page      http.Handler

	// open is read-held by every request while it runs; Close takes it
	// to wait for them before the databases close under them.
	open   sync.RWMutex
	closed bool
	logf   func(format string, args ...any)
}

//go:embed page
var pageFiles embed.FS

// DefaultCache is the default size of the server's cache of answers.
const DefaultCache = 64 << 20

// New returns a server of dbs (Close closes them) that keeps up to cache bytes of answers
// (0: none; an answer is a few kilobytes). logf reports errors that are
// not the client's (nil: the log package).
func New(dbs []Database, cache int, logf func(format string, args ...any)) *Server {
	if logf == nil {
		logf = log.Printf
	}
	s := &Server{dbs: dbs, byName: map[string]*layers.DB{}, logf: logf,
		searches: make(chan struct{}, runtime.NumCPU()), computing: make(chan struct{}, runtime.GOMAXPROCS(0)),
		cache: newAnswerCache(cache)}
	for _, d := range dbs {
		s.byName[d.Name] = d.DB
	}
	sub, err := fs.Sub(pageFiles, "page")
	if err != nil {
		panic(err) // the embedded folder is part of the binary
	}
	s.page = http.FileServerFS(sub)
	return s
}

// Names returns the names of the databases served, in the order of the
// list at /api/v1/.
func (s *Server) Names() []string {
	var n []string
	for _, d := range s.dbs {
		n = append(n, d.Name)
	}
	return n
}

// Handler returns the server's routes: / and its files (the page),
// /healthz, /api/v1/ (the databases) and /api/v1/{game} (a position).
// Every request but GET and HEAD, and every query string longer than
// MaxQuery, is refused; a panic becomes a JSON error and a log line.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.health)
	mux.HandleFunc("GET /api/v1/{$}", s.list)
	mux.HandleFunc("GET /api/v1/{game}", s.position)
	mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API path (want /api/v1/ or /api/v1/GAME?position=...)")
	})
	mux.HandleFunc("GET /{file...}", s.pageFile)
	return s.guard(mux)
}

// pageFile serves a file of the page; an unknown path is a JSON 404.
func (s *Server) pageFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name != "" && !slices.Contains(pageNames, name) {
		writeError(w, http.StatusNotFound, "no such page")
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	s.page.ServeHTTP(w, r)
}

// pageNames are the page's files besides index.html.
var pageNames = []string{"app.js", "style.css"}

// guard refuses other methods than GET and HEAD and long query strings,
// and turns a panic into a JSON error.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.logf("serve: panic on %s: %v", r.URL.Path, p)
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "only GET and HEAD")
			return
		}
		s.open.RLock()
		defer s.open.RUnlock()
		if s.closed {
			writeError(w, http.StatusServiceUnavailable, "the server is shutting down")
			return
		}
		if len(r.URL.RawQuery) > MaxQuery {
			writeError(w, http.StatusRequestURITooLong, fmt.Sprintf("query string of %d bytes: at most %d", len(r.URL.RawQuery), MaxQuery))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Close waits for the requests running to end, refuses further ones and
// closes the databases.
func (s *Server) Close() error {
	s.open.Lock()
	defer s.open.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, d := range s.dbs {
		errs = append(errs, d.DB.Close())
	}
	return errors.Join(errs...)
}

// HTTPServer returns an http.Server of s on addr with the limits above:
// slow clients are cut off by the read timeouts, idle connections after
// IdleTimeout.
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s.Handler(),
		MaxHeaderBytes:    MaxHeaderBytes,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		ErrorLog:          log.New(logWriter{s.logf}, "", 0),
	}
}

// logWriter passes the http server's log lines to logf.
type logWriter struct{ logf func(string, ...any) }

func (l logWriter) Write(p []byte) (int, error) { l.logf("%s", p); return len(p), nil }

// Listen listens on addr (a loopback address unless the caller chose
// another) with at most maxConns connections open at once: further ones
// wait in the kernel's queue until one closes.
func Listen(addr string, maxConns int) (net.Listener, error) {
	if maxConns < 1 {
		return nil, errors.New("serve: want at least one connection")
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return limitListener(l, maxConns), nil
}
