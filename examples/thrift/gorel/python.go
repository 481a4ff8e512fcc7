package gorel

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
)

// What thrift's Python generator writes for a method, in SERVICE.py and
// SERVICE-remote.

func (m *method) python() []oracle.Edit {
	M, P, N := m.name, m.prev, m.next
	iface, client := text("class Iface(object):"), text("class Client(Iface):")
	names := strings.Join(m.names(), ", ")
	const procMap = `        self._processMap["%s"] = Processor.process_%s`
	processEnd := "oprot.trans.flush()"
	if m.prevOneway {
		processEnd = "logging.exception('Exception in oneway handler')"
	}
	prevSpec := "result"
	if m.prevOneway {
		prevSpec = "args"
	}
	return []oracle.Edit{
		m.beside(fmt.Sprintf("    def %s(self, %s):\n%s\n        pass", M, names, m.pyDoc()), 1,
			after(iface, re(`^    def %s\(self`, P), text("        pass")), before(iface, re(`^    def %s\(self`, N))),
		m.either(m.pyClient()+"\n\n", after(client, re(`^    def %s\(self`, m.last()), re(`^$`)), before(client, re(`^    def %s\(self`, N))),
		m.afterElseBefore(fmt.Sprintf(procMap, M, M), after(text(procMap, P, P)), before(text(procMap, N, N))),
		m.beside(m.pyProcess(), 1, after(text("    def process_%s(self, seqid, iprot, oprot):", P), oracle.Matcher{Text: processEnd}), before(text("    def process_%s(self, seqid, iprot, oprot):", N))),
		m.beside(pyStruct(M+"_args", m.params)+"\n\n\n"+pyStruct(M+"_result", m.results()), 2,
			after(text("%s_%s.thrift_spec = (", P, prevSpec), text(")")), before(text("class %s_args(object):", N))),
	}
}

// pyDoc is the doc string of a method: its parameters.
func (m *method) pyDoc() string {
	var b strings.Builder
	b.WriteString("        \"\"\"\n        Parameters:\n")
	for _, p := range m.params {
		b.WriteString("         - " + p.name + "\n")
	}
	b.WriteString("\n        \"\"\"")
	return b.String()
}

func (m *method) pyClient() string {
	names := strings.Join(m.names(), ", ")
	ret, tail := "", "        return"
	if m.ret != void {
		ret = "return "
		tail = "        if result.success is not None:\n            return result.success\n" +
			`        raise TApplicationException(TApplicationException.MISSING_RESULT, "` + m.name + ` failed: unknown result")`
	}
	var args strings.Builder
	for _, p := range m.params {
		fmt.Fprintf(&args, "        args.%s = %s\n", p.name, p.name)
	}
	return fmt.Sprintf(`    def %[1]s(self, %[2]s):
%[3]s
        self.send_%[1]s(%[2]s)
        %[4]sself.recv_%[1]s()

    def send_%[1]s(self, %[2]s):
        self._oprot.writeMessageBegin('%[1]s', TMessageType.CALL, self._seqid)
        args = %[1]s_args()
%[5]s        args.write(self._oprot)
        self._oprot.writeMessageEnd()
        self._oprot.trans.flush()

    def recv_%[1]s(self):
        iprot = self._iprot
        (fname, mtype, rseqid) = iprot.readMessageBegin()
        if mtype == TMessageType.EXCEPTION:
            x = TApplicationException()
            x.read(iprot)
            iprot.readMessageEnd()
            raise x
        result = %[1]s_result()
        result.read(iprot)
        iprot.readMessageEnd()
%[6]s`, m.name, names, m.pyDoc(), ret, args.String(), tail)
}

func (m *method) pyProcess() string {
	args := make([]string, len(m.params))
	for i, p := range m.params {
		args[i] = "args." + p.name
	}
	ret := ""
	if m.ret != void {
		ret = "result.success = "
	}
	return fmt.Sprintf(`    def process_%[1]s(self, seqid, iprot, oprot):
        args = %[1]s_args()
        args.read(iprot)
        iprot.readMessageEnd()
        result = %[1]s_result()
        try:
            %[2]sself._handler.%[1]s(%[3]s)
            msg_type = TMessageType.REPLY
        except TTransport.TTransportException:
            raise
        except TApplicationException as ex:
            logging.exception('TApplication exception in handler')
            msg_type = TMessageType.EXCEPTION
            result = ex
        except Exception:
            logging.exception('Unexpected exception in handler')
            msg_type = TMessageType.EXCEPTION
            result = TApplicationException(TApplicationException.INTERNAL_ERROR, 'Internal error')
        oprot.writeMessageBegin("%[1]s", msg_type, seqid)
        result.write(oprot)
        oprot.writeMessageEnd()
        oprot.trans.flush()`, m.name, ret, strings.Join(args, ", "))
}

