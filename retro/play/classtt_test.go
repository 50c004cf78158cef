package play

import "testing"

// TestClassTableClear checks that a cleared table holds nothing, the
// entries of before not even where the generations wrap around, and
// keeps what is put after (clear starts a generation: issue 48, a large
// table emptied at once).
func TestClassTableClear(t *testing.T) {
	tab := newClassTable(6)
	keys := []classKey{1, 2, 77, 1 << 50, 1<<50 + 3}
	for i, k := range keys {
		tab.put(k, int16(-i), int16(i))
	}
	for round := 0; round < 3; round++ {
		if _, _, ok := tab.get(keys[0]); !ok {
			t.Fatalf("round %d: key %d put before the clear is not there", round, keys[0])
		}
		if round == 1 {
			tab.gen = ^uint32(0) // the next clear wraps around
		}
		tab.clear()
		for _, k := range keys {
			if lo, hi, ok := tab.get(k); ok {
				t.Errorf("round %d: after clear, key %d holds %d..%d", round, k, lo, hi)
			}
		}
		tab.put(keys[0], -5, 5)
		if lo, hi, ok := tab.get(keys[0]); !ok || lo != -5 || hi != 5 {
			t.Errorf("round %d: after clear and put: got %d..%d, %v; want -5..5", round, lo, hi, ok)
		}
	}
}
