package relation

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/mcpt-tool/mcpt/internal/namecase"
)

// Snake is the snake case of a name: an underscore goes before an upper-case
// letter preceded by a lower-case letter or a digit, and before an upper-case
// letter followed by a lower-case letter and preceded by an upper-case
// letter; then everything is lower-cased (CameraOn → camera_on, HTTPServer →
// http_server).
func Snake(s string) string { return namecase.Snake(s) }

// Upper is the upper case of the snake case of a name.
func Upper(s string) string { return namecase.Upper(s) }

// FreshPattern generates names from a pattern made of literal characters and
// classes such as [a-z]{6}.
type FreshPattern struct {
	src   string
	parts []part
}

type part struct {
	lit   string
	set   []rune
	count int
}

// ParseFreshPattern parses a pattern like "Zq[a-z]{6}".
func ParseFreshPattern(p string) (*FreshPattern, error) {
	fp := &FreshPattern{src: p}
	r := []rune(p)
	variety := 1.0
	for i := 0; i < len(r); {
		if r[i] != '[' {
			j := i
			for j < len(r) && r[j] != '[' {
				j++
			}
			fp.parts = append(fp.parts, part{lit: string(r[i:j])})
			i = j
			continue
		}
		end := i + 1
		for end < len(r) && r[end] != ']' {
			end++
		}
		if end == len(r) {
			return nil, fmt.Errorf("fresh-name pattern %q: unterminated [", p)
		}
		var set []rune
		cls := r[i+1 : end]
		for k := 0; k < len(cls); k++ {
			if k+2 < len(cls) && cls[k+1] == '-' {
				if cls[k] > cls[k+2] {
					return nil, fmt.Errorf("fresh-name pattern %q: bad range %c-%c", p, cls[k], cls[k+2])
				}
				for c := cls[k]; c <= cls[k+2]; c++ {
					set = append(set, c)
				}
				k += 2
				continue
			}
			set = append(set, cls[k])
		}
		if len(set) == 0 {
			return nil, fmt.Errorf("fresh-name pattern %q: empty class", p)
		}
		count := 1
		i = end + 1
		if i < len(r) && r[i] == '{' {
			close := i + 1
			for close < len(r) && r[close] != '}' {
				close++
			}
			if close == len(r) {
				return nil, fmt.Errorf("fresh-name pattern %q: unterminated {", p)
			}
			if _, err := fmt.Sscanf(string(r[i+1:close]), "%d", &count); err != nil || count < 1 || count > 64 {
				return nil, fmt.Errorf("fresh-name pattern %q: bad count %q", p, string(r[i+1:close]))
			}
			i = close + 1
		}
		for range count {
			variety *= float64(len(set))
		}
		fp.parts = append(fp.parts, part{set: set, count: count})
	}
	if variety < 1000 {
		return nil, fmt.Errorf("fresh-name pattern %q gives too few names", p)
	}
	return fp, nil
}

func (fp *FreshPattern) String() string { return fp.src }

// Name draws one name from the pattern.
func (fp *FreshPattern) Name(rng *rand.Rand) string {
	var b strings.Builder
	for _, p := range fp.parts {
		if p.set == nil {
			b.WriteString(p.lit)
			continue
		}
		for range p.count {
			b.WriteRune(p.set[rng.IntN(len(p.set))])
		}
	}
	return b.String()
}

// Fresh draws a name that, with its snake and upper case forms, occurs
// nowhere in src (compared case-insensitively) and is not in taken. It tries a
// bounded number of times.
func (fp *FreshPattern) Fresh(rng *rand.Rand, src []byte, taken map[string]bool) (string, error) {
	lower := lowerOf(src)
	for range 1000 {
		n := fp.Name(rng)
		if taken[strings.ToLower(n)] || taken[Snake(n)] {
			continue
		}
		if strings.Contains(lower, strings.ToLower(n)) || strings.Contains(lower, Snake(n)) {
			continue
		}
		taken[strings.ToLower(n)] = true
		taken[Snake(n)] = true
		return n, nil
	}
	return "", fmt.Errorf("could not draw a fresh name from %q", fp.src)
}

// lowered are the last inputs Fresh read, each with its lower case: it is
// asked for every fresh name of every test case on the same few seeds,
// and lowering a seed of megabytes each time cost more than the rest of
// the mutation. An input is compared byte for byte (a copy is kept), which
// costs no allocation.
var lowered struct {
	sync.Mutex
	src   [4][]byte
	lower [4]string
	next  int
}

func lowerOf(src []byte) string {
	if len(src) < 4<<10 {
		return strings.ToLower(string(src))
	}
	lowered.Lock()
	defer lowered.Unlock()
	for i, s := range lowered.src {
		if bytes.Equal(s, src) {
			return lowered.lower[i]
		}
	}
	i := lowered.next
	lowered.next = (i + 1) % len(lowered.src)
	lowered.src[i] = bytes.Clone(src)
	lowered.lower[i] = strings.ToLower(string(src))
	return lowered.lower[i]
}
