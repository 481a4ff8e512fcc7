package engine

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// maxHeader bounds the header line JournalShard reads.
const maxHeader = 1 << 20

// JournalShard returns the shard of the campaign whose journal is in the
// output directory dir: what a resume without --shard continues.
func JournalShard(dir string) (Shard, error) {
	f, name, err := OpenJournal(dir)
	if err != nil {
		return Shard{}, err
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, maxHeader)).ReadBytes('\n')
	if err != nil {
		return Shard{}, fmt.Errorf("%s: no header", name)
	}
	var h header
	if json.Unmarshal(line, &h) != nil || h.Journal == 0 {
		return Shard{}, fmt.Errorf("%s: not an mcpt journal", name)
	}
	return ParseShard(h.Fingerprint["shard"])
}

// ParseShard parses the form String gives: "i/n", or "" for unsharded.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.Index, &sh.Count); err != nil || sh.Count < 2 || sh.Index < 0 || sh.Index >= sh.Count || sh.String() != s {
		return Shard{}, fmt.Errorf("bad shard %q: want i/n", s)
	}
	return sh, nil
}

// shardHint tells the --shard that resumes a journal when its shard is all
// that differs from the campaign's.
func shardHint(was, now map[string]string) string {
	if was["shard"] == now["shard"] {
		return ""
	}
	for k, v := range was {
		if k != "shard" && now[k] != v {
			return ""
		}
	}
	for k := range now {
		if _, ok := was[k]; !ok && k != "shard" {
			return ""
		}
	}
	s := was["shard"]
	if s == "" {
		s = "none"
	}
	return fmt.Sprintf(" (--shard %s resumes it, or --resume without --shard)", s)
}

// JournalFingerprint returns the fingerprint in the header of a journal,
// its first line: what decided the campaign's results, among them the
// content hash of each seed ("seed NAME", see ContentHash).
func JournalFingerprint(line []byte) (map[string]string, error) {
	var h header
	if json.Unmarshal(line, &h) != nil || h.Journal == 0 {
		return nil, fmt.Errorf("not an mcpt journal")
	}
	return h.Fingerprint, nil
}
