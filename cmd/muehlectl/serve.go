package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	"muehle/cmd/muehlectl/serve"
	"muehle/layers"
	"muehle/muehle"
)

func init() {
	register("serve", "answer positions over HTTP (JSON API) and serve the analysis page", runServe)
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[--db DIR] [--addr HOST:PORT] [--max-conns N] [--cache-mb N] [--mem MiB]", stderr)
	dir := fs.String("db", layers.DefaultDir(), "database `directory`: every game's folder in it is served")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (a loopback address by default: put a reverse proxy in front for others, docs/engine.md)")
	maxConns := fs.Int("max-conns", 1000, "connections open at once; more wait until one closes")
	cacheMB := fs.Int("cache-mb", serve.DefaultCache>>20, "MiB of answers kept in memory (0: none)")
	mem := addSharedCacheFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := errors.Join(inRange("--max-conns", *maxConns, 1, 1<<20, ""), inRange("--cache-mb", *cacheMB, 0, 1<<16, ""), mem.check()); err != nil {
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
	mem.applyShared(serve.DBs(dbs))
	s := serve.New(dbs, *cacheMB<<20, log.New(stderr, "muehlectl serve: ", log.LstdFlags).Printf)
	l, err := serve.Listen(*addr, *maxConns)
	if err != nil {
		s.Close()
		return err
	}
	hs := s.HTTPServer(*addr)
	fmt.Fprintf(stdout, "serving %v from %s on http://%s/ (compressed layers decoded: at most %s)\n", s.Names(), *dir, l.Addr(), sizeText(serve.CacheLimit(dbs)))
	done := make(chan error, 1)
	go func() { done <- hs.Serve(l) }()
	select {
	case err := <-done:
		s.Close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	err = <-done
	s.Close() // waits for handlers still running, then closes the databases
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
