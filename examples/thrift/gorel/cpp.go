package gorel

import (
	"fmt"
	"strings"

	"github.com/mcpt-tool/mcpt/oracle"
)

// What thrift's C++ generator writes for a method, in SERVICE.h,
// SERVICE.cpp and SERVICE_server.skeleton.cpp.

const (
	proto     = "::apache::thrift::protocol::"
	tprotoIn  = "::apache::thrift::protocol::TProtocol* iprot"
	tprotoOut = "::apache::thrift::protocol::TProtocol* oprot"
)

// rt is the C++ return type: a string result is an out parameter.
func (m *method) rt() string {
	if m.ret.ttype != "" && !m.ret.text() {
		return m.ret.cpp
	}
	return "void"
}

// params is the C++ parameter list; sig the method's, with the out
// parameter of a string result; call the arguments that pass them on.
func (m *method) cppParams() string {
	ps := make([]string, len(m.params))
	for i, p := range m.params {
		ps[i] = p.t.arg + " " + p.name
	}
	return strings.Join(ps, ", ")
}

func (m *method) sig() string {
	if m.ret.text() {
		return "std::string& _return, " + m.cppParams()
	}
	return m.cppParams()
}

func (m *method) call() string {
	if m.ret.text() {
		return "_return, " + strings.Join(m.names(), ", ")
	}
	return strings.Join(m.names(), ", ")
}

// recvParams is the parameter list of recv_: the out parameter, if any,
// and more (the concurrent client's seqid).
func (m *method) recvParams(more ...string) string {
	if m.ret.text() {
		more = append([]string{"std::string& _return"}, more...)
	}
	return strings.Join(more, ", ")
}

// cls is the name of a helper struct of the method: args, pargs, result,
// presult.
func (m *method) cls(what string) string { return m.svc + "_" + m.name + "_" + what }

func (m *method) cppHeader() []oracle.Edit {
	V, M, P, N := m.svc, m.name, m.prev, m.next
	iface := text("class %sIf {", V)
	null := text("class %sNull : virtual public %sIf {", V, V)
	multi := text("class %sMultiface : virtual public %sIf {", V, V)
	client := re(`^class %sClient : `, V)
	conc := re(`^class %sConcurrentClient : `, V)
	proc := re(`^class %sProcessor : `, V)
	const procMap = `    processMap_["%s"] = &%sProcessor::process_%s;`
	prevStruct := "presult"
	if m.prevOneway {
		prevStruct = "pargs"
	}
	es := []oracle.Edit{
		m.afterElseBefore(fmt.Sprintf("  virtual %s %s(%s) = 0;", m.rt(), M, m.sig()),
			after(iface, re(`^  virtual .*\b%s\(`, P)), before(iface, re(`^  virtual .*\b%s\(`, N))),
		m.afterElseBefore(m.nullMethod(),
			after(null, re(`^  \S.*\b%s\(.*\) override \{$`, P), re(`^  \}$`)), before(null, re(`^  \S.*\b%s\(.*\) override \{$`, N))),
		m.afterElseBefore("\n"+m.helperDecls(),
			after(text("class %s_%s_%s {", V, P, prevStruct), text("};")), after(null, text("};"))),
		m.afterElseBefore(fmt.Sprintf("  %s %s(%s) override;\n  void send_%s(%s);\n  %s recv_%s(%s);", m.rt(), M, m.sig(), M, m.cppParams(), m.rt(), M, m.recvParams()),
			after(client, re(`^  \S.* %s\(`, m.last())), before(client, re(`^  \S.*\b%s\(.*\) override;$`, N))),
		m.afterElseBefore("  void process_"+M+"(int32_t seqid, "+tprotoIn+", "+tprotoOut+", void* callContext);",
			after(proc, re(`^  void process_%s\(`, P)), before(proc, re(`^  void process_%s\(`, N))),
		m.afterElseBefore(fmt.Sprintf(procMap, M, V, M), after(proc, text(procMap, P, V, P)), before(proc, text(procMap, N, V, N))),
		m.beside(m.multiMethod(), 1, after(multi, re(`^  \S.*\b%s\(.*\) override \{$`, P), re(`^  \}$`)), before(multi, re(`^  \S.*\b%s\(.*\) override \{$`, N))),
		m.afterElseBefore(fmt.Sprintf("  %s %s(%s) override;\n  int32_t send_%s(%s);\n  %s recv_%s(%s);", m.rt(), M, m.sig(), M, m.cppParams(), m.rt(), M, m.recvParams("const int32_t seqid")),
			after(conc, re(`^  \S.* %s\(`, m.last())), before(conc, re(`^  \S.*\b%s\(.*\) override;$`, N))),
	}
	return es
}

