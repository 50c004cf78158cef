package serve

import "sync"

// answerCache keeps encoded answers by game and position, up to a number
// of bytes; when full, the oldest answers go first. The database is
// read-only, so an answer never goes stale. Safe for concurrent use.
type answerCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[string][]byte
	order []string // keys, oldest first
	head  int      // the first live key of order
}

// newAnswerCache returns a cache of at most max bytes (0: no cache).
func newAnswerCache(max int) *answerCache {
	return &answerCache{max: max, m: map[string][]byte{}}
}

// get returns the answer under key.
func (c *answerCache) get(key string) ([]byte, bool) {
	if c.max == 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put keeps the answer b under key, dropping the oldest answers to make
// room; an answer larger than the cache is not kept.
func (c *answerCache) put(key string, b []byte) {
	n := len(key) + len(b)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return
	}
	for c.size+n > c.max && c.head < len(c.order) {
		old := c.order[c.head]
		c.order[c.head] = ""
		c.head++
		c.size -= len(old) + len(c.m[old])
		delete(c.m, old)
	}
	if c.head > len(c.order)/2 {
		c.order = append(c.order[:0], c.order[c.head:]...)
		c.head = 0
	}
	c.m[key] = b
	c.order = append(c.order, key)
	c.size += n
}
