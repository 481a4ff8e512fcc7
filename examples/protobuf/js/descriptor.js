// descriptor.js: reads the FileDescriptorSet protoc writes with
// --descriptor_set_out, the part of it the probe needs (probe.js): each
// file's package and syntax, its messages with their fields, oneofs and
// nested declarations, its enums with their values. Written here rather
// than taken from a protobuf runtime, since the runtimes are what the
// probe tests.
"use strict";

// Reader walks the fields of one encoded message.
class Reader {
  constructor(buf, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }
  varint() {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (this.pos >= this.end) throw new Error("descriptor: truncated varint");
      const b = this.buf[this.pos++];
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      if (shift > 63n) throw new Error("descriptor: varint too long");
    }
  }
  // fields yields [number, wireType, value], value a BigInt (varint,
  // fixed) or a [start, end) pair of the bytes of a length-delimited field.
  *fields() {
    while (this.pos < this.end) {
      const tag = this.varint();
      const no = Number(tag >> 3n), wt = Number(tag & 7n);
      switch (wt) {
        case 0:
          yield [no, wt, this.varint()];
          break;
        case 1:
          this.pos += 8;
          yield [no, wt, null];
          break;
        case 2: {
          const len = Number(this.varint());
          const start = this.pos;
          this.pos += len;
          if (this.pos > this.end) throw new Error("descriptor: truncated field");
          yield [no, wt, [start, this.pos]];
          break;
        }
        case 5:
          this.pos += 4;
          yield [no, wt, null];
          break;
        default:
          throw new Error(`descriptor: wire type ${wt} of field ${no}`);
      }
    }
  }
}

const text = (buf, [s, e]) => Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString("utf8");
const sub = (buf, [s, e]) => new Reader(buf, s, e);
// an int32 written as a varint: negative numbers take ten bytes
const int32 = (v) => Number(BigInt.asIntN(32, v));

// The field types of FieldDescriptorProto.Type, by number.
const TYPES = [null, "double", "float", "int64", "uint64", "int32", "fixed64", "fixed32", "bool", "string", "group", "message", "bytes", "uint32", "enum", "sfixed32", "sfixed64", "sint32", "sint64"];
const LABELS = [null, "optional", "required", "repeated"];

function field(buf, r) {
  const f = { name: "", number: 0, label: "optional", type: "", typeName: "", defaultValue: null, jsonName: "", oneofIndex: -1, proto3Optional: false, packed: null, deprecated: false, jstype: 0 };
  for (const [no, , v] of r.fields()) {
    switch (no) {
      case 1: f.name = text(buf, v); break;
      case 3: f.number = int32(v); break;
      case 4: f.label = LABELS[Number(v)] || "optional"; break;
      case 5: f.type = TYPES[Number(v)] || ""; break;
      case 6: f.typeName = text(buf, v); break;
      case 7: f.defaultValue = text(buf, v); break;
      case 8:
        for (const [ono, , ov] of sub(buf, v).fields()) {
          if (ono === 2) f.packed = ov !== 0n;
          if (ono === 3) f.deprecated = ov !== 0n;
          if (ono === 6) f.jstype = Number(ov);
        }
        break;
      case 9: f.oneofIndex = int32(v); break;
      case 10: f.jsonName = text(buf, v); break;
      case 17: f.proto3Optional = v !== 0n; break;
    }
  }
  return f;
}

function enumType(buf, r, scope) {
  const e = { name: "", fullName: "", values: [], allowAlias: false };
  for (const [no, , v] of r.fields()) {
    if (no === 1) e.name = text(buf, v);
    if (no === 2) {
      const val = { name: "", number: 0, deprecated: false };
      for (const [vno, , vv] of sub(buf, v).fields()) {
        if (vno === 1) val.name = text(buf, vv);
        if (vno === 2) val.number = int32(vv);
        if (vno === 3) for (const [ono, , ov] of sub(buf, vv).fields()) if (ono === 1) val.deprecated = ov !== 0n;
      }
      e.values.push(val);
    }
    if (no === 3) for (const [ono, , ov] of sub(buf, v).fields()) if (ono === 2) e.allowAlias = ov !== 0n;
  }
  e.fullName = scope ? scope + "." + e.name : e.name;
  return e;
}

function message(buf, r, scope) {
  const m = { name: "", fullName: "", fields: [], oneofs: [], messages: [], enums: [], mapEntry: false, deprecated: false };
  const nested = [], enums = [];
  for (const [no, , v] of r.fields()) {
    switch (no) {
      case 1: m.name = text(buf, v); break;
      case 2: m.fields.push(field(buf, sub(buf, v))); break;
      case 3: nested.push(v); break;
      case 4: enums.push(v); break;
      case 7:
        for (const [ono, , ov] of sub(buf, v).fields()) {
          if (ono === 7) m.mapEntry = ov !== 0n;
          if (ono === 3) m.deprecated = ov !== 0n;
        }
        break;
      case 8:
        for (const [ono, , ov] of sub(buf, v).fields()) if (ono === 1) m.oneofs.push(text(buf, ov));
        break;
    }
  }
  m.fullName = scope ? scope + "." + m.name : m.name;
  m.messages = nested.map((v) => message(buf, sub(buf, v), m.fullName));
  m.enums = enums.map((v) => enumType(buf, sub(buf, v), m.fullName));
  return m;
}

function file(buf, r) {
  const f = { name: "", package: "", syntax: "proto2", dependencies: [], messages: [], enums: [] };
  const msgs = [], enums = [];
  for (const [no, , v] of r.fields()) {
    switch (no) {
      case 1: f.name = text(buf, v); break;
      case 2: f.package = text(buf, v); break;
      case 3: f.dependencies.push(text(buf, v)); break;
      case 4: msgs.push(v); break;
      case 5: enums.push(v); break;
      case 12: f.syntax = text(buf, v) || "proto2"; break;
    }
  }
  f.messages = msgs.map((v) => message(buf, sub(buf, v), f.package));
  f.enums = enums.map((v) => enumType(buf, sub(buf, v), f.package));
  return f;
}

// readSet decodes a FileDescriptorSet into a list of files.
function readSet(buf) {
  const files = [];
  for (const [no, , v] of new Reader(buf).fields()) if (no === 1) files.push(file(buf, sub(buf, v)));
  return files;
}

// index maps the full name of every message and enum of the files, with a
// leading dot as type_name writes it, to its declaration and the name of
// its file.
function index(files) {
  const types = new Map();
  for (const f of files) {
    const walk = (m) => {
      types.set("." + m.fullName, { kind: "message", decl: m, file: f.name });
      m.messages.forEach(walk);
      m.enums.forEach((e) => types.set("." + e.fullName, { kind: "enum", decl: e, file: f.name }));
    };
    f.messages.forEach(walk);
    f.enums.forEach((e) => types.set("." + e.fullName, { kind: "enum", decl: e, file: f.name }));
  }
  return types;
}

module.exports = { readSet, index, TYPES };