// nullMethod is the method of the null implementation.
func (m *method) nullMethod() string {
	var ps []string
	if m.ret.text() {
		ps = append(ps, "std::string& /* _return */")
	}
	for _, p := range m.params {
		ps = append(ps, p.t.arg+" /* "+p.name+" */")
	}
	body := "    return;\n"
	if m.rt() != "void" {
		body = fmt.Sprintf("    %s _return = %s;\n    return _return;\n", m.ret.cpp, m.ret.zero)
	}
	return fmt.Sprintf("  %s %s(%s) override {\n%s  }", m.rt(), m.name, strings.Join(ps, ", "), body)
}

// multiMethod is the method of the multiface, which calls every
// implementation and returns the last one's result.
func (m *method) multiMethod() string {
	call := fmt.Sprintf("ifaces_[i]->%s(%s);", m.name, m.call())
	last := "    " + call
	switch {
	case m.rt() != "void":
		last = "    return " + call
	case m.ret.text():
		last += "\n    return;"
	}
	return fmt.Sprintf(`  %s %s(%s) override {
    size_t sz = ifaces_.size();
    size_t i = 0;
    for (; i < (sz - 1); ++i) {
      %s
    }
%s
  }`, m.rt(), m.name, m.sig(), call, last)
}

// helperDecls declares the method's helper structs: args (the
// parameters), pargs (pointers to them, for the client), result and
// presult (the result, and a pointer to it).
func (m *method) helperDecls() string {
	var b strings.Builder
	classDecl(&b, m.cls("args"), m.params)
	b.WriteString("\n")
	pointerDecl(&b, m.cls("pargs"), m.params, "const ", false, "uint32_t write("+tprotoOut+") const;")
	b.WriteString("\n")
	classDecl(&b, m.cls("result"), m.results())
	b.WriteString("\n")
	pointerDecl(&b, m.cls("presult"), m.results(), "", true, "uint32_t read("+tprotoIn+");")
	return strings.TrimSuffix(b.String(), "\n")
}

// issetDecl declares the struct of the fields' __isset flags, with a blank
// line after it; a struct without fields has none, and a blank line
// instead.
func issetDecl(b *strings.Builder, cls string, fs []field) {
	if len(fs) == 0 {
		b.WriteString("\n")
		return
	}
	inits := make([]string, len(fs))
	for i, f := range fs {
		inits[i] = f.name + "(false)"
	}
	fmt.Fprintf(b, "typedef struct _%s__isset {\n  _%s__isset() : %s {}\n", cls, cls, strings.Join(inits, ", "))
	for _, f := range fs {
		fmt.Fprintf(b, "  bool %s :1;\n", f.name)
	}
	fmt.Fprintf(b, "} _%s__isset;\n\n", cls)
}

