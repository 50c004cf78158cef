package dbservice

import (
	"fmt"
	"time"
)

// Count writes n with thousands separators: 1,234,567.
func Count(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Bytes writes n bytes in the largest fitting unit: "3.2 GB".
func Bytes(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Rough writes d the way a person estimates it: "40 s", "12 min",
// "3.5 hours", "2.1 days".
func Rough(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", max(1, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()+0.5))
	case d < 48*time.Hour:
		return fmt.Sprintf("%.1f hours", d.Hours())
	}
	return fmt.Sprintf("%.1f days", d.Hours()/24)
}

// Clock writes an elapsed time as hours and minutes, "1:05 h", or minutes
// and seconds, "4:09 min".
func Clock(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d h", s/3600, s/60%60)
	}
	return fmt.Sprintf("%d:%02d min", s/60, s%60)
}

// Percent writes a share as a person reads it on a progress bar: whole
// percents, with a decimal below 10 % (a long computation stays under 1 %
// for many minutes), "under 0.1 %" at its start, never 100 % before the
// end.
func Percent(f float64) string {
	switch {
	case f <= 0:
		return "0 %"
	case f < 0.001:
		return "under 0.1 %"
	case f < 0.0995:
		return fmt.Sprintf("%.1f %%", 100*f)
	case f < 1 && f >= 0.995:
		return "99 %"
	}
	return fmt.Sprintf("%.0f %%", 100*f)
}

// LayerCount writes n layers: "1 layer", "62 layers".
func LayerCount(n int) string {
	if n == 1 {
		return "1 layer"
	}
	return fmt.Sprintf("%d layers", n)
}
