package dbservice

import (
	"context"
	"fmt"
	"time"

	"muehle/layers"
	"muehle/layers/pack"
	"muehle/muehle"
	"muehle/retro"
)

// Import installs package p into the database folder dir (pack's
// Package.Import) as the window and muehlectl do: the claims named by the
// solver's units, so that a solver and an import never write one layer at
// once, and the layers a package leaves out derived by the solver
// (retro.DeriveLayer). opts' ClaimName and Derive are set here.
func Import(ctx context.Context, p *pack.Package, dir string, opts pack.ImportOptions) (*pack.ImportResult, error) {
	opts.ClaimName = ClaimName
	opts.Derive = retro.DeriveLayer
	return p.Import(ctx, dir, opts)
}

// ImportFile opens the package at path and installs it into dir (Import).
func ImportFile(ctx context.Context, path, dir string, opts pack.ImportOptions) (*pack.ImportResult, error) {
	p, err := pack.Open(path)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return Import(ctx, p, dir, opts)
}

// ClaimName is the claim an import takes for layer k: the solver's unit.
func ClaimName(k layers.Key) string { return string(retro.NameOf(k)) }

// ConvertImported rewrites the layers of the format before that a package
// of format 1 installed in dir (the standard game with stones stones) in
// this format (Convert), keeping their verification. It returns the
// number converted; the error of layers left unconverted names the
// command that converts them.
func ConvertImported(ctx context.Context, dir string, stones int, run ConvertRun) (int, error) {
	db, err := layers.OpenDB(dir, muehle.Standard.With(stones))
	if err != nil {
		return 0, err
	}
	defer db.Close()
	done, err := Convert(ctx, db, run)
	if err != nil {
		return done, fmt.Errorf("converting the imported layers (%d converted; `muehlectl convert --db %s --stones %d` converts the rest): %w", done, dir, stones, err)
	}
	if left := db.OldLayers(); len(left) > 0 {
		return done, fmt.Errorf("%d imported layers of the format before not converted (%s first): `muehlectl convert --db %s --stones %d` converts them", len(left), left[0], dir, stones)
	}
	return done, nil
}

// packMeasure is how long a phase of an export or import runs before its
// rate counts for the time left: its first layers are small.
const packMeasure = 10 * time.Second

// PackLeft returns the time left of the phase of an export or import at
// report p, elapsed after the phase began: its bytes left at the rate of
// its bytes so far (Rate), -1 before packMeasure.
func PackLeft(p pack.Progress, elapsed time.Duration) time.Duration {
	return Left(float64(p.Total)-float64(p.Done), Rate{MinTime: packMeasure}.At(float64(p.Done), elapsed))
}