// classDecl declares a struct of fields, as the generator declares a
// user's: constructors, fields, __isset, setters, comparisons, read and
// write. Its copy operations are noexcept when every field is a number.
func classDecl(b *strings.Builder, cls string, fs []field) {
	issetDecl(b, cls, fs)
	noexcept := " noexcept"
	for _, f := range fs {
		if f.t.text() {
			noexcept = ""
		}
	}
	fmt.Fprintf(b, "class %s {\n public:\n\n  %s(const %s&)%s;\n  %s& operator=(const %s&)%s;\n", cls, cls, cls, noexcept, cls, cls, noexcept)
	if len(fs) == 0 {
		fmt.Fprintf(b, "  %s() noexcept {\n", cls)
	} else {
		fmt.Fprintf(b, "  %s() noexcept\n", cls)
		for i, f := range fs {
			lead, end := strings.Repeat(" ", len(cls)+5), ","
			if i == 0 {
				lead = strings.Repeat(" ", len(cls)+3) + ": "
			}
			if i == len(fs)-1 {
				end = " {"
			}
			fmt.Fprintf(b, "%s%s(%s)%s\n", lead, f.name, f.t.init, end)
		}
	}
	fmt.Fprintf(b, "  }\n\n  virtual ~%s() noexcept;\n", cls)
	for _, f := range fs {
		fmt.Fprintf(b, "  %s %s;\n", f.t.cpp, f.name)
	}
	rhs := "rhs"
	if len(fs) == 0 {
		rhs = "/* rhs */"
	} else {
		fmt.Fprintf(b, "\n  _%s__isset __isset;\n", cls)
		for _, f := range fs {
			fmt.Fprintf(b, "\n  void __set_%s(%s val);\n", f.name, f.t.arg)
		}
	}
	fmt.Fprintf(b, "\n  bool operator == (const %s & %s) const\n  {\n", cls, rhs)
	for _, f := range fs {
		fmt.Fprintf(b, "    if (!(%s == rhs.%s))\n      return false;\n", f.name, f.name)
	}
	fmt.Fprintf(b, `    return true;
  }
  bool operator != (const %s &rhs) const {
    return !(*this == rhs);
  }

  bool operator < (const %s & ) const;

  uint32_t read(%s);
  uint32_t write(%s) const;

};
`, cls, cls, tprotoIn, tprotoOut)
}

// pointerDecl declares a struct of pointers to the fields (pargs, presult),
// with the one function it has.
func pointerDecl(b *strings.Builder, cls string, fs []field, qual string, isset bool, fn string) {
	if isset {
		issetDecl(b, cls, fs)
	} else {
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "class %s {\n public:\n\n\n  virtual ~%s() noexcept;\n", cls, cls)
	for _, f := range fs {
		fmt.Fprintf(b, "  %s%s* %s;\n", qual, f.t.cpp, f.name)
	}
	if isset && len(fs) > 0 {
		fmt.Fprintf(b, "\n  _%s__isset __isset;\n", cls)
	}
	fmt.Fprintf(b, "\n  %s\n\n};\n", fn)
}

func (m *method) cppSource() []oracle.Edit {
	V, P, N := m.svc, m.prev, m.next
	prevEnd := "presult::read"
	if m.prevOneway {
		prevEnd = "pargs::write"
	}
	end := re(`^}$`)
	return []oracle.Edit{
		m.beside(m.helperDefs(), 2, after(re(`^uint32_t %s_%s_%s\(`, V, P, prevEnd), end),
			before(text("%s_%s_args::~%s_%s_args() noexcept {", V, N, V, N))),
		m.beside(m.client(), 1, after(re(`^\S.* %sClient::%s\(`, V, m.last()), end), before(re(`^\S.* %sClient::%s\(`, V, N))),
		m.beside(m.process(), 1, after(re(`^void %sProcessor::process_%s\(`, V, P), end),
			before(text("void %sProcessor::process_%s(int32_t seqid, %s, %s, void* callContext)", V, N, tprotoIn, tprotoOut))),
		m.beside(m.concurrentClient(), 1, after(re(`^\S.* %sConcurrentClient::%s\(`, V, m.last()), end), before(re(`^\S.* %sConcurrentClient::%s\(`, V, N))),
	}
}

// helperDefs defines the helper structs' destructors, read and write.
func (m *method) helperDefs() string {
	dtor := func(cls string) string { return fmt.Sprintf("%s::~%s() noexcept {\n}\n\n\n", cls, cls) }
	args, pargs, res, pres := m.cls("args"), m.cls("pargs"), m.cls("result"), m.cls("presult")
	return strings.TrimSuffix(strings.Join([]string{
		dtor(args), reader(args, m.params, false), "\n", writer(args, m.params, false), "\n\n",
		dtor(pargs), writer(pargs, m.params, true), "\n\n",
		dtor(res), reader(res, m.results(), false), "\n", resultWriter(res, m.results()), "\n\n",
		dtor(pres), reader(pres, m.results(), true),
	}, ""), "\n")
}

// value is how read and write name a field: this->x, or (*(this->x))
// through a pointer.
func value(f field, pointer bool) string {
	if pointer {
		return "(*(this->" + f.name + "))"
	}
	return "this->" + f.name
}

