package layers

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// sysOpen is os.OpenFile for the flags this package uses (O_RDONLY,
// O_WRONLY, O_RDWR, O_CREATE, O_EXCL, O_TRUNC, O_APPEND), with the file
// shared for deletion as well as reading and writing: while it is open,
// another process may still rename it aside or remove it (os.OpenFile
// does not allow that, so that a reader of a claim or a block file would
// make its writer's rename fail). Paths longer than 247 characters get
// the \\?\ prefix, as the os package gives them.
func sysOpen(path string, flag int, perm os.FileMode) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(longPath(path))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var access uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		access = windows.GENERIC_READ
	case os.O_WRONLY:
		access = windows.GENERIC_WRITE
	case os.O_RDWR:
		access = windows.GENERIC_READ | windows.GENERIC_WRITE
	}
	if flag&os.O_APPEND != 0 {
		// Appending: every right of GENERIC_WRITE but FILE_WRITE_DATA, so
		// that each write goes to the end (as os.OpenFile does).
		access &^= windows.GENERIC_WRITE
		access |= windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES | windows.FILE_WRITE_EA |
			windows.STANDARD_RIGHTS_WRITE | windows.SYNCHRONIZE
	}
	var create uint32
	switch {
	case flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		create = windows.CREATE_NEW
	case flag&(os.O_CREATE|os.O_TRUNC) == os.O_CREATE|os.O_TRUNC:
		create = windows.CREATE_ALWAYS
	case flag&os.O_CREATE != 0:
		create = windows.OPEN_ALWAYS
	case flag&os.O_TRUNC != 0:
		create = windows.TRUNCATE_EXISTING
	default:
		create = windows.OPEN_EXISTING
	}
	attrs := uint32(windows.FILE_ATTRIBUTE_NORMAL)
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		// A folder opens too (and is then refused as not regular).
		attrs |= windows.FILE_FLAG_BACKUP_SEMANTICS
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	h, err := windows.CreateFile(name, access, share, nil, create, attrs, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// longPath returns path in the form the system takes beyond the old limit
// of 260 characters: absolute, with the \\?\ prefix (\\?\UNC\ for a
// network path), when it is 248 characters long or longer.
func longPath(path string) string {
	if strings.HasPrefix(path, `\\?\`) {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil || len(abs) < 248 {
		return path
	}
	if strings.HasPrefix(abs, `\\`) {
		return `\\?\UNC\` + abs[2:]
	}
	return `\\?\` + abs
}
