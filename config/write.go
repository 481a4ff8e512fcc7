package config

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/mcpt-tool/mcpt/transpiler/spec"
)

// YAML writes the configuration as a file in dir would: its paths
// relative to dir, the seeds as the patterns it was given, the relation
// files as relations (paths relative to dir). What a reading of the file
// fills in with its defaults is left out. It is how `mcpt infer` writes a
// configuration that runs the campaign with the relations it wrote.
func (c *Config) YAML(dir string, relations []string) ([]byte, error) {
	rel := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		// (a path far from dir stays absolute: the file reads better)
		if r, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(filepath.ToSlash(r), "../../../") {
			return filepath.ToSlash(r)
		}
		return abs
	}
	var doc yaml.MapSlice
	add := func(k string, v any) { doc = append(doc, yaml.MapItem{Key: k, Value: v}) }

	tr := c.Transpiler
	var t yaml.MapSlice
	tadd := func(k string, v any) { t = append(t, yaml.MapItem{Key: k, Value: v}) }
	switch tr.Kind {
	case spec.Builtin:
		tadd("builtin", tr.Builtin)
		if len(tr.Options) > 0 {
			tadd("options", tr.Options)
		}
		if len(tr.Faults) > 0 {
			tadd("faults", tr.Faults)
		}
	case spec.Command:
		tadd("command", tr.Argv)
	case spec.Worker:
		tadd("worker", tr.Argv)
		if tr.Arguments != nil {
			tadd("arguments", tr.Arguments)
		}
		if tr.WorkerRequests > 0 {
			tadd("worker_requests", tr.WorkerRequests)
		}
	case spec.HTTP:
		tadd("url", tr.URL)
	}
	if tr.Kind == spec.Command || tr.Kind == spec.Worker {
		tadd("dir", rel(tr.Dir))
		if len(tr.Env) > 0 {
			env := yaml.MapSlice{}
			for _, kv := range tr.Env {
				k, v, _ := strings.Cut(kv, "=")
				env = append(env, yaml.MapItem{Key: k, Value: v})
			}
			tadd("env", env)
		}
		if tr.Accept != nil {
			tadd("accept", tr.Accept)
		}
		if len(tr.Reject) > 0 {
			tadd("reject", tr.Reject)
		}
		if len(tr.Version) > 0 {
			tadd("version", tr.Version)
		}
	}
	if tr.Timeout > 0 && tr.Timeout != time.Minute {
		tadd("timeout", tr.Timeout.String())
	}
	if tr.InputName != "" {
		tadd("input_name", tr.InputName)
	}
	if tr.MaxOutputFiles != 0 {
		tadd("max_output_files", tr.MaxOutputFiles)
	}
	if tr.MaxOutputBytes != 0 {
		tadd("max_output_bytes", tr.MaxOutputBytes)
	}
	add("transpiler", t)

	var s yaml.MapSlice
	if len(c.Seeds.Patterns) > 0 {
		var pats []string
		for _, p := range c.Seeds.Patterns {
			pats = append(pats, rel(p))
		}
		s = append(s, yaml.MapItem{Key: "files", Value: pats})
	}
	if c.Seeds.Grammar != "" {
		s = append(s, yaml.MapItem{Key: "grammar", Value: rel(c.Seeds.Grammar)},
			yaml.MapItem{Key: "count", Value: c.Seeds.Count}, yaml.MapItem{Key: "seed", Value: c.Seeds.Seed},
			yaml.MapItem{Key: "extension", Value: c.Seeds.Extension})
	}
	add("seeds", s)
	var rels []string
	for _, r := range relations {
		rels = append(rels, rel(r))
	}
	add("relations", yaml.MapSlice{{Key: "files", Value: rels}})

	b := c.Budget
	var bud yaml.MapSlice
	if b.MaxTime > 0 {
		bud = append(bud, yaml.MapItem{Key: "max_time", Value: b.MaxTime.String()})
	}
	if b.MaxCases > 0 {
		bud = append(bud, yaml.MapItem{Key: "max_cases", Value: b.MaxCases})
	}
	if b.MaxMR > 0 {
		bud = append(bud, yaml.MapItem{Key: "max_mr", Value: b.MaxMR})
	}
	if b.MaxSpots > 0 {
		bud = append(bud, yaml.MapItem{Key: "max_spots", Value: b.MaxSpots})
	}
	if len(bud) > 0 {
		add("budget", bud)
	}
	if len(c.Normalize) > 0 {
		var rules []yaml.MapSlice
		for _, r := range c.Normalize {
			var m yaml.MapSlice
			if len(r.Files) > 0 {
				m = append(m, yaml.MapItem{Key: "files", Value: r.Files})
			}
			m = append(m, yaml.MapItem{Key: "match", Value: r.Match})
			if r.Replace != nil {
				m = append(m, yaml.MapItem{Key: "replace", Value: *r.Replace})
			}
			rules = append(rules, m)
		}
		add("normalize", rules)
	}
	if c.BaseRuns != 2 {
		add("base_runs", c.BaseRuns)
	}
	if c.ConfirmRuns > 0 {
		add("confirm_runs", c.ConfirmRuns)
	}
	var sig yaml.MapSlice
	if len(c.Signature.Forms) > 0 {
		sig = append(sig, yaml.MapItem{Key: "forms", Value: c.Signature.Forms})
	}
	if len(c.Signature.Generic) > 0 {
		sig = append(sig, yaml.MapItem{Key: "generic", Value: c.Signature.Generic})
	}
	if len(sig) > 0 {
		add("signature", sig)
	}
	if len(c.Flags.Matrix) > 0 {
		var fl yaml.MapSlice
		for _, d := range c.Flags.Matrix {
			var vals yaml.MapSlice
			for _, v := range d.Values {
				args := v.Args
				if args == nil {
					args = []string{}
				}
				vals = append(vals, yaml.MapItem{Key: v.Name, Value: args})
			}
			fl = append(fl, yaml.MapItem{Key: d.Name, Value: vals})
		}
		add("flags", fl)
	}
	return yaml.MarshalWithOptions(doc, yaml.IndentSequence(true))
}
