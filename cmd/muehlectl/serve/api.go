package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"muehle/cmd/muehlectl/analysis"
	"muehle/layers"
	"muehle/muehle"
)

// writeJSON writes v as the JSON answer with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the answers' types always encode
	}
	writeBytes(w, code, append(b, '\n'))
}

// The headers of every JSON answer, set as shared values: a handler
// never changes them afterwards, so no request allocates its own.
var (
	jsonType  = []string{"application/json; charset=utf-8"}
	noSniff   = []string{"nosniff"}
	anyOrigin = []string{"*"}
)

// writeBytes writes the encoded JSON answer b with status code.
func writeBytes(w http.ResponseWriter, code int, b []byte) {
	writeAnswer(w, code, b, []string{strconv.Itoa(len(b))})
}

// writeAnswer writes the encoded JSON answer b, whose length is length,
// with status code.
func writeAnswer(w http.ResponseWriter, code int, b []byte, length []string) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["X-Content-Type-Options"] = noSniff
	h["Access-Control-Allow-Origin"] = anyOrigin
	h["Content-Length"] = length
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// ErrorJSON is the answer of a refused request: the reason, and for a
// position the database cannot answer its layer.
type ErrorJSON struct {
	Error string `json:"error"`
	Layer string `json:"layer,omitempty"`
}

// writeError writes an ErrorJSON with status code.
func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, ErrorJSON{Error: msg})
}

// health answers /healthz: ok and the number of databases.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "databases": len(s.dbs)})
}

// DatabaseJSON describes a database served: its name in the API, game,
// stones, the game's name for a person, its board (for drawing it: each
// point's name and column and row, the lines between points) and the
// start position.
type DatabaseJSON struct {
	Name   string    `json:"name"`
	Game   string    `json:"game"`
	Stones int       `json:"stones"`
	Title  string    `json:"title"`
	Start  string    `json:"start"`
	Board  BoardJSON `json:"board"`
	URL    string    `json:"url"`
}

// BoardJSON is a board's drawing: points with their names and grid
// coordinates (column, row from a1 at 0, 0), and the lines as pairs of
// point names.
type BoardJSON struct {
	Points []PointJSON `json:"points"`
	Lines  [][2]string `json:"lines"`
}

// PointJSON is one point of a board.
type PointJSON struct {
	Name string `json:"name"`
	Col  int    `json:"col"`
	Row  int    `json:"row"`
}

// list answers /api/v1/: the databases served.
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	out := make([]DatabaseJSON, len(s.dbs))
	for i, d := range s.dbs {
		v := d.DB.Variant()
		b := v.Rules().Board
		bj := BoardJSON{}
		for p := range muehle.Point(b.NumPoints()) {
			c, row := b.Coord(p)
			bj.Points = append(bj.Points, PointJSON{b.PointName(p), c, row})
		}
		for _, e := range b.Edges() {
			bj.Lines = append(bj.Lines, [2]string{b.PointName(e[0]), b.PointName(e[1])})
		}
		out[i] = DatabaseJSON{Name: d.Name, Game: v.Game.String(), Stones: v.Stones, Title: v.Name(),
			Start: v.NewPosition().String(), Board: bj, URL: "/api/v1/" + d.Name}
	}
	writeJSON(w, http.StatusOK, map[string]any{"databases": out})
}

// position answers /api/v1/{game}?position=TEXT[&search=1][&ties=0]: the
// database's answer (analysis.Of; with ties=0 analysis.ValuesOf, the
// values without the tie-break), the start position without position.
// A malformed position is 400, one that cannot arise in the game 422, an
// unknown game 404; a position whose layer the database lacks is 404 with
// the layer, or with search=1 alpha-beta's estimate marked as such; a
// damaged layer is 503.
//
// An answer is looked up in the cache by the game and the query string as
// they came, before anything is parsed: a repeated request costs a map
// look-up. One computed afresh waits for one of the compute slots (one
// per core), so that however many requests arrive at once, the cores
// work on that many answers and each is done in its own time, while the
// answers from the cache pass by the queue.
func (s *Server) position(w http.ResponseWriter, r *http.Request) {
	game := r.PathValue("game")
	db, ok := s.byName[game]
	if !ok {
		writeError(w, http.StatusNotFound, "no database of that game here (the list is at /api/v1/)")
		return
	}
	key := game + "?" + r.URL.RawQuery
	if e, ok := s.cache.get(key); ok {
		writeAnswer(w, http.StatusOK, e.body, e.length)
		return
	}
	q := r.URL.Query()
	v := db.Variant()
	pos := v.NewPosition()
	if text := q.Get("position"); text != "" {
		var err error
		if pos, err = v.Rules().ParsePosition(text); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	o := analysis.Options{Values: q.Get("ties") == "0"}
	select {
	case s.computing <- struct{}{}:
	case <-r.Context().Done(): // the client is gone, or the server stops
		writeError(w, http.StatusServiceUnavailable, "the request ended before its answer was computed")
		return
	}
	// Another request may have computed the answer meanwhile.
	e, hit := s.cache.get(key)
	var a analysis.Answer
	var err error
	if !hit {
		a, err = analysis.Ask(db, pos, o)
	}
	<-s.computing
	switch {
	case hit:
		writeAnswer(w, http.StatusOK, e.body, e.length)
	case err == nil:
		b, err := json.Marshal(a.JSON())
		if err != nil {
			panic(err) // the answer's types always encode
		}
		b = append(b, '\n')
		e := encoded{body: b, length: []string{strconv.Itoa(len(b))}}
		s.cache.put(key, e)
		writeAnswer(w, http.StatusOK, e.body, e.length)
	case errors.Is(err, muehle.ErrUnreachable) || errors.Is(err, muehle.ErrPosition):
		writeError(w, http.StatusUnprocessableEntity, muehle.Reason(err))
	case errors.Is(err, analysis.ErrNotStored) && q.Get("search") == "1":
		s.estimate(w, r, db, pos)
	case errors.Is(err, analysis.ErrNotStored):
		writeJSON(w, http.StatusNotFound, ErrorJSON{Error: "the database does not hold this position's layer or a layer its moves lead to (search=1 asks for alpha-beta's estimate): " + err.Error(),
			Layer: layers.KeyOf(pos).String()})
	default:
		s.logf("serve: %s %s: %v", game, pos, err)
		writeJSON(w, http.StatusServiceUnavailable, ErrorJSON{Error: err.Error(), Layer: layers.KeyOf(pos).String()})
	}
}

// estimate answers with alpha-beta's estimate of pos, one search per core
// at a time: a request that finds them all busy is 503.
func (s *Server) estimate(w http.ResponseWriter, r *http.Request, db *layers.DB, pos muehle.Position) {
	select {
	case s.searches <- struct{}{}:
		defer func() { <-s.searches }()
	default:
		writeError(w, http.StatusServiceUnavailable, "every search slot is busy: try again")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*analysis.EstimateTime)
	defer cancel()
	e, err := analysis.Estimated(ctx, db, db.Stones(), pos)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, e.JSON(pos, db.Stones()))
}
