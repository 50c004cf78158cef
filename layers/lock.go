package layers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// A lock file claims a unit of work (a moving pair or a placement layer,
// DB.Claim) for one solver, so that several solvers (on one machine or
// several, over a shared folder) share a database folder without doing a
// unit twice. A solver creates the file with O_EXCL, holding who it is
// (LockInfo), and rewrites it every LockHeartbeat. Readers (query, stats,
// the players) never take one. A lock is stale, and is taken over, when its
// heartbeat is older than LockStale, whoever holds it, or, on this host,
// when its process is gone or the process of that id is another one (it
// started at another time: the id was reused, as after a restart in a
// fresh container).
const (
	// LockHeartbeat is how often a holder rewrites its lock.
	LockHeartbeat = 15 * time.Second
	// LockStale is the age of a heartbeat after which a lock is stale:
	// four heartbeats missed. A holder that was suspended that long finds
	// its lock taken over and stops beating (the unit it computes is
	// then computed twice, to the same files).
	LockStale = 4 * LockHeartbeat
)

// ErrLocked is wrapped by the error of AcquireLock when another live
// process holds the lock.
var ErrLocked = errors.New("locked by another solver")

// LockInfo is what a lock file says about its holder.
type LockInfo struct {
	Host      string    `json:"host"`
	PID       int       `json:"pid"`
	Command   string    `json:"command"`
	Start     time.Time `json:"start"`
	Heartbeat time.Time `json:"heartbeat"`
	// ProcStart is when the holder's process started as the system
	// counts it (Linux: clock ticks since boot, /proc/PID/stat; Windows:
	// its creation time in 100 ns since 1601), so that a reused process id
	// is told from the holder; 0 where unknown.
	ProcStart uint64 `json:"proc_start,omitempty"`
	// OS is the holder's system (runtime.GOOS; absent in the locks of
	// older versions, which ran on Unix only): process ids are compared
	// only between processes of one kind, since a Windows program under
	// Wine, or in WSL's neighbourhood, shares the host name but not the
	// process ids of Linux.
	OS string `json:"os,omitempty"`
}

// String names the holder: "pid 123 on host x (muehlectl solve), since
// 13:40:01 UTC, heartbeat 5s ago".
func (i LockInfo) String() string {
	return fmt.Sprintf("pid %d on host %s (%s), since %s, heartbeat %s ago", i.PID, i.Host, i.Command,
		i.Start.UTC().Format("2006-01-02 15:04:05 UTC"), time.Since(i.Heartbeat).Round(time.Second))
}

// stale reports whether the holder is gone: its heartbeat is older than
// LockStale, whatever its process id, or, on this host, no process has that
// id or the one that has it started at another time than the holder.
func (i LockInfo) stale(host string, now time.Time) bool {
	if now.Sub(i.Heartbeat) > LockStale {
		return true
	}
	if i.Host != host || !samePIDs(i.OS) {
		return false
	}
	if !processAlive(i.PID) {
		return true
	}
	start, ok := processStart(i.PID)
	return ok && i.ProcStart != 0 && start != i.ProcStart
}

// samePIDs reports whether the process ids of a lock holder on system
// goos (as LockInfo.OS says it) are this process's kind.
func samePIDs(goos string) bool {
	if goos == "" { // written before the field: on Unix
		return runtime.GOOS != "windows"
	}
	return goos == runtime.GOOS
}

// LockedError reports the holder of a lock.
type LockedError struct {
	Path   string
	Holder LockInfo
}

// Error names the lock file and its holder.
func (e *LockedError) Error() string {
	return fmt.Sprintf("layers: %s: %v: held by %v", e.Path, ErrLocked, e.Holder)
}

// Unwrap returns ErrLocked.
func (e *LockedError) Unwrap() error { return ErrLocked }

// Lock is a held lock file. Release it when done.
type Lock struct {
	path string
	info LockInfo
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// AcquireLock takes the lock file at path (creating its folder if needed).
// When a live process holds it, it returns a *LockedError naming the
// holder; with wait set it instead polls every second until the lock is
// free or ctx ends. A stale lock is taken over.
func AcquireLock(ctx context.Context, path string, wait bool) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("layers: locking %s: %w", path, err)
	}
	host, _ := os.Hostname()
	now := time.Now()
	l := &Lock{
		path: path,
		info: LockInfo{Host: host, PID: os.Getpid(), Command: commandLine(), Start: now, Heartbeat: now, OS: runtime.GOOS},
		stop: make(chan struct{}),
	}
	l.info.ProcStart, _ = processStart(l.info.PID)
	for {
		err := l.tryCreate()
		if err == nil {
			break
		}
		if !errors.Is(err, ErrLocked) || !wait {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (stopped waiting: %w)", err, ctx.Err())
		case <-time.After(time.Second):
		}
	}
	l.wg.Add(1)
	go l.beat()
	return l, nil
}

