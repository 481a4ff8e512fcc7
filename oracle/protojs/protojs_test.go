package protojs

import (
	"strings"
	"testing"

	"github.com/mcpt-tool/mcpt/tree"
)

// facts is a file of facts: the probe line of gen (generator, release,
// options as JSON) and the lines.
func facts(gen string, lines ...string) tree.Tree {
	return tree.Tree{"m.ts": []byte("export {};\n"), "m" + Suffix: []byte(gen + "\n" + strings.Join(lines, "\n") + "\n")}
}

const (
	tsProto  = `{"element":"","kind":"probe","generator":"ts-proto","release":"2.18.0","options":{},"module":"m.ts"}`
	tsSnake  = `{"element":"","kind":"probe","generator":"ts-proto","release":"1.137.2","options":{"snakeToCamel":"false"},"module":"m.ts"}`
	tsString = `{"element":"","kind":"probe","generator":"ts-proto","release":"2.18.0","options":{"stringEnums":"true"},"module":"m.ts"}`
	pbjs     = `{"element":"","kind":"probe","generator":"pbjs","release":"2.7.1","options":{},"module":"m.js"}`
	esV2     = `{"element":"","kind":"probe","generator":"es","release":"2.17.0","options":{},"module":"m_pb.ts"}`
	esV1     = `{"element":"","kind":"probe","generator":"es","release":"1.5.1","options":{},"module":"m_pb.js"}`

	msg      = `{"element":"p.M","kind":"message"}`
	idField  = `{"element":"p.M.id","kind":"field","number":1,"type":"string","label":"optional","syntax":"proto3","jsonName":"id","zero":"\"\"","sample":"\"zq\"","prop":"id","value":"\"zq\"","unset":"\"\"","wire":"same","jsonKeys":["id"],"jsonBack":"\"zq\""}`
	colorE   = `{"element":"p.Color","kind":"enum","values":["COLOR_RED","COLOR_BLUE"],"members":[{"key":"COLOR_RED","value":"0"},{"key":"COLOR_BLUE","value":"1"},{"key":"UNRECOGNIZED","value":"-1","toJSON":"\"UNRECOGNIZED\"","jsonBack":"-1"}]}`
	colorRed = `{"element":"p.Color.COLOR_RED","kind":"enum-value","number":0,"aliases":["COLOR_RED"],"keys":["COLOR_RED"],"shown":["0"],"byNumber":"\"COLOR_RED\"","fromName":"0","fromNumber":"0","toJSON":"\"COLOR_RED\""}`
)

// field is a new field's line with some of its facts replaced.
func field(repl ...string) string {
	s := `{"element":"p.M.zq_ab","kind":"field","number":2,"type":"int64","label":"optional","syntax":"proto3","jsonName":"zqAb","zero":"n:0","sample":"n:300","prop":"zqAb","value":"n:300","unset":"n:0","wire":"same","jsonKeys":["zqAb"],"jsonBack":"n:300"}`
	for i := 0; i+1 < len(repl); i += 2 {
		s = strings.Replace(s, repl[i], repl[i+1], 1)
	}
	return s
}

