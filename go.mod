module muehle

go 1.26.8

require (
	fyne.io/fyne/v2 v2.8.1 // indirect
	github.com/edsrzf/mmap-go v1.2.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
