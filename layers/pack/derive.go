package pack

import (
	"context"
	"fmt"
	"strings"
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
// whose computation is longer than their blocks are large. For the
// standard game that leaves out a quarter of the package, for a few
// minutes of import (docs/export.md).

// derivable reports whether layer i of m may be left out: a verified
// moving layer of one byte per slot in this program's format, whose
// successors' layers (layers.SuccessorsIn) all come before it in the
// package.
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
	case !k.IsMoving() || l.Dense() || l.Old():
		return "is done for moving layers only"
	case l.Verified == "":
		return "needs a verified layer"
	}
	before := map[layers.Key]bool{}
	for j := range i {
		before[m.Layers[j].key] = true
	}
	var lack []string
	for _, x := range layers.SuccessorsIn(m.Variant(), k) {
		if !before[x] {
			lack = append(lack, x.String())
		}
	}
	if len(lack) > 0 {
		return "needs before it: " + strings.Join(lack, ", ")
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