func TestDecide(t *testing.T) {
	base := facts(tsProto, msg, idField)
	for _, tc := range []struct {
		name  string
		o, o2 tree.Tree
		fail  string // a part of the failure's message; "" for none
		undec bool
	}{
		{"a new field as ts-proto writes it", base, facts(tsProto, msg, idField, field()), "", false},
		{"a property named otherwise (ts-proto#344's undefined…)", base, facts(tsProto, msg, idField, field(`"prop":"zqAb"`, `"prop":"undefinedZqAb"`)), "its property is undefinedZqAb, not zqAb", false},
		{"a mixed-case word lowered (ts-proto#478)", base, facts(tsProto, msg, idField, field(`zq_ab`, `zqCd_ab`, `"jsonName":"zqAb"`, `"jsonName":"zqCdAb"`, `"prop":"zqAb"`, `"prop":"zqcdAb"`, `["zqAb"]`, `["zqCdAb"]`)), "its property is zqcdAb, not zqCdAb", false},
		{"elements written as zeros (ts-proto#751)", base, facts(tsProto, msg, idField, field(`"wire":"same"`, `"wire":"0a020000 for 0a0205ac02"`)), "encoding it back writes other bytes", false},
		{"a value read wrong", base, facts(tsProto, msg, idField, field(`"value":"n:300"`, `"value":"n:44"`)), "decoding n:300 reads n:44", false},
		{"an unset field not zero", base, facts(tsProto, msg, idField, field(`"unset":"n:0"`, `"unset":"undefined"`)), "unset, it reads undefined, not n:0", false},
		{"a JSON key otherwise", base, facts(tsProto, msg, idField, field(`["zqAb"]`, `["zq_ab"]`)), "its JSON key is zq_ab, not zqAb", false},
		{"JSON that does not read back", base, facts(tsProto, msg, idField, field(`"jsonBack":"n:300"`, `"jsonBack":"n:0"`)), "its JSON reads back n:0", false},
		{"the probe's error on the new field", base, facts(tsProto, msg, idField, `{"element":"p.M.zq","kind":"field","error":"decoding the sample: inf is not defined"}`), "inf is not defined", false},
		{"an old field's facts changed", base, facts(tsProto, msg, strings.Replace(idField, `"unset":"\"\""`, `"unset":"null"`, 1), field()), "field p.M.id: its facts changed", false},
		{"an old field's facts lost", base, facts(tsProto, msg, field()), "field p.M.id: o′ has no facts of it", false},
		{"no facts: another generator's output", tree.Tree{"m.go": []byte("package m\n")}, tree.Tree{"m.go": []byte("package m\n")}, "", false},
		{"facts in o only", base, tree.Tree{"m.ts": []byte("")}, "the probe wrote no facts", false},
		{"o's module does not load", facts(strings.Replace(tsProto, `}`, `,"error":"m.ts does not load"}`, 1)), facts(tsProto, msg, field()), "", true},
		{"o′'s module does not load", base, facts(strings.Replace(tsProto, `"module":"m.ts"}`, `"module":"m.ts","error":"m.ts does not load: x is not defined"}`, 1)), "could not run the code of o′", false},
		{"no new declaration in the facts", base, base, "", true},
		{"o′'s module needs a file the output does not hold", base, facts(strings.Replace(tsProto, `"module":"m.ts"}`, `"module":"m.ts","untested":"m.ts does not load without ./other_pb.js"}`, 1)), "", true},
		{"a new field of another file's type", base, facts(tsProto, msg, idField, `{"element":"p.M.zq","kind":"field","untested":"its type o.T comes from o.proto"}`), "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := (&Check{}).Decide(tc.o, tc.o2)
			switch {
			case tc.fail == "" && len(v.Fails) > 0:
				t.Fatalf("false alarm: %s", v.Fails[0].Message)
			case tc.fail != "" && (len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, tc.fail)):
				t.Fatalf("want one failure saying %q, got %+v", tc.fail, v.Fails)
			case tc.undec != (len(v.Undecided) > 0):
				t.Fatalf("undecided %v, want %v", v.Undecided, tc.undec)
			}
		})
	}
}

// TestConventions: what each generator's naming and defaults make of a
// field, by its options and release.
func TestConventions(t *testing.T) {
	f := func(name, json string) *Fact { return &Fact{Element: "p.M." + name, JSONName: json} }
	for _, tc := range []struct {
		probe, name, json, prop, key string
	}{
		{tsProto, "_lead_under", "LeadUnder", "LeadUnder", "LeadUnder"},
		{tsProto, "mixCase_name", "mixCaseName", "mixCaseName", "mixCaseName"},
		{tsProto, "jn", "JAY", "jn", "JAY"},
		{tsSnake, "plain_name", "plainName", "plain_name", "plain_name"},
		{tsSnake, "jn", "JAY", "jn", "JAY"}, // ts-proto#635, fixed in 1.122
		{strings.Replace(tsSnake, "1.137.2", "2.18.0", 1), "plain_name", "plainName", "plain_name", "plainName"},
		{strings.Replace(tsSnake, "1.137.2", "1.93.2", 1), "plain_name", "plainName", "plain_name", "plainName"},
		{strings.Replace(tsProto, "2.18.0", "1.82.5", 1), "jn", "JAY", "jn", "jn"}, // before json_name support
		{pbjs, "_lead_under", "LeadUnder", "_leadUnder", "_leadUnder"},
		{pbjs, "a_2b", "a2b", "a_2b", "a_2b"},
		{pbjs, "jn", "JAY", "jn", "jn"},
		{esV2, "_lead_under", "LeadUnder", "LeadUnder", "LeadUnder"},
		{esV2, "a_2b", "a2b", "a2b", "a2b"},
		{esV2, "constructor", "constructor", "constructor$", "constructor"},
	} {
		fs, err := Read(facts(tc.probe))
		if err != nil {
			t.Fatal(err)
		}
		c := conventionsOf(fs.Probe)
		x := f(tc.name, tc.json)
		if p := c.prop(x); p != tc.prop {
			t.Errorf("%s: %s's property %s, want %s", c, tc.name, p, tc.prop)
		}
		if k, _ := c.jsonKey(x); k != tc.key {
			t.Errorf("%s: %s's JSON key %s, want %s", c, tc.name, k, tc.key)
		}
	}
}

