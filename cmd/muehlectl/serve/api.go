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

// writeBytes writes the encoded JSON answer b with status code.
func writeBytes(w http.ResponseWriter, code int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Content-Length", strconv.Itoa(len(b)))
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
func (s *Server) position(w http.ResponseWriter, r *http.Request) {
	db, ok := s.byName[r.PathValue("game")]
	if !ok {
		writeError(w, http.StatusNotFound, "no database of that game here (the list is at /api/v1/)")
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
	of, key := analysis.Of, r.PathValue("game")+"|"+pos.String()
	if q.Get("ties") == "0" {
		of, key = analysis.ValuesOf, key+"|values"
	}
	if b, ok := s.cache.get(key); ok {
		writeBytes(w, http.StatusOK, b)
		return
	}
	a, err := of(db, pos)
	switch {
	case err == nil:
		b, err := json.Marshal(a.JSON())
		if err != nil {
			panic(err) // the answer's types always encode
		}
		b = append(b, '\n')
		s.cache.put(key, b)
		writeBytes(w, http.StatusOK, b)
	case errors.Is(err, muehle.ErrUnreachable) || errors.Is(err, muehle.ErrPosition):
		writeError(w, http.StatusUnprocessableEntity, muehle.Reason(err))
	case errors.Is(err, analysis.ErrNotStored) && q.Get("search") == "1":
		s.estimate(w, r, db, pos)
	case errors.Is(err, analysis.ErrNotStored):
		writeJSON(w, http.StatusNotFound, ErrorJSON{Error: "the database does not hold this position's layer or a layer its moves lead to (search=1 asks for alpha-beta's estimate): " + err.Error(),
			Layer: layers.KeyOf(pos).String()})
	default:
		s.logf("serve: %s %s: %v", r.PathValue("game"), pos, err)
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
