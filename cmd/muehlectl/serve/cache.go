package serve

import "sync"

// answerCache keeps encoded answers by game and query string, up to a
// number of bytes; when full, the oldest answers go first. The database is
// read-only, so an answer never goes stale. Safe for concurrent use.
type answerCache struct {
	mu    sync.Mutex
	max   int
	size  int
	m     map[string]encoded
	order []string // keys, oldest first
	head  int      // the first live key of order
}

// newAnswerCache returns a cache of at most max bytes (0: no cache).
func newAnswerCache(max int) *answerCache {
	return &answerCache{max: max, m: map[string]encoded{}}
}

// encoded is an answer as the server sends it: the JSON and its length,
// the value of its Content-Length header.
type encoded struct {
	body   []byte
	length []string
}

// get returns the answer under key.
func (c *answerCache) get(key string) (encoded, bool) {
	if c.max == 0 {
		return encoded{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put keeps the answer e under key, dropping the oldest answers to make
// room; an answer larger than the cache is not kept.
func (c *answerCache) put(key string, e encoded) {
	n := len(key) + len(e.body)
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
		c.size -= len(old) + len(c.m[old].body)
		delete(c.m, old)
	}
	if c.head > len(c.order)/2 {
		c.order = append(c.order[:0], c.order[c.head:]...)
		c.head = 0
	}
	c.m[key] = e
	c.order = append(c.order, key)
	c.size += n
}