// TestOneofAndDefaults: a member of a oneof reads as not set (pbjs before
// 6.11 gave it its type's default: protobufjs#1597); a proto2 default is
// read, but by protoc-gen-es 1, which leaves proto2 fields undefined
// (protobufjs-cli 2.6.1 read null for inf: protobufjs#2393).
func TestOneofAndDefaults(t *testing.T) {
	member := field(`"zero":"n:0"`, `"zero":"n:0","oneof":"o"`, `"unset":"n:0"`, `"unset":"null"`)
	base := facts(pbjs, msg, idField)
	if v := (&Check{}).Decide(base, facts(pbjs, msg, idField, member)); len(v.Fails) > 0 {
		t.Errorf("a oneof member that reads null: false alarm %s", v.Fails[0].Message)
	}
	bad := strings.Replace(member, `"unset":"null"`, `"unset":"n:0"`, 1)
	if v := (&Check{}).Decide(base, facts(pbjs, msg, idField, bad)); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "unset, it reads n:0, not undefined or null or unset") {
		t.Errorf("a oneof member that reads 0: %+v", v.Fails)
	}
	p2 := field(`"type":"int64"`, `"type":"double"`, `"syntax":"proto3"`, `"syntax":"proto2","defaultValue":"n:Infinity"`, `"unset":"n:0"`, `"unset":"n:Infinity"`)
	if v := (&Check{}).Decide(base, facts(pbjs, msg, idField, p2)); len(v.Fails) > 0 {
		t.Errorf("a proto2 default read: false alarm %s", v.Fails[0].Message)
	}
	null := strings.Replace(p2, `"unset":"n:Infinity"`, `"unset":"null"`, 1)
	if v := (&Check{}).Decide(base, facts(pbjs, msg, idField, null)); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "unset, it reads null, not n:Infinity") {
		t.Errorf("a proto2 default read as null: %+v", v.Fails)
	}
	undef := strings.Replace(p2, `"unset":"n:Infinity"`, `"unset":"undefined"`, 1)
	if v := (&Check{}).Decide(facts(esV1, msg, idField), facts(esV1, msg, idField, undef)); len(v.Fails) > 0 {
		t.Errorf("protoc-gen-es 1 leaves a proto2 field undefined: false alarm %s", v.Fails[0].Message)
	}
}

