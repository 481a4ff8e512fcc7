package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/result"
)

// The journal is OUT/journal.jsonl: a header line with the fingerprint of
// the campaign, then one line per finished test case, in plan order, each
// with the campaign time used when it was written. A case with a finding is
// synced to disk before Run goes on, so that a finding once reported
// survives kill -9; cases without findings are synced in batches, and a case
// lost with an unsynced batch is simply run again on resume (the plan is
// deterministic, so it gives the same result). Because cases are written in
// plan order, the cases a journal holds are all the cases of the plan up to
// its last one: a resume needs to keep nothing of them but that index, the
// time used, and what the report counts.
//
// Each record ends with a checksum chained from the header through every
// record before it (see seal), so that a record changed, dropped or moved
// in the middle, even into another valid record, is refused on resume.
// The journal appears whole with its header (a temporary file renamed into
// place), and a journal a kill left empty is a campaign that did nothing.
// A finding with a bundle is journaled lean (result.Finding.Lean), its
// bundle written before; a resume reads its evidence back from there. A
// campaign that ran to its end has its journal packed by its caller
// (PackJournal), and a resume unpacks it first.
type journal struct {
	f        *os.File
	w        *bufio.Writer
	lastSync time.Time
	pending  int
	findings bool   // a record appended since the last sync has findings
	chain    []byte // the checksum of the last line written
	syncs    int    // of syncFile, for the tests
}

const (
	journalName = "journal.jsonl"
	// journalVersion 3 added the records' checksums, 4 the findings
	// counted in their group (without evidence) and the candidates, 5
	// the lean findings (evidence_sum: their whole files in their
	// bundles). A journal of version 4 is read as well: its findings are
	// whole.
	journalVersion = 5
	// journalOldest is the oldest version resumed.
	journalOldest = 4
)

// JournalName is the file name of the journal in the output directory.
const JournalName = journalName

// ErrCannotResume is the error of a resume that is refused: no journal, a
// journal of another campaign, or a damaged one.
var ErrCannotResume = errors.New("cannot resume")

// header identifies the campaign a journal belongs to; resume refuses a
// journal whose fingerprint differs from the campaign's.
type header struct {
	Journal     int               `json:"journal"`
	Fingerprint map[string]string `json:"fingerprint"`
}

// record is a journal line after the header.
type record struct {
	*CaseResult
	// ElapsedNS is the campaign time used when the case was journaled,
	// over every session of the campaign.
	ElapsedNS int64 `json:"elapsed_ns"`
}

// ContentHash is the short hash of a file's content that fingerprints use.
func ContentHash(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:8])
}

// fingerprint is everything that decides the results of the campaign: the
// options the engine sees, the relations and the seeds (by content), and
// what the caller adds in Options.Fingerprint.
func (c *Campaign) fingerprint(opt Options) map[string]string {
	itoa := strconv.Itoa
	fp := map[string]string{
		"mode": string(opt.Mode), "seed": strconv.FormatUint(opt.Seed, 10),
		"max_time": opt.MaxTime.String(), "max_cases": itoa(opt.MaxCases),
		"max_mr": itoa(opt.MaxMR), "max_spots": itoa(opt.MaxSpots),
		"shard": opt.Shard.String(), "base_runs": itoa(opt.BaseRuns),
		"feedback":          strconv.FormatBool(opt.Feedback),
		"confirm_runs":      itoa(confirmRuns(opt)),
		"bundles_per_group": itoa(bundlesPerGroup(opt)),
		"confirm_counted":   confirmCountedString(opt),
		"exhaustive":        strconv.FormatBool(opt.Exhaustive),
	}
	var rules []string
	for _, r := range opt.Normalize {
		rep := "(drop)"
		if r.Replace != nil {
			rep = strconv.Quote(*r.Replace)
		}
		rules = append(rules, fmt.Sprintf("%q %q %s", r.Files, r.Match, rep))
	}
	fp["normalize"] = "[" + strings.Join(rules, "; ") + "]"
	var rels []string
	for _, r := range c.Relations {
		rels = append(rels, r.Name)
	}
	fp["relations"] = "[" + strings.Join(rels, " ") + "]"
	for _, s := range c.Seeds {
		fp["seed "+s.Name] = ContentHash(s.Src)
	}
	// A campaign without flags or release fingerprints as before them.
	if len(opt.Flags) > 0 {
		fp["flags"] = opt.Flags.Fingerprint()
	}
	if opt.Release != "" {
		fp["release"] = opt.Release
	}
	for k, v := range opt.Fingerprint {
		fp[k] = v
	}
	return fp
}

