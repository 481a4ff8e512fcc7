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
