package pack

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"muehle/layers"
)

// Derived layers (package format 4). A verified moving layer holds
// exactly the values its children's layers give it, one ply below
// (retro.VerifyLayer's rule). So a package leaves out a layer whose
// children's layers all come before it, and import computes its body
// from them (ImportOptions.Derive) and checks it against the manifest's
// CRC-64 and figures before it installs it, as it checks a layer it
// unpacks. Of a moving pair M(w,b), M(b,w) that is the second, whose
// children are the first and a layer of one stone fewer; a layer that is
// its own partner (M(k,k)) is stored, and so are the placement layers,
// whose computation is longer than their blocks are large. Export leaves
// out those whose values cost the most to store (DefaultDeriveBits).

// DefaultDeriveBits is the bits per slot above which export leaves out a
// layer that may be derived (ExportOptions.DeriveBits). Computing a slot
// on import costs about half a microsecond of CPU (one ply of moves,
// their children ranked and looked up), storing it what its values take.
// At 2.5 bits the standard game's package leaves out 7-5, 7-6, 8-7, 9-7
// and 9-8, 2.0 billion slots: 3.78 GB instead of 4.51, imported in 11
// minutes on 2 cores; leaving out every layer that may be made it 3.42
// GB, imported in 17 minutes (docs/export.md).
const DefaultDeriveBits = 2.5

// sampleEvery: of a layer's blocks, export codes every sampleEvery-th
// (the first of each run) to estimate what the layer takes stored.
const sampleEvery = 16

// planDerived marks the layers of m that the package leaves out: those
// that may be derived and, unless opts.DeriveBits is negative, whose
// values would take at least opts.DeriveBits bits per slot stored, as a
// sample of their blocks, coded as export codes them, says. It returns
// the estimates, per layer.
func planDerived(ctx context.Context, m *Manifest, bodies [][]byte, opts ExportOptions) ([]float64, error) {
	threshold := opts.DeriveBits
	if threshold == 0 {
		threshold = DefaultDeriveBits
	}
	e, err := newExporter(ctx, m, bodies, opts)
	if err != nil {
		return nil, err
	}
	defer e.close()
	est := make([]float64, len(m.Layers))
	for i := range m.Layers {
		e.done += m.Layers[i].BodyBytes()
		if !derivable(m, i) {
			continue
		}
		if threshold < 0 {
			m.Layers[i].Derived = true
			continue
		}
		if est[i], err = e.sampleBits(i, bodies[i]); err != nil {
			return nil, err
		}
		m.Layers[i].Derived = est[i] >= threshold
	}
	return est, nil
}

// sampleBits codes every sampleEvery-th block of body, layer i's, on the
// workers, and returns the bits per byte they take, block headers
// included.
func (e *exporter) sampleBits(i int, body []byte) (float64, error) {
	bs := e.m.BlockBytes
	var seqs []int
	for seq := 0; seq*bs < len(body); seq += sampleEvery {
		seqs = append(seqs, seq)
	}
	lc := e.layerCoding(i, kindBody)
	var raw, coded atomic.Int64
	next := make(chan int, len(seqs))
	for _, seq := range seqs {
		next <- seq
	}
	close(next)
	var wg sync.WaitGroup
	for w := range min(e.workers, len(seqs)) {
		wg.Go(func() {
			var frame, other []byte
			for seq := range next {
				if e.ctx.Err() != nil {
					return
				}
				lo := seq * bs
				b := body[lo:min(lo+bs, len(body))]
				frame, other, _ = e.code(w, lc, b, lo, frame, other)
				raw.Add(int64(len(b)))
				coded.Add(int64(blockHead + len(frame)))
			}
		})
	}
	wg.Wait()
	if err := e.ctx.Err(); err != nil {
		return 0, err
	}
	if e.progress != nil {
		e.progress(Progress{Phase: "sample", Layer: e.m.Key(i), Step: i + 1, Steps: len(e.m.Layers), Done: e.done, Total: e.total})
	}
	return 8 * float64(coded.Load()) / float64(max(raw.Load(), 1)), nil
}

// derivable reports whether layer i of m may be left out: a verified
// moving layer of one byte per slot in this program's format, whose
// successors' layers (layers.SuccessorsIn) all come before it in the
// package, verified too (so that the values it was verified against are
// the ones import computes it from).
func derivable(m *Manifest, i int) bool {
	return whyNotDerivable(m, i) == ""
}

// whyNotDerivable says why layer i of m may not be left out ("" when it
// may), ending a sentence that starts with the layer.
func whyNotDerivable(m *Manifest, i int) string {
	l := &m.Layers[i]
	k := l.key
	switch {
	case m.Version < 4:
		return fmt.Sprintf("a package of format %d does not do", m.Version)
	case l.Copied():
		return "travels as its compressed file"
	case !k.IsMoving() || l.Dense() || l.Old():
		return "is done for moving layers only"
	case l.Verified == "":
		return "needs a verified layer"
	}
	before := map[layers.Key]*Layer{}
	for j := range i {
		before[m.Layers[j].key] = &m.Layers[j]
	}
	var lack, unverified []string
	for _, x := range layers.SuccessorsIn(m.Variant(), k) {
		switch c := before[x]; {
		case c == nil:
			lack = append(lack, x.String())
		case c.Verified == "":
			unverified = append(unverified, x.String())
		}
	}
	switch {
	case len(lack) > 0:
		return "needs before it: " + strings.Join(lack, ", ")
	case len(unverified) > 0:
		return "needs verified before it: " + strings.Join(unverified, ", ")
	}
	return ""
}

// A Deriver computes the body of the moving layer k from its children's
// layers, which db holds, on workers goroutines: one byte per slot into
// body, zero on entry, counting the slots done. retro.DeriveLayer is the
// one there is; this package, which never imports the solver, is given
// it.
type Deriver func(ctx context.Context, db *layers.DB, k layers.Key, workers int, body []byte, done *atomic.Uint64) error

// derived computes the body of layer i, a derived one, with in.derive,
// reporting progress twice a second while it runs.
func (in *installer) derived(i int) ([]byte, error) {
	l := &in.p.Manifest.Layers[i]
	body := make([]byte, l.Slots)
	var done atomic.Uint64
	stop := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		base := in.done
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if in.progress != nil {
					in.progress(Progress{Phase: "install", Deriving: true, Layer: l.key, Step: in.step + 1, Steps: len(in.p.Manifest.Layers),
						Done: base + done.Load(), Total: in.total, Packed: in.c.at})
				}
			}
		}
	}()
	err := in.derive(in.ctx, in.db, l.key, in.workers, body, &done)
	close(stop)
	<-ticked
	if err != nil {
		return nil, fmt.Errorf("pack: layer %s, derived from the layers before it: %w", l.key, err)
	}
	return body, nil
}
