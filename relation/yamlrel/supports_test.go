package yamlrel

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpt-tool/mcpt/oracle"
	"github.com/mcpt-tool/mcpt/relation"
	"github.com/mcpt-tool/mcpt/tree"
)

// settingRel adds a timer whose text says the release and the fault
// flag; under fault=reversed it leaves out the spots after a timer, and
// from release 1.5 on it has a second check.
const settingRel = `include: [defs.yaml]
supports:
  release: '>=1.2 <2'
  flags: {fault: [none, reversed], target: [a, b]}
relations:
  - name: add-timer
    doc: Add a timer.
    spots:
      boundaries: decls
      except: ['{{if and (eq .flags.fault "reversed") .prev.timer}}after a timer{{end}}']
    fresh: [N]
    text: '  timer {{.N}} // {{.release}} {{.flags.fault}} [{{.flags.target}}]'
    checks:
      - equivalence: {}
      - if: '{{atleast .release "1.5"}}'
        probe: {}
`

// probeKind is a checker kind in Go that says what the mutation told it
// of the release and the flags.
var probeKind = CheckerKind{Name: "probe", Doc: "Probe.\nNo keys.", New: func(spec *Spec) (Check, error) {
	var v struct{}
	if err := spec.Decode(&v); err != nil {
		return nil, err
	}
	return probe{}, nil
}}

type probe struct{}

func (probe) Checker(mu *Mutation) (relation.Checker, error) {
	return probeChecker{mu.Release() + " " + mu.Flags()["fault"] + " [" + mu.Flags()["target"] + "]"}, nil
}

type probeChecker struct{ said string }

func (p probeChecker) Check(o, o2 tree.Tree) []oracle.Failure {
	return []oracle.Failure{{Checker: "probe", Message: p.said}}
}

func loadSetting(t *testing.T, files map[string]string) ([]*relation.Relation, error) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, body := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return LoadWith(Options{CheckerKinds: []CheckerKind{probeKind}}, fsys, "rel.yaml")
}