// TestEnums: a new value is its enum's member, under the name the
// generator gives it, and the helpers map it both ways; the members a
// generator adds to a new enum go to JSON under their names and come
// back (ts-proto 1.112.1 wrote UNRECOGNIZED as "UNKNOWN" and, with
// stringEnums, as the number 0: ts-proto#566).
func TestEnums(t *testing.T) {
	base := facts(tsProto, colorE, colorRed)
	green := `{"element":"p.Color.ZQGREEN","kind":"enum-value","number":2,"aliases":["ZQGREEN"],"keys":["ZQGREEN"],"shown":["2"],"byNumber":"\"ZQGREEN\"","fromName":"2","fromNumber":"2","toJSON":"\"ZQGREEN\""}`
	grown := strings.Replace(colorE, `"COLOR_BLUE"],`, `"COLOR_BLUE","ZQGREEN"],`, 1)
	grown = strings.Replace(grown, `{"key":"UNRECOGNIZED"`, `{"key":"ZQGREEN","value":"2"},{"key":"UNRECOGNIZED"`, 1)
	if v := (&Check{}).Decide(base, facts(tsProto, grown, colorRed, green)); len(v.Fails) > 0 {
		t.Fatalf("a new value: false alarm %s", v.Fails[0].Message)
	}
	if v := (&Check{}).Decide(base, facts(tsProto, grown, colorRed, strings.Replace(green, `"toJSON":"\"ZQGREEN\""`, `"toJSON":"\"COLOR_RED\""`, 1))); len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, `toJSON of its member is "COLOR_RED"`) {
		t.Errorf("toJSON otherwise: %+v", v.Fails)
	}
	// a value of -1 takes the number of UNRECOGNIZED, which ts-proto drops
	minus := strings.NewReplacer(`"number":2`, `"number":-1`, `"shown":["2"]`, `"shown":["-1"]`, `"fromName":"2","fromNumber":"2"`, `"fromName":"-1","fromNumber":"-1"`).Replace(green)
	took := strings.Replace(colorE, `"COLOR_BLUE"],`, `"COLOR_BLUE","ZQGREEN"],`, 1)
	took = strings.Replace(took, `{"key":"UNRECOGNIZED","value":"-1","toJSON":"\"UNRECOGNIZED\"","jsonBack":"-1"}`, `{"key":"ZQGREEN","value":"-1"}`, 1)
	if v := (&Check{}).Decide(base, facts(tsProto, took, colorRed, minus)); len(v.Fails) > 0 {
		t.Errorf("a value of -1: false alarm %s", v.Fails[0].Message)
	}
	// a new enum of ts-proto with stringEnums
	newE := `{"element":"p.Zq","kind":"enum","values":["ZQ_A"],"members":[{"key":"ZQ_A","value":"\"ZQ_A\"","toJSON":"\"ZQ_A\"","toNumber":"0","jsonBack":"\"ZQ_A\"","numberBack":"\"ZQ_A\""},{"key":"UNRECOGNIZED","value":"\"UNRECOGNIZED\"","toJSON":"\"UNRECOGNIZED\"","toNumber":"-1","jsonBack":"\"UNRECOGNIZED\"","numberBack":"\"UNRECOGNIZED\""}]}`
	newA := `{"element":"p.Zq.ZQ_A","kind":"enum-value","number":0,"aliases":["ZQ_A"],"keys":["ZQ_A"],"shown":["\"ZQ_A\""],"byNumber":"undefined","fromName":"\"ZQ_A\"","fromNumber":"\"ZQ_A\"","toJSON":"\"ZQ_A\"","toNumber":"0"}`
	sbase := facts(tsString)
	if v := (&Check{}).Decide(sbase, facts(tsString, newE, newA)); len(v.Fails) > 0 {
		t.Fatalf("a new enum: false alarm %s", v.Fails[0].Message)
	}
	buggy := strings.NewReplacer(`"toJSON":"\"UNRECOGNIZED\""`, `"toJSON":"\"UNKNOWN\""`, `"toNumber":"-1","jsonBack":"\"UNRECOGNIZED\"","numberBack":"\"UNRECOGNIZED\""`, `"toNumber":"0","jsonBack":"\"UNRECOGNIZED\"","numberBack":"\"ZQ_A\""`).Replace(newE)
	v := (&Check{}).Decide(sbase, facts(tsString, buggy, newA))
	if len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, `its member UNRECOGNIZED goes to JSON as "UNKNOWN"`) || !strings.Contains(v.Fails[0].Message, "comes back from its number 0 as \"ZQ_A\"") {
		t.Errorf("UNRECOGNIZED mapped wrong: %+v", v.Fails)
	}
	// protoc-gen-es drops the enum's name from its values' members
	esE := `{"element":"p.Color","kind":"enum","values":["COLOR_RED","COLOR_ZQ"],"members":[{"key":"RED","value":"0"},{"key":"ZQ","value":"1"}]}`
	esZq := `{"element":"p.Color.COLOR_ZQ","kind":"enum-value","number":1,"aliases":["COLOR_ZQ"],"keys":["ZQ"],"shown":["1"],"byNumber":"\"ZQ\""}`
	esBase := facts(esV2, `{"element":"p.Color","kind":"enum","values":["COLOR_RED"],"members":[{"key":"RED","value":"0"}]}`)
	if v := (&Check{}).Decide(esBase, facts(esV2, esE, esZq)); len(v.Fails) > 0 {
		t.Errorf("protoc-gen-es: false alarm %s", v.Fails[0].Message)
	}
	long := strings.NewReplacer(`"keys":["ZQ"]`, `"keys":["COLOR_ZQ"]`, `{"key":"ZQ"`, `{"key":"COLOR_ZQ"`).Replace(esZq + "\n" + esE)
	v = (&Check{}).Decide(esBase, facts(esV2, strings.Split(long, "\n")[1], strings.Split(long, "\n")[0]))
	if len(v.Fails) != 1 || !strings.Contains(v.Fails[0].Message, "the enum has no member ZQ") {
		t.Errorf("protoc-gen-es: a member under the value's whole name: %+v", v.Fails)
	}
}

