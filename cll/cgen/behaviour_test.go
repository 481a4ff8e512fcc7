package cgen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run builds the C output of src with the driver testdata/driver (a file
// name), linked into one program, runs it and returns what it printed.
func run(t *testing.T, name string, src []byte, driver string, faults ...string) string {
	t.Helper()
	gcc := needGCC(t)
	files := generate(t, name, src, faults...)
	dir := t.TempDir()
	writeFiles(t, dir, files)
	drv, err := os.ReadFile(filepath.Join("testdata", driver))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, driver), drv, 0o666); err != nil {
		t.Fatal(err)
	}
	args := append([]string{}, gccArgs...)
	args = append(args, "-o", "prog")
	for _, n := range sortedNames(files) {
		if strings.HasSuffix(n, ".c") {
			args = append(args, n)
		}
	}
	args = append(args, driver)
	cmd := exec.Command(gcc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	cmd = exec.Command(filepath.Join(dir, "prog"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the driver: %v\n%s", err, stderr.Bytes())
	}
	return string(out)
}

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(examplesDir, name+".cll"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func checkTrace(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

// TestTrafficLight runs the example of docs/cll.md: after init the light is Red
// and each cycle moves it to the next state in declaration order. The
// speaker test sees the state before the queued transition is applied.
func TestTrafficLight(t *testing.T) {
	src := readExample(t, "traffic")
	checkTrace(t, run(t, "traffic", src, "traffic_driver.c"), `init: -> Red
cycle 1: SpeakerOff -> Green
cycle 2: SpeakerOff -> Yellow
cycle 3: SpeakerOn -> Red
cycle 4: SpeakerOff -> Green
cycle 5: SpeakerOff -> Yellow
cycle 6: SpeakerOn -> Red
`)
}

// TestTrafficLightCamera is the same light with its camera installed: the
// camera is enabled in Red and disabled otherwise.
func TestTrafficLightCamera(t *testing.T) {
	src := readExample(t, "traffic")
	src = bytes.Replace(src, []byte("CameraInstalled = false"), []byte("CameraInstalled = true"), 1)
	checkTrace(t, run(t, "traffic", src, "traffic_driver.c"), `init: -> Red
cycle 1: EnableCamera SpeakerOff -> Green
cycle 2: DisableCamera SpeakerOff -> Yellow
cycle 3: DisableCamera SpeakerOn -> Red
cycle 4: EnableCamera SpeakerOff -> Green
cycle 5: DisableCamera SpeakerOff -> Yellow
cycle 6: DisableCamera SpeakerOn -> Red
`)
}

// TestTrafficLightReverseEnums shows the paper's silent failure: with the
// states enum emitted in reverse the output compiles and runs, but the
// light cycles Red → Yellow → Green.
func TestTrafficLightReverseEnums(t *testing.T) {
	src := readExample(t, "traffic")
	checkTrace(t, run(t, "traffic", src, "traffic_driver.c", "reverse-enums"), `init: -> Red
cycle 1: SpeakerOff -> Yellow
cycle 2: SpeakerOn -> Green
cycle 3: SpeakerOff -> Red
cycle 4: SpeakerOff -> Yellow
cycle 5: SpeakerOn -> Green
cycle 6: SpeakerOff -> Red
`)
}

// TestBehaviour checks testdata/behave.cll against the semantics of CLL, with a cycle
// time of 1 s:
//   - Integer + - * and unary - wrap around; / truncates toward zero and
//     mod takes the sign of its left operand; x / 0, x mod 0 and x mod -1
//     give 0 and −2147483648 / −1 gives −2147483648; Real / 0.0 gives 0.0
//     and an Integer operand is promoted when the other is Real;
//   - the reset clears an event raised before power-on; an uninitialised
//     enumeration variable holds the first value; enumerations compare by
//     declaration order; set acts at once; the last queued transition wins;
//   - Slow, started in init for 3 s, is not expired in cycles 1–3 (3000,
//     2000, 1000 ms left at their start) and expires in cycle 4; Quick,
//     started for 0 ms, is expired in cycle 1 and, restarted for 2 s each
//     time it expires, again in cycles 3 and 5; Never, never started, never
//     expires;
//   - an event raised before a cycle is seen by that cycle only (raising it
//     twice counts once);
//   - states move next, next, next (wrapping Third → First), then
//     previous, previous (wrapping First → Third), previous.
func TestBehaviour(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "behave.cll"))
	if err != nil {
		t.Fatal(err)
	}
	checkTrace(t, run(t, "behave", src, "behave_driver.c"), `init: OrderOk FlagSeen -> Second
wrap_add=-2147483648
wrap_sub=2147483647
wrap_mul=-2
wrap_neg=-2147483648
div_trunc=3
div_neg=-3
div_zero=0
div_min_by_minus_one=-2147483648
mod_pos=1
mod_neg_left=-1
mod_neg_right=1
mod_zero=0
mod_min_by_minus_one=0
real_div_zero=0.00
real_div_int_zero=0.00
promoted=3.50
mixed=6.00
lvl=Mid plain=Low
cycle 1: QuickFired NotFirst -> Third
cycle 2: EventSeen NotFirst -> First
cycle 3: QuickFired NudgeSeen -> Second
cycle 4: TimerFired NotFirst -> First
cycle 5: QuickFired EventSeen -> Third
cycle 6: NotFirst -> Second
cycles=6 events=2
`)
}

// TestBehaviourSkipSecondTick shows a silent fault at run time: without
// the tick line of its timer (the second one), Quick, once restarted,
// never expires again.
func TestBehaviourSkipSecondTick(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "behave.cll"))
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, "behave", src, "behave_driver.c", "skip-second-tick")
	for _, want := range []string{
		"cycle 1: QuickFired NotFirst -> Third\n",
		"cycle 3: NudgeSeen -> Second\n",
		"cycle 5: EventSeen -> Third\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q:\n%s", want, out)
		}
	}
}
