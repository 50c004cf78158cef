// Package serve is muehlectl serve: an HTTP server (net/http) that
// answers positions from the database, the JSON API of docs/engine.md,
// and serves the analysis page, plain HTML, CSS and JavaScript embedded in
// the binary, without a build step and without outside requests.
//
// It reads the database and never writes it. It never opens a path taken
// from a request: the databases are opened once, at the start, from the
// folder the command line names, a request only picks one of them by its
// name, and the page's files are served from the embedded folder by a
// fixed list of names. Bad input gets a 4xx JSON error; slow and idle
// clients are cut off by the timeouts of HTTPServer; the connections open
// at once are bounded (Listen).
//
// # Files
//
//	server.go    the server: Open, New, the routes, the limits, Close
//	api.go       the JSON answers and errors of /api/v1/ and /healthz
//	cache.go     the bounded cache of encoded answers
//	listener.go  the bound on the connections open at once
//	load.go      the load test of muehlectl loadtest: Load, a lean client
//	sample.go    the positions it asks for: SampleLayers, SamplePositions
//	page/        the analysis page: index.html, style.css, app.js
package serve