// reader is a struct's read(): a switch on the field id.
func reader(cls string, fs []field, pointer bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `uint32_t %s::read(%s) {

  ::apache::thrift::protocol::TInputRecursionTracker tracker(*iprot);
  uint32_t xfer = 0;
  std::string fname;
  %sTType ftype;
  int16_t fid;

  xfer += iprot->readStructBegin(fname);

  using %sTProtocolException;


  while (true)
  {
    xfer += iprot->readFieldBegin(fname, ftype, fid);
    if (ftype == %sT_STOP) {
      break;
    }
`, cls, tprotoIn, proto, proto, proto)
	if len(fs) == 0 {
		b.WriteString("    xfer += iprot->skip(ftype);\n")
	} else {
		b.WriteString("    switch (fid)\n    {\n")
		for _, f := range fs {
			fmt.Fprintf(&b, `      case %d:
        if (ftype == %sT_%s) {
          xfer += iprot->read%s(%s);
          this->__isset.%s = true;
        } else {
          xfer += iprot->skip(ftype);
        }
        break;
`, f.id, proto, f.t.ttype, f.t.rw, value(f, pointer), f.name)
		}
		b.WriteString("      default:\n        xfer += iprot->skip(ftype);\n        break;\n    }\n")
	}
	b.WriteString("    xfer += iprot->readFieldEnd();\n  }\n\n  xfer += iprot->readStructEnd();\n\n  return xfer;\n}\n")
	return b.String()
}

// writeField writes one field of a struct.
func writeField(f field, pointer bool, indent string) string {
	return fmt.Sprintf("%[1]sxfer += oprot->writeFieldBegin(%[2]q, %[3]sT_%[4]s, %[5]d);\n%[1]sxfer += oprot->write%[6]s(%[7]s);\n%[1]sxfer += oprot->writeFieldEnd();\n",
		indent, f.name, proto, f.t.ttype, f.id, f.t.rw, value(f, pointer))
}

const writeEnd = "  xfer += oprot->writeFieldStop();\n  xfer += oprot->writeStructEnd();\n  return xfer;\n}\n"

// writer is a struct's write(): every field.
func writer(cls string, fs []field, pointer bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "uint32_t %s::write(%s) const {\n  uint32_t xfer = 0;\n  %sTOutputRecursionTracker tracker(*oprot);\n  xfer += oprot->writeStructBegin(%q);\n", cls, tprotoOut, proto, cls)
	for _, f := range fs {
		b.WriteString("\n" + writeField(f, pointer, "  "))
	}
	return b.String() + "\n" + writeEnd
}

// resultWriter is a result's write(): the field that is set.
func resultWriter(cls string, fs []field) string {
	var b strings.Builder
	fmt.Fprintf(&b, "uint32_t %s::write(%s) const {\n\n  uint32_t xfer = 0;\n\n  xfer += oprot->writeStructBegin(%q);\n\n", cls, tprotoOut, cls)
	for _, f := range fs {
		fmt.Fprintf(&b, "  if (this->__isset.%s) {\n%s  }\n", f.name, writeField(f, false, "    "))
	}
	return b.String() + writeEnd
}

// sendArgs fills the pargs of a call.
func (m *method) sendArgs() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s args;\n", m.cls("pargs"))
	for _, p := range m.params {
		fmt.Fprintf(&b, "  args.%s = &%s;\n", p.name, p.name)
	}
	b.WriteString("  args.write(oprot_);\n\n  oprot_->writeMessageEnd();\n  oprot_->getTransport()->writeEnd();\n  oprot_->getTransport()->flush();\n")
	return b.String()
}

// recvTail reads the result of a call, indented by in (the concurrent
// client commits its sentry before it returns).
func (m *method) recvTail(in string, commit bool) string {
	var ls []string
	add := func(depth int, lines ...string) {
		for _, l := range lines {
			ls = append(ls, in+strings.Repeat("  ", depth)+l)
		}
	}
	ret := func(depth int, line string) {
		if commit {
			add(depth, "sentry.commit();")
		}
		add(depth, line)
	}
	if m.rt() != "void" {
		add(0, m.ret.cpp+" _return;")
	}
	add(0, m.cls("presult")+" result;")
	if m.ret != void {
		add(0, "result.success = &_return;")
	}
	add(0, "result.read(iprot_);", "iprot_->readMessageEnd();", "iprot_->getTransport()->readEnd();")
	ls = append(ls, "")
	if m.ret == void {
		ret(0, "return;")
		return strings.Join(ls, "\n")
	}
	add(0, "if (result.__isset.success) {")
	if m.ret.text() {
		add(1, "// _return pointer has now been filled")
		ret(1, "return;")
	} else {
		ret(1, "return _return;")
	}
	add(0, "}")
	if commit {
		add(0, "// in a bad state, don't commit")
	}
	add(0, `throw ::apache::thrift::TApplicationException(::apache::thrift::TApplicationException::MISSING_RESULT, "`+m.name+` failed: unknown result");`)
	return strings.Join(ls, "\n")
}