// TestTsProtoDefaults: ts-proto gives an unset proto2 field its declared
// default from 1.169 on, but a bytes field (its code leaves that for
// later); before, the type's zero. A 64-bit default kept as a JavaScript
// number compares as one.
func TestTsProtoDefaults(t *testing.T) {
	p2 := func(typ, def, unset string) string {
		zero := "n:0"
		if typ == "bytes" {
			zero = "b:"
		}
		return field(`"type":"int64"`, `"type":"`+typ+`"`, `"syntax":"proto3"`, `"syntax":"proto2","defaultValue":"`+def+`"`, `"zero":"n:0"`, `"zero":"`+zero+`"`, `"unset":"n:0"`, `"unset":"`+unset+`"`)
	}
	old := strings.Replace(tsProto, "2.18.0", "1.137.2", 1)
	for _, tc := range []struct {
		probe, typ, def, unset string
		ok                     bool
	}{
		{tsProto, "int32", "n:-7", "n:-7", true},
		{tsProto, "int32", "n:-7", "n:0", false},
		{old, "int32", "n:-7", "n:0", true},
		{old, "int32", "n:-7", "n:-7", false},
		{tsProto, "bytes", "b:6162", "b:", true},
		{tsProto, "int64", "n:9223372036854775807", "n:9223372036854775808", true},
		{strings.Replace(tsProto, `"options":{}`, `"options":{"forceLong":"bigint"}`, 1), "int64", "n:9223372036854775807", "n:9223372036854775808", false},
	} {
		v := (&Check{}).Decide(facts(tc.probe, msg, idField), facts(tc.probe, msg, idField, p2(tc.typ, tc.def, tc.unset)))
		if tc.ok != (len(v.Fails) == 0) {
			t.Errorf("%s %s default %s read %s: %+v", tc.probe[50:80], tc.typ, tc.def, tc.unset, v.Fails)
		}
	}
}

// TestPackingNote: a wire difference that is one of packing is named as
// such (ts-proto before 2.7.6 packs proto2 repeated fields; 2.7.6 leaves
// some proto3 ones unpacked), and only then.
func TestPackingNote(t *testing.T) {
	repeated := func(syntax, packed, wire string) *Fact {
		return &Fact{Kind: "field", Number: 2, Label: "repeated", Syntax: syntax, Packed: packed == "packed", Wire: wire}
	}
	for _, tc := range []struct {
		name string
		f    *Fact
		want string
	}{
		{"proto2, written packed", repeated("proto2", "", "120301ac02 for 100110ac02"), " (it writes the field packed, the bytes it read have it unpacked; the field is not packed)"},
		{"proto3, written unpacked", repeated("proto3", "packed", "0a0178100110ac02 for 0a0178120301ac02"), " (it writes the field unpacked, the bytes it read have it packed; the field is packed)"},
		{"other values, the same packing", repeated("proto3", "packed", "12020000 for 120301ac02"), ""},
		{"another field packed", repeated("proto2", "", "1a0101100110ac02 for 1a0101100110ac02"), ""},
		{"not hex", repeated("proto2", "", "encoding failed: x is not a function"), ""},
		{"not a message", repeated("proto2", "", "12ff for 10"), ""},
		{"not repeated", &Fact{Kind: "field", Number: 2, Label: "optional", Wire: "120301ac02 for 100110ac02"}, ""},
		{"left out", &Fact{Kind: "field", Number: 5, Label: "optional", Syntax: "proto2", Wire: "0a047a71c3a9 for 0a047a71c3a92801"}, " (it leaves the field out, a proto2 optional field)"},
		{"another field left out", &Fact{Kind: "field", Number: 5, Label: "optional", Syntax: "proto2", Wire: "2801 for 0a047a71c3a92801"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := packing(tc.f); got != tc.want {
				t.Fatalf("packing(%q) = %q, want %q", tc.f.Wire, got, tc.want)
			}
		})
	}
}
