package namecase

import "testing"

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"CameraOn":   "camera_on",
		"HTTPServer": "http_server",
		"Pump2Speed": "pump2_speed",
		"red":        "red",
		"GrünLicht":  "grün_licht",
		"ÄrgerÜber":  "ärger_über",
		"":           "",
		// The examples of docs/cll.md (C forms).
		"max_count": "max_count", "X1": "x1", "X1Go": "x1_go", "HTTPSignalBox2": "http_signal_box2",
		"Foo_Bar": "foo_bar", "ZqKelmor": "zq_kelmor",
	} {
		if got := Snake(in); got != want {
			t.Errorf("Snake(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Upper("GrünLicht"); got != "GRÜN_LICHT" {
		t.Errorf("Upper(GrünLicht) = %q", got)
	}
}

func TestForms(t *testing.T) {
	want := map[string]string{
		"written": "PumpSpeed", "snake": "pump_speed", "upper": "PUMP_SPEED",
		"lower": "pumpspeed", "caps": "PUMPSPEED", "camel": "pumpSpeed",
		"pascal": "PumpSpeed", "kebab": "pump-speed",
	}
	for _, name := range Forms {
		f, ok := Form(name)
		if !ok {
			t.Fatalf("Form(%q) is missing", name)
		}
		if got := f("PumpSpeed"); got != want[name] {
			t.Errorf("%s(PumpSpeed) = %q, want %q", name, got, want[name])
		}
	}
	if _, ok := Form("title"); ok {
		t.Error("Form(title) exists")
	}
	if got := Camel("max_count"); got != "maxCount" {
		t.Errorf("Camel(max_count) = %q", got)
	}
	if got := Pascal("über_zug"); got != "ÜberZug" {
		t.Errorf("Pascal(über_zug) = %q", got)
	}
}