// returns is how a client method passes its recv_'s result on.
func (m *method) returns() string {
	if m.rt() != "void" {
		return "return "
	}
	return ""
}

func (m *method) client() string {
	V, M := m.svc, m.name
	var out string
	if m.ret.text() {
		out = "_return"
	}
	return fmt.Sprintf(`%[1]s %[2]sClient::%[3]s(%[4]s)
{
  send_%[3]s(%[5]s);
  %[6]srecv_%[3]s(%[7]s);
}

void %[2]sClient::send_%[3]s(%[8]s)
{
  int32_t cseqid = 0;
  oprot_->writeMessageBegin("%[3]s", %[9]sT_CALL, cseqid);

%[10]s}

%[1]s %[2]sClient::recv_%[3]s(%[11]s)
{

  int32_t rseqid = 0;
  std::string fname;
  %[9]sTMessageType mtype;

  iprot_->readMessageBegin(fname, mtype, rseqid);
  if (mtype == %[9]sT_EXCEPTION) {
    ::apache::thrift::TApplicationException x;
    x.read(iprot_);
    iprot_->readMessageEnd();
    iprot_->getTransport()->readEnd();
    throw x;
  }
  if (mtype != %[9]sT_REPLY) {
    iprot_->skip(%[9]sT_STRUCT);
    iprot_->readMessageEnd();
    iprot_->getTransport()->readEnd();
  }
  if (fname.compare("%[3]s") != 0) {
    iprot_->skip(%[9]sT_STRUCT);
    iprot_->readMessageEnd();
    iprot_->getTransport()->readEnd();
  }
%[12]s
}`, m.rt(), V, M, m.sig(), strings.Join(m.names(), ", "), m.returns(), out, m.cppParams(), proto, m.sendArgs(), m.recvParams(), m.recvTail("  ", false))
}

func (m *method) concurrentClient() string {
	V, M := m.svc, m.name
	out := "seqid"
	if m.ret.text() {
		out = "_return, seqid"
	}
	return fmt.Sprintf(`%[1]s %[2]sConcurrentClient::%[3]s(%[4]s)
{
  int32_t seqid = send_%[3]s(%[5]s);
  %[6]srecv_%[3]s(%[7]s);
}

int32_t %[2]sConcurrentClient::send_%[3]s(%[8]s)
{
  int32_t cseqid = this->sync_->generateSeqId();
  ::apache::thrift::async::TConcurrentSendSentry sentry(this->sync_.get());
  oprot_->writeMessageBegin("%[3]s", %[9]sT_CALL, cseqid);

%[10]s
  sentry.commit();
  return cseqid;
}

%[1]s %[2]sConcurrentClient::recv_%[3]s(%[11]s)
{

  int32_t rseqid = 0;
  std::string fname;
  %[9]sTMessageType mtype;

  // the read mutex gets dropped and reacquired as part of waitForWork()
  // The destructor of this sentry wakes up other clients
  ::apache::thrift::async::TConcurrentRecvSentry sentry(this->sync_.get(), seqid);

  while(true) {
    if(!this->sync_->getPending(fname, mtype, rseqid)) {
      iprot_->readMessageBegin(fname, mtype, rseqid);
    }
    if(seqid == rseqid) {
      if (mtype == %[9]sT_EXCEPTION) {
        ::apache::thrift::TApplicationException x;
        x.read(iprot_);
        iprot_->readMessageEnd();
        iprot_->getTransport()->readEnd();
        sentry.commit();
        throw x;
      }
      if (mtype != %[9]sT_REPLY) {
        iprot_->skip(%[9]sT_STRUCT);
        iprot_->readMessageEnd();
        iprot_->getTransport()->readEnd();
      }
      if (fname.compare("%[3]s") != 0) {
        iprot_->skip(%[9]sT_STRUCT);
        iprot_->readMessageEnd();
        iprot_->getTransport()->readEnd();

        // in a bad state, don't commit
        using %[9]sTProtocolException;
        throw TProtocolException(TProtocolException::INVALID_DATA);
      }
%[12]s
    }
    // seqid != rseqid
    this->sync_->updatePending(fname, mtype, rseqid);

    // this will temporarily unlock the readMutex, and let other clients get work done
    this->sync_->waitForWork(seqid);
  } // end while(true)
}`, m.rt(), V, M, m.sig(), strings.Join(m.names(), ", "), m.returns(), out, m.cppParams(), proto, m.sendArgs(), m.recvParams("const int32_t seqid"), m.recvTail("      ", true))
}

