package setup

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpt-tool/mcpt/bundle"
	"github.com/mcpt-tool/mcpt/transpiler"
)

// TestHTTPTranspilerFromConfiguration: a configuration's url reaches the
// run, the recipe (from which repro opens the same transpiler) and the
// fingerprint.
func TestHTTPTranspilerFromConfiguration(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(transpiler.HTTPResponse{Files: map[string]string{"out.txt": r.Header.Get("Mcpt-Role")}})
	}))
	defer srv.Close()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("base.prog", "x\n")
	write("rel.yaml", "relations: []\n")
	write("mcpt.yaml", "transpiler: {url: '"+srv.URL+"', timeout: 5m}\nseeds: {files: [base.prog]}\nrelations: {files: [rel.yaml]}\n")
	s, err := Load(filepath.Join(dir, "mcpt.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Transpiler.Transpile(context.Background(), transpiler.Request{Name: "base.prog", Src: []byte("x"), Role: transpiler.FollowUp})
	if err != nil || res.Status != transpiler.Accepted || string(res.Files["out.txt"]) != "follow-up" {
		t.Fatalf("run: %v %+v", err, res)
	}
	fp, err := s.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Recipe(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back bundle.Recipe
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	sp, _ := s.Spec()
	if !back.Transpiler.Equal(sp) || back.Transpiler.URL != srv.URL || fp["transpiler"] != sp.Fingerprint() {
		t.Errorf("recipe %s, fingerprint %s, want %s", back.Transpiler.JSON(), fp["transpiler"], sp.JSON())
	}
	rs, err := (*Tools)(nil).FromRecipe(&back, []string{filepath.Join(dir, "base.prog")})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := rs.Transpiler.Transpile(context.Background(), transpiler.Request{Name: "b", Src: []byte("x")}); err != nil || string(res.Files["out.txt"]) != "base" {
		t.Errorf("from the recipe: %v %+v", err, res)
	}
}