// fingerprintDiff says how the fingerprint of a journal differs from the
// campaign's, naming at most three differences.
func fingerprintDiff(was, now map[string]string) string {
	var keys []string
	for k := range was {
		keys = append(keys, k)
	}
	for k := range now {
		if _, ok := was[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	show := func(m map[string]string, k string) string {
		v, ok := m[k]
		switch {
		case !ok:
			return "none"
		case v == "":
			return `""`
		}
		return v
	}
	var diffs []string
	for _, k := range keys {
		a, aok := was[k]
		b, bok := now[k]
		if a != b || aok != bok {
			diffs = append(diffs, fmt.Sprintf("%s differs: journal has %s, now %s", k, show(was, k), show(now, k)))
		}
	}
	if len(diffs) > 3 {
		diffs = append(diffs[:3], fmt.Sprintf("and %d more differences", len(diffs)-3))
	}
	return strings.Join(diffs, "; ")
}

// resumePoint is what a resume keeps of a journal.
type resumePoint struct {
	last    int           // index of the last case journaled; -1 for none
	elapsed time.Duration // campaign time used by then
}

// openJournal creates the journal, or, when resuming, reads the cases it
// holds (handing each to visit, in plan order) and reopens it for
// appending. check validates a case against the campaign. A journal that
// holds no header (a kill right after it was made) is made afresh.
func openJournal(dir string, fp map[string]string, resume bool, check func(*CaseResult) error, visit func(*CaseResult)) (*journal, resumePoint, error) {
	none := resumePoint{last: -1}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, none, err
	}
	p := filepath.Join(dir, journalName)
	if !resume {
		return createJournal(p, fp)
	}
	if err := UnpackJournal(dir); err != nil {
		return nil, none, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, none, fmt.Errorf("%w: %w", ErrCannotResume, err)
	}
	jr := journalReader{name: p, want: fp, check: check, visit: visit}
	valid, rp, err := jr.read(f)
	f.Close()
	if errors.Is(err, errNoHeader) {
		return createJournal(p, fp)
	}
	if err != nil {
		return nil, none, fmt.Errorf("%w: %w", ErrCannotResume, err)
	}
	// Cut a torn last line (a kill in the middle of a write).
	if err := os.Truncate(p, valid); err != nil {
		return nil, none, err
	}
	if err := removeBundleTemps(dir); err != nil {
		return nil, none, err
	}
	f, err = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, none, err
	}
	return &journal{f: f, w: bufio.NewWriter(f), lastSync: time.Now(), chain: jr.chain}, rp, nil
}

// createJournal writes the journal p with its header alone: a temporary
// file beside it, synced and renamed into place, so that p never exists
// without its header.
func createJournal(p string, fp map[string]string) (*journal, resumePoint, error) {
	none := resumePoint{last: -1}
	hb, err := json.Marshal(header{Journal: journalVersion, Fingerprint: fp})
	if err != nil {
		return nil, none, err
	}
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, none, err
	}
	_, err = f.Write(append(hb, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return nil, none, fmt.Errorf("journal: %w", err)
	}
	// Appended to under its own name, which write errors then give.
	if f, err = os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, none, err
	}
	return &journal{f: f, w: bufio.NewWriter(f), lastSync: time.Now(), chain: headerSum(hb)}, none, nil
}

// headerSum starts the checksum chain of a journal from its header line.
func headerSum(line []byte) []byte {
	h := sha256.Sum256(line)
	return h[:]
}

// sumKey ends a record: the checksum, in hex, of the line before it and
// the record without its checksum.
const (
	sumKey = `,"sum":"`
	sumHex = 32
)

