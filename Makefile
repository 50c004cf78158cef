# Mühle perfect player — the two commands of the README:
#   make run    installs what is missing and starts the desktop program
#   make test   installs what is missing and runs the test suite
# Everything else here is a convenience around go build and go test.

GO        ?= go
BIN       := bin
# Debian packages that Fyne's cgo build needs.
BUILD_PKGS := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
              libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev
# Debian packages for running the real window headless (make screenshots).
SHOT_PKGS  := xvfb xdotool imagemagick
# Debian packages for the Windows zip (make package-windows): MinGW-w64's C
# compiler for Fyne's C parts, and zip; and for checking it under Wine
# (make test-windows).
WIN_PKGS   := gcc-mingw-w64-x86-64 zip
WINE_PKGS  := wine wine64 xvfb xdotool imagemagick unzip
# Debian package of the browser test of the analysis page (make test runs it
# where Chromium is installed and says so; docs/engine.md).
BROWSER_PKGS := chromium
# Debian packages for the figures of docs/plots (make plots).
PLOT_PKGS  := gnuplot-nox

# staticcheck, pinned; make lint installs it into bin/ on first use.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BIN)/staticcheck-$(STATICCHECK_VERSION)/staticcheck
# How long make fuzz runs each fuzz target.
FUZZTIME ?= 10s

.PHONY: run test test-long test-slurm test-windows bench pgo deps shot-deps build muehlectl screenshots plots package package-windows fmt vet lint fuzz clean

# deps installs the missing Debian packages (as root, or through sudo).
deps:
	@./.ci/apt-install $(BUILD_PKGS)
	@command -v $(GO) >/dev/null || { echo "Go is needed: see https://go.dev/doc/install"; exit 1; }

shot-deps: deps
	@./.ci/apt-install $(SHOT_PKGS)

# The programs carry the commit they were built from (muehlectl writes it
# into the solve record), also where GOFLAGS says -buildvcs=false.
build: deps
	$(GO) build -buildvcs=auto -o $(BIN)/muehle ./cmd/muehle
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(BIN)/muehlectl ./cmd/muehlectl

muehlectl:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -o $(BIN)/muehlectl ./cmd/muehlectl

# run starts the program; without a display it says so in one line (exit
# status 3, which is not make's error).
run: build
	@./$(BIN)/muehle || [ $$? -eq 3 ]

# One mark for a long test: a test that takes over 20 s skips itself with
# -short by testenv.Long(t, why) (muehle/testenv), and a test that does
# less with -short asks testenv.Full(); no test calls testing.Short()
# itself (TestOneTestMark). test runs the suite with -short; test-long
# runs every test. A test that only the race detector makes slow skips
# under it (testenv.SlowUnderRace; testenv.Race is the module's one race
# switch) and runs in test's second pass.
#
# test is what CI runs: formatting and vet (also of the Windows code, and
# muehlectl built for macOS, so that neither breaks unseen: make
# test-windows runs the Windows programs); the suite under the race
# detector with -short, all but the package muehle, whose code and tests
# start no goroutine (TestNoGoroutines); then the pure-Go packages again
# with -short, without the race detector, built without cgo.
test: deps
	@./.ci/apt-install $(BROWSER_PKGS) || echo "chromium could not be installed"
	@if command -v chromium >/dev/null || command -v chromium-browser >/dev/null || [ -n "$$CHROMIUM" ]; then \
	  echo "browser test of the analysis page: runs (Chromium found)"; \
	  else echo "browser test of the analysis page: SKIPPED, no Chromium (apt-get install chromium, or set CHROMIUM)"; fi
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./layers/... ./retro/... ./cmd/muehlectl/...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/muehlectl
	$(GO) test -race -short -timeout 25m $$($(GO) list ./... | grep -vx muehle/muehle)
	CGO_ENABLED=0 $(GO) test -short -timeout 25m ./muehle/... ./layers/... ./retro/... ./ui/game/... ./cmd/muehlectl/...

# test-long runs every test, the long ones too (deep perft, the reference
# solvers, the players' games on solved games of four stones, larger
# solves), without -short and without the race detector.
test-long: deps
	$(GO) test -timeout 180m ./...

# test-slurm solves the whole k=5 game as a Slurm job graph on a one-node
# Slurm cluster started here without systemd, and compares every layer with
# a single-process solve (docs/cluster.md). It installs Slurm and munge
# with apt, needs root or sudo, and takes several minutes.
test-slurm:
	./.ci/test-slurm

# pgo makes the profile the build of muehlectl is optimised by
# (cmd/muehlectl/default.pgo, which go build reads by itself): a CPU
# profile of the 7-stone game solved from an empty folder, about 10
# minutes on 2 cores (docs/solver.md, "Profile-guided optimisation").
pgo: muehlectl
	rm -rf /tmp/muehle-pgo
	MUEHLE_CPUPROFILE=cmd/muehlectl/default.pgo ./$(BIN)/muehlectl solve --stones 7 --all-phases --compress --db /tmp/muehle-pgo
	rm -rf /tmp/muehle-pgo

bench: muehlectl
	$(GO) test -run '^$$' -bench . -benchtime 1s -count 5 ./muehle/... ./layers/... ./retro/... | tee bench.txt

screenshots: shot-deps build
	./.ci/screenshots

# plots draws the figures of docs/plots/*.png from the data beside them
# (each .gp file says where its data comes from).
plots:
	@./.ci/apt-install $(PLOT_PKGS)
	cd docs/plots && for f in *.gp; do gnuplot $$f || exit 1; done

# package builds the Linux package (Muehle.tar.xz in cmd/muehle) with Fyne's
# tool; it reads FyneApp.toml through cmd/muehle/FyneApp.toml and bumps Build.
package: deps
	cd cmd/muehle && $(GO) tool fyne package -os linux

# package-windows cross-compiles the desktop program (cgo with MinGW-w64,
# Fyne's packaging for the icon and version) and muehlectl for
# windows/amd64 and writes dist/muehle-VERSION-windows-amd64.zip
# (.ci/package-windows). FyneApp.toml is left as it was.
package-windows:
	@./.ci/apt-install $(WIN_PKGS)
	@command -v $(GO) >/dev/null || { echo "Go is needed: see https://go.dev/doc/install"; exit 1; }
	./.ci/package-windows

# test-windows checks the zip's programs under Wine: solves byte for byte
# the Linux ones, the same answers, shared folders, long paths, Ctrl-C, the
# window (.ci/test-windows; about 6 minutes after the zip is built).
test-windows: package-windows
	@./.ci/apt-install $(WINE_PKGS)
	./.ci/test-windows

fmt:
	gofmt -w $$(git ls-files '*.go')

vet:
	$(GO) vet ./...

$(STATICCHECK):
	GOBIN=$(abspath $(dir $(STATICCHECK))) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# lint runs staticcheck's default checks on every package.
lint: deps $(STATICCHECK)
	$(STATICCHECK) ./...

# fuzz runs every fuzz target of the module for FUZZTIME each (make fuzz
# FUZZTIME=1m); the targets are found with go test -list, so new ones join
# without a change here. A failing input is saved under the package's
# testdata/fuzz and stops the run.
fuzz: deps
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "$$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf $(BIN) bench.txt