// process is the processor's function that serves a call.
func (m *method) process() string {
	V, M := m.svc, m.name
	args := make([]string, len(m.params))
	for i, p := range m.params {
		args[i] = "args." + p.name
	}
	call := strings.Join(args, ", ")
	switch {
	case m.ret == void:
		call = fmt.Sprintf("    iface_->%s(%s);", M, call)
	case m.ret.text():
		call = fmt.Sprintf("    iface_->%s(result.success, %s);\n    result.__isset.success = true;", M, call)
	default:
		call = fmt.Sprintf("    result.success = iface_->%s(%s);\n    result.__isset.success = true;", M, call)
	}
	return fmt.Sprintf(`void %[1]sProcessor::process_%[2]s(int32_t seqid, %[3]s, %[4]s, void* callContext)
{
  void* ctx = nullptr;
  if (this->eventHandler_.get() != nullptr) {
    ctx = this->eventHandler_->getContext("%[1]s.%[2]s", callContext);
  }
  ::apache::thrift::TProcessorContextFreer freer(this->eventHandler_.get(), ctx, "%[1]s.%[2]s");

  if (this->eventHandler_.get() != nullptr) {
    this->eventHandler_->preRead(ctx, "%[1]s.%[2]s");
  }

  %[5]s args;
  args.read(iprot);
  iprot->readMessageEnd();
  uint32_t bytes = iprot->getTransport()->readEnd();

  if (this->eventHandler_.get() != nullptr) {
    this->eventHandler_->postRead(ctx, "%[1]s.%[2]s", bytes);
  }

  %[6]s result;
  try {
%[7]s
  } catch (const std::exception& e) {
    if (this->eventHandler_.get() != nullptr) {
      this->eventHandler_->handlerError(ctx, "%[1]s.%[2]s");
    }

    ::apache::thrift::TApplicationException x(e.what());
    oprot->writeMessageBegin("%[2]s", %[8]sT_EXCEPTION, seqid);
    x.write(oprot);
    oprot->writeMessageEnd();
    oprot->getTransport()->writeEnd();
    oprot->getTransport()->flush();
    return;
  }

  if (this->eventHandler_.get() != nullptr) {
    this->eventHandler_->preWrite(ctx, "%[1]s.%[2]s");
  }

  oprot->writeMessageBegin("%[2]s", %[8]sT_REPLY, seqid);
  result.write(oprot);
  oprot->writeMessageEnd();
  bytes = oprot->getTransport()->writeEnd();
  oprot->getTransport()->flush();

  if (this->eventHandler_.get() != nullptr) {
    this->eventHandler_->postWrite(ctx, "%[1]s.%[2]s", bytes);
  }
}`, V, M, tprotoIn, tprotoOut, m.cls("args"), m.cls("result"), call, proto)
}

// skeleton is the server skeleton's stub of the method.
func (m *method) skeleton() []oracle.Edit {
	stub := fmt.Sprintf("  %s %s(%s) {\n    // Your implementation goes here\n    printf(\"%s\\n\");\n  }", m.rt(), m.name, m.sig(), m.name)
	return []oracle.Edit{m.beside(stub, 1, after(re(`^  \S.*\b%s\(.*\) \{$`, m.prev), re(`^  \}$`)), before(re(`^  \S.*\b%s\(.*\) \{$`, m.next)))}
}