// commandLine returns the program name and its first arguments, for the
// lock's holder description.
func commandLine() string {
	args := append([]string{filepath.Base(os.Args[0])}, os.Args[1:min(len(os.Args), 3)]...)
	return strings.Join(args, " ")
}

// tryCreate creates the lock file, taking over a stale one; it returns a
// *LockedError when a live holder has it.
func (l *Lock) tryCreate() error {
	for range 3 {
		err := l.write(os.O_WRONLY | os.O_CREATE | os.O_EXCL)
		if err == nil {
			return nil
		}
		if !errors.Is(err, os.ErrExist) {
			return err
		}
		old, raw, err := readLock(l.path)
		if errors.Is(err, os.ErrNotExist) {
			continue // released meanwhile
		}
		if err == nil && !old.stale(l.info.Host, time.Now()) {
			return &LockedError{Path: l.path, Holder: old}
		}
		if err != nil && youngerThan(l.path, 10*time.Second) {
			// Unreadable but new: a holder between creating and writing it.
			return &LockedError{Path: l.path, Holder: LockInfo{Command: "unknown, starting", Start: time.Now(), Heartbeat: time.Now()}}
		}
		// Stale, or unreadable and old (a holder that died while creating
		// it): take it over, unless it changed since we read it (a live
		// holder's heartbeat, or another process that took it over first).
		if _, now, _ := readLock(l.path); string(now) == string(raw) {
			removeFile(l.path)
		}
	}
	old, _, _ := readLock(l.path)
	return &LockedError{Path: l.path, Holder: old}
}

// youngerThan reports whether the file at path was modified within d.
func youngerThan(path string, d time.Duration) bool {
	fi, err := os.Stat(path)
	return err == nil && time.Since(fi.ModTime()) < d
}

// write writes the lock's info to its file with the given open flags.
func (l *Lock) write(flags int) error {
	b, _ := json.Marshal(l.info)
	f, err := openRegular(l.path, flags, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return err
		}
		return fmt.Errorf("layers: locking: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("layers: locking: %w", err)
	}
	return nil
}

// readLock reads a lock file: its holder and its bytes.
func readLock(path string) (LockInfo, []byte, error) {
	var i LockInfo
	b, err := ReadRegular(path, 1<<16)
	if err != nil {
		return i, nil, err
	}
	if err := json.Unmarshal(b, &i); err != nil {
		return i, b, fmt.Errorf("layers: %s: %w: %w", path, ErrFormat, err)
	}
	return i, b, nil
}

// ReadLock returns the holder of the lock file at path; an error wrapping
// os.ErrNotExist when nobody holds it.
func ReadLock(path string) (LockInfo, error) {
	i, _, err := readLock(path)
	return i, err
}

// beat rewrites the lock every LockHeartbeat until Release.
func (l *Lock) beat() {
	defer l.wg.Done()
	t := time.NewTicker(LockHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			if !l.ours() {
				return // taken over: we were taken for dead
			}
			l.info.Heartbeat = now
			tmp := l.path + ".beat"
			b, _ := json.Marshal(l.info)
			if WriteRegular(tmp, append(b, '\n')) == nil {
				ReplaceFile(tmp, l.path)
			}
		}
	}
}

// ours reports whether the lock file is still this Lock's.
func (l *Lock) ours() bool {
	i, _, err := readLock(l.path)
	return err == nil && i.Host == l.info.Host && i.PID == l.info.PID && i.Start.Equal(l.info.Start)
}

// Release stops the heartbeat and removes the lock file if it is still
// this Lock's. It may be called more than once.
func (l *Lock) Release() error {
	var err error
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
		if l.ours() {
			if e := removeFile(l.path); e != nil {
				err = fmt.Errorf("layers: unlocking: %w", e)
			}
		}
	})
	return err
}
