package faultinject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpt-tool/mcpt/faultinject/mcptfault"
)

// Construct names the kind of branch a site is.
type Construct string

// The instrumented constructs.
const (
	IfCond     Construct = "if"          // the condition of an if statement
	ElseIfCond Construct = "else-if"     // the condition of an if statement that is an else branch
	ForCond    Construct = "for"         // the condition of a for statement
	CaseClause Construct = "case"        // whether a case clause of an expression switch matches
	AndOperand Construct = "and-operand" // an operand of &&
	OrOperand  Construct = "or-operand"  // an operand of ||
	TypeSwitch Construct = "type-switch" // never a site: listed among the skipped constructs
)

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// A Manifest describes an instrumented copy of a module: its branch sites
// and the two faults of each.
type Manifest struct {
	Version  int      `json:"version"`
	Module   string   `json:"module"`            // the module path
	Source   string   `json:"source"`            // the directory of the original module
	Dir      string   `json:"dir"`               // the directory of the instrumented copy
	Packages []string `json:"packages"`          // the import paths of the instrumented packages
	Binary   string   `json:"binary,omitempty"`  // the instrumented transpiler, once built
	Sites    []Site   `json:"sites"`             // ordered by id, which is the index
	Skipped  []Skip   `json:"skipped,omitempty"` // constructs that were left alone, and why
}

// A Site is one instrumented branch: a condition, a case clause or an
// operand of && or ||.
type Site struct {
	ID        int       `json:"id"`
	Pos       string    `json:"pos"`  // file:line:col in the original module
	File      string    `json:"file"` // slash-separated, relative to the module root
	Line      int       `json:"line"`
	Col       int       `json:"col"` // in bytes, from 1
	Construct Construct `json:"construct"`
	Func      string    `json:"func,omitempty"` // the enclosing function: F, T.M or (*T).M
	Expr      string    `json:"expr"`           // the condition's source text, on one line, shortened
	Faults    [2]Fault  `json:"faults"`         // forcing true, forcing false
}

// A Fault forces one branch site to one direction.
type Fault struct {
	ID    int  `json:"id"`
	Site  int  `json:"site"`
	Force bool `json:"force"` // the value the branch is forced to
}

// A Skip is a construct the instrumenter recognised but did not rewrite.
type Skip struct {
	Pos       string    `json:"pos"`
	Construct Construct `json:"construct"`
	Reason    string    `json:"reason"`
}

// FaultID is the fault that forces site to force: 2·site for true,
// 2·site+1 for false.
func FaultID(site int, force bool) int { return mcptfault.FaultID(site, force) }

// Faults lists every fault of the manifest in id order.
func (m *Manifest) Faults() []Fault {
	fs := make([]Fault, 0, 2*len(m.Sites))
	for _, s := range m.Sites {
		fs = append(fs, s.Faults[0], s.Faults[1])
	}
	return fs
}

// Fault returns the fault with the given id and its site.
func (m *Manifest) Fault(id int) (Fault, Site, bool) {
	site, force := mcptfault.SiteOf(id)
	if id < 0 || site >= len(m.Sites) {
		return Fault{}, Site{}, false
	}
	s := m.Sites[site]
	return Fault{ID: id, Site: site, Force: force}, s, true
}

// Describe renders a fault for people, with its site and direction.
func (m *Manifest) Describe(id int) string {
	f, s, ok := m.Fault(id)
	if !ok {
		return fmt.Sprintf("fault %d (unknown)", id)
	}
	return fmt.Sprintf("fault %d: %s %s %q forced %t", f.ID, s.Pos, s.Construct, s.Expr, f.Force)
}

// Count returns the number of sites of each construct.
func (m *Manifest) Count() map[Construct]int {
	n := map[Construct]int{}
	for _, s := range m.Sites {
		n[s.Construct]++
	}
	return n
}

// Write stores the manifest as indented JSON.
func (m *Manifest) Write(path string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes())
}

// ReadManifest loads a manifest written by Write and checks its ids.
func ReadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Version != ManifestVersion {
		return nil, fmt.Errorf("%s: manifest version %d, want %d", path, m.Version, ManifestVersion)
	}
	for i, s := range m.Sites {
		if s.ID != i || s.Faults[0].ID != FaultID(i, true) || s.Faults[1].ID != FaultID(i, false) {
			return nil, fmt.Errorf("%s: site %d has inconsistent ids", path, i)
		}
	}
	return &m, nil
}

// writeFileAtomic writes a file through a temporary file and a rename, so
// that readers never see it half written.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// sortedKeys returns the keys of a set in increasing order.
func sortedKeys(set map[int]bool) []int {
	ks := make([]int, 0, len(set))
	for k := range set {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}