// pyStruct is the class of a struct of fields (a method's args or
// result), as the generator writes a user's, and its thrift_spec.
func pyStruct(cls string, fs []field) string {
	var b strings.Builder
	fmt.Fprintf(&b, "class %s(object):\n", cls)
	if len(fs) > 0 {
		b.WriteString("    \"\"\"\n    Attributes:\n")
		inits := make([]string, len(fs))
		for i, f := range fs {
			fmt.Fprintf(&b, "     - %s\n", f.name)
			inits[i] = f.name + "=None,"
		}
		fmt.Fprintf(&b, "\n    \"\"\"\n\n\n    def __init__(self, %s):\n", strings.Join(inits, " "))
		for _, f := range fs {
			fmt.Fprintf(&b, "        self.%s = %s\n", f.name, f.name)
		}
	} else {
		b.WriteString("\n")
	}
	b.WriteString(`
    def read(self, iprot):
        if iprot._fast_decode is not None and isinstance(iprot.trans, TTransport.CReadableTransport) and self.thrift_spec is not None:
            iprot._fast_decode(self, iprot, [self.__class__, self.thrift_spec])
            return
        iprot.readStructBegin()
        while True:
            (fname, ftype, fid) = iprot.readFieldBegin()
            if ftype == TType.STOP:
                break
`)
	for i, f := range fs {
		el := ""
		if i > 0 {
			el = "el"
		}
		fmt.Fprintf(&b, "            %sif fid == %d:\n                if ftype == TType.%s:\n                    self.%s = %s\n                else:\n                    iprot.skip(ftype)\n",
			el, f.id, f.t.ttype, f.name, f.t.pyread)
	}
	fmt.Fprintf(&b, `            else:
                iprot.skip(ftype)
            iprot.readFieldEnd()
        iprot.readStructEnd()

    def write(self, oprot):
        if oprot._fast_encode is not None and self.thrift_spec is not None:
            oprot.trans.write(oprot._fast_encode(self, [self.__class__, self.thrift_spec]))
            return
        oprot.writeStructBegin('%s')
`, cls)
	for _, f := range fs {
		fmt.Fprintf(&b, "        if self.%[1]s is not None:\n            oprot.writeFieldBegin('%[1]s', TType.%[2]s, %[3]d)\n            %[4]s\n            oprot.writeFieldEnd()\n",
			f.name, f.t.ttype, f.id, fmt.Sprintf(f.t.pywrite, f.name))
	}
	fmt.Fprintf(&b, `        oprot.writeFieldStop()
        oprot.writeStructEnd()

    def validate(self):
        return

    def __repr__(self):
        L = ['%%s=%%r' %% (key, value)
             for key, value in self.__dict__.items()]
        return '%%s(%%s)' %% (self.__class__.__name__, ', '.join(L))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not (self == other)
all_structs.append(%[1]s)
%[1]s.thrift_spec = (
`, cls)
	for id := 0; len(fs) > 0 && id <= fs[len(fs)-1].id; id++ {
		spec := fmt.Sprintf("None,  # %d", id)
		for _, f := range fs {
			if f.id == id {
				spec = fmt.Sprintf("(%d, TType.%s, '%s', %s, None, ),  # %d", id, f.t.ttype, f.name, f.t.spec, id)
			}
		}
		b.WriteString("    " + spec + "\n")
	}
	b.WriteString(")")
	return b.String()
}

// remote is what the remote tool gains: the method's line in the usage,
// and its command.
func (m *method) remote() []oracle.Edit {
	M, P, N := m.name, m.prev, m.next
	sig := make([]string, len(m.params))
	args := make([]string, len(m.params))
	for i, p := range m.params {
		sig[i] = p.t.shown + " " + p.name
		args[i] = fmt.Sprintf("eval(args[%d]),", i)
		if p.t.text() {
			args[i] = fmt.Sprintf("args[%d],", i)
		}
	}
	cmd := fmt.Sprintf("if cmd == '%[1]s':\n    if len(args) != %[2]d:\n        print('%[1]s requires %[2]d args')\n        sys.exit(1)\n    pp.pprint(client.%[1]s(%[3]s))",
		M, len(m.params), strings.Join(args, " "))
	usage := m.afterElseBefore(fmt.Sprintf("    print('  %s %s(%s)')", m.ret.shown, M, strings.Join(sig, ", ")),
		after(re(`^    print\('  .*\b%s\(`, P)), before(re(`^    print\('  .*\b%s\(`, N)))
	if P != "" {
		return []oracle.Edit{usage, insert("\nel"+cmd, after(re(`^(el)?if cmd == '%s':$`, P), re(`^    pp\.pprint\(`)))}
	}
	first := text("if cmd == '%s':", N)
	return []oracle.Edit{usage, insert(cmd+"\n\n", before(first)),
		{Op: oracle.Substitute, Pattern: regexp.MustCompile(`^if `), With: "elif ", Anchors: []oracle.Anchor{after(first)}}}
}