// TestReleaseAndFlags: what a pack supports is on each of its relations,
// and its templates see .release and .flags: the spots, the follow-up and
// the checks follow them, and a Go checker kind sees them too.
func TestReleaseAndFlags(t *testing.T) {
	rels, err := loadSetting(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": settingRel})
	if err != nil {
		t.Fatal(err)
	}
	r := rels[0]
	sup := r.Supports
	if sup == nil || sup.Source != "rel.yaml:3:3" || sup.Releases.String() != ">=1.2 <2" || strings.Join(sup.Flags["fault"], " ") != "none reversed" {
		t.Fatalf("supports %+v", sup)
	}
	ctx := context.Background()
	in := func(release, fault string) relation.Input {
		return relation.Input{Name: "door.cll", Src: []byte(program), Release: release, Flags: map[string]string{"fault": fault}}
	}
	all, err := r.Spots(ctx, in("1.4", "none"))
	if err != nil {
		t.Fatal(err)
	}
	// The same input under another flag: not the spots found before.
	few, err := r.Spots(ctx, in("1.4", "reversed"))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 || len(few) != 2 {
		t.Fatalf("%d spots under fault=none, %d under fault=reversed; want 4 and 2", len(all), len(few))
	}
	for _, c := range []struct {
		release, fault string
		checks         int
	}{{"1.4", "none", 1}, {"v1.5.0", "reversed", 2}} {
		fu, err := r.Mutate(ctx, in(c.release, c.fault), all[0], rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		want := "// " + c.release + " " + c.fault + " []"
		if !strings.Contains(string(fu.Src), want) || len(fu.Checks) != c.checks {
			t.Errorf("%s %s: follow-up %q, %d checks; want %q and %d", c.release, c.fault, fu.Src, len(fu.Checks), want, c.checks)
		}
		if c.checks == 2 {
			if f := fu.Checks[1].Check(nil, nil); len(f) != 1 || f[0].Message != c.release+" "+c.fault+" []" {
				t.Errorf("the Go kind saw %+v", f)
			}
		}
	}
	// Comparing an unknown release is an error that says why.
	if _, err := r.Mutate(ctx, in("", "none"), all[0], rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "the release of the transpiler is not known") {
		t.Errorf("no release: %v", err)
	}
}

func TestSupportsErrors(t *testing.T) {
	plain := `include: [defs.yaml]
relations:
  - name: add-timer
    doc: Add a timer.
    spots: {boundaries: decls}
    fresh: [N]
    text: '  timer {{.N}}'
    checks: [{equivalence: {}}]
`
	for _, c := range []struct {
		defs, rel, want string
	}{
		{defsYAML + "supports: {release: '>=1'}\n", strings.Replace(plain, "relations:", "supports: {release: '<2'}\nrelations:", 1), "rel.yaml:2:12: supports given twice (first at defs.yaml:"},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {release: '~1.2'}\nrelations:", 1), `rel.yaml:2:21: supports: release: range "~1.2": "~1.2" is not a version`},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {releases: '1'}\nrelations:", 1), `rel.yaml:2:12: supports: unknown field "releases", did you mean "release"?`},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {flags: {target: es5}}\nrelations:", 1), "supports: flags: target: want the list of the value names"},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {flags: {target: ['a,b']}}\nrelations:", 1), `supports: target: flag value "a,b"`},
		{defsYAML, strings.Replace(strings.Replace(plain, "relations:", "supports: {flags: {target: [es5]}}\nrelations:", 1), "{{.N}}'", "{{.N}} {{.flags.targte}}'", 1),
			`no flag the pack supports (supports.flags) targte in .flags, did you mean "target"?`},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {flags: {target: [es5, {es2022: '~4'}]}}\nrelations:", 1), `rel.yaml:2:43: supports: target: es2022: range "~4": "~4" is not a version`},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {flags: {target: [{es5: '>=1', es6: '>=2'}]}}\nrelations:", 1), "rel.yaml:2:42: supports: flags: target: a value with its releases is {NAME: RANGE}, one value a mapping"},
		{defsYAML, strings.Replace(plain, "relations:", "supports: {flags: {target: [es5, {es5: '>=2'}]}}\nrelations:", 1), "rel.yaml:2:35: supports: target: value es5 given twice"},
	} {
		_, err := loadSetting(t, map[string]string{"defs.yaml": c.defs, "rel.yaml": c.rel})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v\nwant %s", err, c.want)
		}
	}
	// Without supports.flags, .flags may hold any dimension.
	if _, err := loadSetting(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": strings.Replace(plain, "{{.N}}'", "{{.N}} {{.flags.anything}} {{.release}}'", 1)}); err != nil {
		t.Errorf("a pack that lists no flags: %v", err)
	}
}

// TestSupportsValueReleases: a value written {NAME: RANGE} is a value the
// pack knows, taken by the releases of its range only.
func TestSupportsValueReleases(t *testing.T) {
	rel := strings.Replace(settingRel, "flags: {fault: [none, reversed], target: [a, b]}", "flags: {fault: [none, reversed], target: [a, {b: '>=1.5'}, {c: '<1.3 || >=1.7'}]}", 1)
	rels, err := loadSetting(t, map[string]string{"defs.yaml": defsYAML, "rel.yaml": rel})
	if err != nil {
		t.Fatal(err)
	}
	sup := rels[0].Supports
	if strings.Join(sup.Flags["target"], " ") != "a b c" {
		t.Fatalf("target values %v", sup.Flags["target"])
	}
	for _, c := range []struct {
		value, release string
		takes          bool
	}{{"a", "1.2", true}, {"b", "1.4.9", false}, {"b", "1.5.0", true}, {"c", "1.2.7", true}, {"c", "1.5", false}, {"c", "v1.7.1", true}, {"none", "1.0", true}} {
		ok, err := sup.TakesValue("target", c.value, c.release)
		if err != nil || ok != c.takes {
			t.Errorf("target=%s on %s: %v, %v; want %v", c.value, c.release, ok, err, c.takes)
		}
	}
	if _, err := sup.TakesValue("target", "b", ""); err == nil || !strings.Contains(err.Error(), "the pack supports target=b for releases >=1.5 only, and the release of the transpiler is not known") {
		t.Errorf("an unknown release: %v", err)
	}
	if ok, err := sup.TakesValue("target", "a", ""); !ok || err != nil {
		t.Errorf("a value every release takes, on an unknown release: %v, %v", ok, err)
	}
}