// seal returns the line of record body (a JSON object) after the line whose
// checksum is prev, and the record's checksum.
func seal(prev, body []byte) (line, sum []byte) {
	h := sha256.New()
	h.Write(prev)
	h.Write(body)
	sum = h.Sum(nil)
	line = append([]byte(nil), body[:len(body)-1]...)
	line = append(line, sumKey...)
	line = append(line, hex.EncodeToString(sum[:sumHex/2])...)
	line = append(line, `"}`...)
	return line, sum
}

// unseal checks the checksum of a record line (without its newline) after
// the line whose checksum is prev, and returns the record without it and
// its checksum.
func unseal(prev, line []byte) (body, sum []byte, err error) {
	n := len(line) - len(sumKey) - sumHex - 2
	if n < 1 || !bytes.HasPrefix(line[n:], []byte(sumKey)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return nil, nil, errors.New("damaged record: no checksum")
	}
	body = append(line[:n:n], '}')
	want, sum := seal(prev, body)
	if !bytes.Equal(want, line) {
		return nil, nil, errors.New("damaged record: its checksum does not match (the record, or one before it, was changed)")
	}
	return body, sum, nil
}

// leanCase is cr as the journal keeps it: its findings with a bundle
// lean (see result.Finding.Lean), their whole-file evidence in the
// bundle, which is written before the case is journaled. cr itself is
// left as it is.
func leanCase(cr *CaseResult) *CaseResult {
	lean := cr
	for i := range cr.Findings {
		f := cr.Findings[i].Lean()
		if f.EvidenceSum == cr.Findings[i].EvidenceSum {
			continue
		}
		if lean == cr {
			c := *cr
			c.Findings = slices.Clone(cr.Findings)
			lean = &c
		}
		lean.Findings[i] = f
	}
	return lean
}

// evidence reads back, on resume, the whole-file evidence of the lean
// findings of journaled cases from their bundles, so that a resumed
// campaign holds the findings an uninterrupted one holds (their groups'
// examples and titles read that evidence). The output directory is
// opened on the first lean finding.
type evidence struct {
	dir string
	rd  *bundle.Reader
	err error
}

func (e *evidence) fill(cr *CaseResult) {
	if !slices.ContainsFunc(cr.Findings, func(f result.Finding) bool { return f.IsLean() }) {
		return
	}
	if e.rd == nil && e.err == nil {
		e.rd, e.err = bundle.Open(e.dir)
	}
	if e.rd != nil {
		e.rd.FillEvidence(cr.Findings)
	}
}

func (e *evidence) close() {
	if e.rd != nil {
		e.rd.Close()
	}
}

// removeBundleTemps removes what mcpt wrote in the temporary directories
// of bundles that a kill left half-written (see bundle.RemoveTemps).
func removeBundleTemps(dir string) error {
	return bundle.RemoveTemps(filepath.Join(dir, bundle.Dir))
}

// journalReader reads a journal line by line, keeping nothing but the
// resume point and the checksum chain: every case goes to check, then to
// visit.
type journalReader struct {
	name  string
	want  map[string]string // nil: any campaign's (see JournalReport)
	check func(*CaseResult) error
	visit func(*CaseResult)
	chain []byte
	// fingerprint is the header's.
	fingerprint map[string]string
}

// errNoHeader is a journal without a whole header line: a kill came
// before it was written, and nothing was done.
var errNoHeader = errors.New("the journal has no header")

// read returns the length of the journal without a torn last line, and
// the resume point. A line that is not a valid record is an error naming
// the line, unless it is the last one and lacks its newline (a kill in the
// middle of a write).
func (jr *journalReader) read(r io.Reader) (int64, resumePoint, error) {
	rp := resumePoint{last: -1}
	br := bufio.NewReader(r)
	var valid int64
	for n := 1; ; n++ {
		line, err := readLine(br, maxRecord)
		if err == io.EOF {
			if n == 1 {
				return 0, rp, errNoHeader
			}
			return valid, rp, nil // a torn last line, if any, is dropped
		}
		if err != nil {
			return 0, rp, fmt.Errorf("%s:%d: %w", jr.name, n, err)
		}
		if n == 1 {
			err = jr.header(line)
		} else {
			err = jr.record(line, &rp)
		}
		if err != nil {
			return 0, rp, fmt.Errorf("%s:%d: %w", jr.name, n, err)
		}
		valid += int64(len(line))
	}
}

// maxRecord bounds a line of a journal: a record holds at most a few
// output files, each far smaller.
const maxRecord = 256 << 20

// readLine reads a line as bufio.Reader.ReadBytes does, refusing one
// longer than limit before it has read more.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, fmt.Errorf("a line longer than %d MiB: not a journal mcpt wrote", limit>>20)
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

func (jr *journalReader) header(line []byte) error {
	jr.chain = headerSum(bytes.TrimSuffix(line, []byte("\n")))
	var h header
	if json.Unmarshal(line, &h) != nil || h.Journal == 0 {
		return errors.New("not an mcpt journal")
	}
	if h.Journal < 3 {
		return fmt.Errorf("a journal of an earlier mcpt (version %d, without the checksums of version 3), which this one does not resume: finish the campaign with the mcpt that began it, or start afresh", h.Journal)
	}
	if h.Journal < journalOldest {
		return fmt.Errorf("a journal of an earlier mcpt (version %d, which bundled every finding; this one writes version %d), which this one does not resume: finish the campaign with the mcpt that began it, or start afresh", h.Journal, journalVersion)
	}
	if h.Journal > journalVersion {
		return fmt.Errorf("a journal of another version of mcpt (%d, this one writes %d)", h.Journal, journalVersion)
	}
	jr.fingerprint = h.Fingerprint
	if jr.want == nil {
		return nil
	}
	if d := fingerprintDiff(h.Fingerprint, jr.want); d != "" {
		return fmt.Errorf("the journal belongs to another campaign: %s%s", d, shardHint(h.Fingerprint, jr.want))
	}
	return nil
}

func (jr *journalReader) record(line []byte, rp *resumePoint) error {
	body, sum, err := unseal(jr.chain, bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		return err
	}
	jr.chain = sum
	rec := record{CaseResult: &CaseResult{}, ElapsedNS: -1}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return fmt.Errorf("damaged record: %v", err)
	}
	cr := rec.CaseResult
	if err := jr.check(cr); err != nil {
		return fmt.Errorf("case %d: %w", cr.Index, err)
	}
	if cr.Index <= rp.last {
		return fmt.Errorf("case %d after case %d: not in plan order", cr.Index, rp.last)
	}
	if rec.ElapsedNS < 0 {
		return fmt.Errorf("case %d: no elapsed_ns", cr.Index)
	}
	rp.last = cr.Index
	rp.elapsed = max(rp.elapsed, time.Duration(rec.ElapsedNS))
	jr.visit(cr)
	return nil
}

func (j *journal) append(cr *CaseResult, elapsed time.Duration) error {
	b, err := json.Marshal(record{CaseResult: leanCase(cr), ElapsedNS: elapsed.Nanoseconds()})
	if err != nil {
		return err
	}
	line, sum := seal(j.chain, b)
	j.chain = sum
	if _, err := j.w.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.pending++
	j.findings = j.findings || len(cr.Findings) > 0
	if time.Since(j.lastSync) > 200*time.Millisecond {
		return j.sync()
	}
	return nil
}

// flushFindings writes out the records appended since the last sync and
// tells whether one of them has findings, which syncFile must then put on
// disk before they are shown. The journal's writer is the collector's;
// syncFile may run beside it.
func (j *journal) flushFindings() (bool, error) {
	if !j.findings {
		return false, nil
	}
	if err := j.w.Flush(); err != nil {
		return false, fmt.Errorf("journal: %w", err)
	}
	j.lastSync, j.pending, j.findings = time.Now(), 0, false
	return true, nil
}

// syncFile puts what was written of the journal on disk.
func (j *journal) syncFile() error {
	j.syncs++
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

func (j *journal) sync() error {
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.lastSync, j.pending, j.findings = time.Now(), 0, false
	return nil
}

func (j *journal) close() error {
	err := j.sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func sortedInts[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
