// probe.js: runs the code a Protocol Buffers generator for JavaScript wrote
// and writes down what it does, one line of JSON per declaration of the
// input (the facts that the checker kind protobuf-js reads, see
// oracle/protojs): for each field, the property the generated code keeps
// it in, the value it reads from the bytes of a sample, the bytes it
// writes back, the value of the field when the message does not set it,
// the key its JSON carries; for each enum value, the value of its member
// and what the generated helpers make of it. The probe observes; whether
// an observation is right is the checker's to say.
//
// The bytes of each sample are written here from the field's descriptor
// (protoc's, not the generator's), as the encoding of Protocol Buffers
// defines them, and the generated code decodes them: that is how the
// probe learns a property's name without knowing the generator's naming.
"use strict";

const vm = require("vm");
const path = require("path");
const { index } = require("./descriptor.js");

// ---- the encoding of samples ----

const enc = {
  varint(v) {
    let x = BigInt.asUintN(64, BigInt(v));
    const out = [];
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x) b |= 0x80;
      out.push(b);
    } while (x);
    return out;
  },
  zigzag(v) {
    const x = BigInt(v);
    return BigInt.asUintN(64, (x << 1n) ^ (x >> 63n));
  },
  fixed(v, bytes) {
    let x = BigInt.asUintN(bytes * 8, BigInt(v));
    const out = [];
    for (let i = 0; i < bytes; i++) {
      out.push(Number(x & 0xffn));
      x >>= 8n;
    }
    return out;
  },
  float(v, bytes) {
    const b = Buffer.alloc(bytes);
    if (bytes === 4) b.writeFloatLE(v);
    else b.writeDoubleLE(v);
    return [...b];
  },
  tag(no, wt) {
    return enc.varint((BigInt(no) << 3n) | BigInt(wt));
  },
  len(bytes) {
    return [...enc.varint(bytes.length), ...bytes];
  },
};

// The sample values of the scalar types: each differs from the type's
// default, negative numbers take their longest form.
const SAMPLES = {
  int32: ["-2", "300"], int64: ["300", "5"], uint32: ["300", "5"], uint64: ["300", "5"],
  sint32: ["-3", "64"], sint64: ["-3", "64"], fixed32: ["7", "70000"], fixed64: ["7", "70000"],
  sfixed32: ["-5", "6"], sfixed64: ["-5", "6"], bool: ["true", "false"],
  float: ["1.5", "-0.25"], double: ["-2.25", "1e+100"], string: ["zq\u00e9", "\u00e9"], bytes: ["00ff01", "7f"],
};
const WIRE = { int32: 0, int64: 0, uint32: 0, uint64: 0, sint32: 0, sint64: 0, bool: 0, enum: 0, fixed32: 5, sfixed32: 5, float: 5, fixed64: 1, sfixed64: 1, double: 1, string: 2, bytes: 2, message: 2, group: 3 };

// scalarBytes encodes one value of a scalar type, without tag.
function scalarBytes(type, v) {
  switch (type) {
    case "int32": case "int64": case "uint32": case "uint64": case "enum": return enc.varint(v);
    case "sint32": case "sint64": return enc.varint(enc.zigzag(v));
    case "bool": return enc.varint(v === "true" ? 1 : 0);
    case "fixed32": case "sfixed32": return enc.fixed(v, 4);
    case "fixed64": case "sfixed64": return enc.fixed(v, 8);
    case "float": return enc.float(Number(v), 4);
    case "double": return enc.float(Number(v), 8);
    case "string": return enc.len([...Buffer.from(v, "utf8")]);
    case "bytes": return enc.len([...Buffer.from(v, "hex")]);
  }
  throw new Error("no scalar type " + type);
}

// canonical renders a sample value as values read from generated code
// are rendered (canon), so that the two compare.
function canonicalSample(type, v) {
  switch (type) {
    case "bool": return v;
    case "string": return JSON.stringify(v);
    case "bytes": return "b:" + v;
    case "float": case "double": return "n:" + num(Number(v));
    default: return "n:" + v;
  }
}

const num = (x) => (Object.is(x, -0) ? "-0" : String(x));

// ---- reading values of generated code ----

const isLong = (v) => v !== null && typeof v === "object" && typeof v.low === "number" && typeof v.high === "number" && typeof v.unsigned === "boolean";
const isBytes = (v) => v instanceof Uint8Array || (typeof Buffer !== "undefined" && Buffer.isBuffer(v));

// canon renders a value read from generated code for the field f: numbers
// of any representation (number, bigint, Long, decimal string for an
// integer field) as n:DECIMAL, enum values as their number, bytes as hex,
// lists and maps element by element.
function canon(v, f, types, elem = false) {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (!elem && f && f.label === "repeated" && !f.map) {
    if (!Array.isArray(v)) return "not a list: " + canon(v, f, types, true);
    return "[" + v.map((x) => canon(x, f, types, true)).join(",") + "]";
  }
  if (!elem && f && f.map) {
    const entries = v instanceof Map ? [...v.entries()] : typeof v === "object" ? Object.entries(v) : null;
    if (!entries) return "not a map: " + typeof v;
    return "{" + entries.map(([k, x]) => canonKey(k, f.map.key, types) + ":" + canon(x, f.map.value, types, true)).sort().join(",") + "}";
  }
  const type = f ? f.type : "";
  if (type === "enum") {
    const e = types.get(f.typeName);
    if (typeof v === "string" && e) {
      const val = e.decl.values.find((x) => x.name === v);
      if (val) return "n:" + val.number;
    }
  }
  if (typeof v === "bigint") return "n:" + v.toString();
  if (isLong(v)) return "n:" + v.toString();
  if (typeof v === "number") return "n:" + num(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") {
    if (/^(u?int|s?fixed|sint)(32|64)$/.test(type) && /^-?\d+$/.test(v)) return "n:" + v;
    return JSON.stringify(v);
  }
  if (isBytes(v)) return "b:" + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
  // protobufjs's reflection keeps an unset bytes field as an empty array
  if (type === "bytes" && Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0 && x < 256)) return "b:" + Buffer.from(v).toString("hex");
  if (typeof v === "object") return "message";
  return typeof v;
}

// canonKey renders a map's key: protobufjs keeps a 64-bit key as the
// eight bytes of its value, one character each (util.longToHash).
function canonKey(k, f, types) {
  // a JavaScript object's keys are strings
  if (f.type === "bool" && (k === "true" || k === "false")) return k;
  if (typeof k === "string" && /64$/.test(f.type) && k.length === 8 && !/^-?\d+$/.test(k)) {
    let x = 0n;
    for (let i = 7; i >= 0; i--) x = (x << 8n) | BigInt(k.charCodeAt(i) & 0xff);
    if (!/^(u|fixed)/.test(f.type)) x = BigInt.asIntN(64, x);
    return "n:" + x.toString();
  }
  return canon(k, f, types, true);
}

// ---- loading the generated modules ----

// Loader runs the generated modules as CommonJS in this process, each
// compiled from TypeScript or ECMAScript modules first when it is one:
// a relative import resolves to the output tree, a package to the
// generator's runtime (NODE_PATH, then the pack's node_modules), a
// package neither has (rxjs, grpc) to a stand-in whose members are
// functions that throw.
class Loader {
  constructor(files, runtime, ts) {
    this.files = files; // path → source
    this.runtime = runtime; // require of a package, or throws
    this.ts = ts;
    this.cache = new Map();
    this.missing = []; // relative imports the output tree does not hold
  }
  resolve(from, spec) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    const stems = [base, base.replace(/\.(js|mjs|cjs)$/, "")];
    for (const s of stems) for (const ext of ["", ".ts", ".js", ".mjs", ".cjs", "/index.ts", "/index.js"]) if (this.files.has(s + ext) && !(s + ext).endsWith(".d.ts")) return s + ext;
    return null;
  }
  compile(file) {
    const src = this.files.get(file);
    const esm = /\.ts$/.test(file) || /^\s*(import|export)\b/m.test(src);
    if (!esm) return src;
    if (!this.ts) throw new Error(`${file}: TypeScript or an ES module, and no typescript package to compile it`);
    const out = this.ts.transpileModule(src, {
      fileName: file,
      compilerOptions: { module: this.ts.ModuleKind.CommonJS, target: this.ts.ScriptTarget.ES2020, esModuleInterop: false, isolatedModules: true, allowJs: true },
    });
    return out.outputText;
  }
  load(file) {
    if (this.cache.has(file)) return this.cache.get(file).exports;
    const module = { exports: {} };
    this.cache.set(file, module);
    const code = this.compile(file);
    const fn = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file });
    const req = (spec) => this.require(file, spec);
    fn.call(module.exports, module.exports, req, module, "/" + file, "/" + path.posix.dirname(file));
    return module.exports;
  }
  require(from, spec) {
    if (spec.startsWith("./") || spec.startsWith("../")) {
      const to = this.resolve(from, spec);
      if (to) return this.load(to);
      this.missing.push(spec);
      return standIn(spec);
    }
    let m;
    try {
      m = this.runtime(spec);
    } catch (e) {
      if (e && e.code === "MODULE_NOT_FOUND") return standIn(spec);
      throw e;
    }
    // `import X from "long"` compiled without interop reads .default
    if ((typeof m === "function" || (m && typeof m === "object")) && !("default" in m) && !m.__esModule && Object.isExtensible(m)) {
      Object.defineProperty(m, "default", { value: m, enumerable: false, configurable: true });
    }
    return m;
  }
}

// standIn is a module that is not there: loading it works, using it throws.
function standIn(spec) {
  const fail = function () {
    throw new Error(`${spec} is not installed`);
  };
  return new Proxy({}, { get: (t, k) => (k === "__esModule" ? true : k === "then" ? undefined : fail) });
}

// ---- what each generator's code offers ----

// tsName is the name ts-proto and protoc-gen-es give a declaration: its
// full name without the package, nested names joined by _.
const tsName = (full, pkg) => (pkg ? full.slice(pkg.length + 1) : full).replace(/\./g, "_");
const lowerFirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

// api returns, for a message or enum of the input, how to use what the
// generated code offers for it (undefined members: it offers none).
function apiOf(generator, exp, runtime, pkg) {
  if (generator === "ts-proto") {
    return {
      message(full) {
        const M = exp[tsName(full, pkg)];
        if (!M || typeof M.decode !== "function") return null;
        return {
          decode: (b) => M.decode(b),
          encode: (m) => M.encode(m).finish(),
          toJSON: typeof M.toJSON === "function" ? (m) => M.toJSON(m) : null,
          fromJSON: typeof M.fromJSON === "function" ? (j) => M.fromJSON(j) : null,
        };
      },
      enum(full) {
        const n = tsName(full, pkg);
        const E = exp[n];
        if (!E || typeof E !== "object") return null;
        const h = (s) => (typeof exp[lowerFirst(n) + s] === "function" ? exp[lowerFirst(n) + s] : null);
        return { object: E, fromJSON: h("FromJSON"), toJSON: h("ToJSON"), toNumber: h("ToNumber") };
      },
    };
  }
  if (generator === "es") {
    const n = (full) => tsName(full, pkg);
    const v2 = Object.keys(exp).some((k) => k.endsWith("Schema"));
    if (v2) {
      const pb = runtime("@bufbuild/protobuf");
      return {
        message(full) {
          const S = exp[n(full) + "Schema"];
          if (!S) return null;
          return {
            decode: (b) => pb.fromBinary(S, b),
            encode: (m) => pb.toBinary(S, m),
            toJSON: (m) => pb.toJson(S, m),
            fromJSON: (j) => pb.fromJson(S, j),
          };
        },
        enum(full) {
          const E = exp[n(full)];
          return E && typeof E === "object" ? { object: E } : null;
        },
      };
    }
    return {
      message(full) {
        const M = exp[n(full)];
        if (typeof M !== "function" || typeof M.fromBinary !== "function") return null;
        return {
          decode: (b) => M.fromBinary(b),
          encode: (m) => m.toBinary(),
          toJSON: (m) => m.toJson(),
          fromJSON: (j) => M.fromJson(j),
        };
      },
      enum(full) {
        const E = exp[n(full)];
        return E && typeof E === "object" ? { object: E } : null;
      },
    };
  }
  // pbjs: the static module exports the root namespace, the JSON module a
  // reflected Root; an ES module (wrap=es6) as its default export
  if (exp && exp.__esModule && exp.default) exp = exp.default;
  const reflected = exp && typeof exp.lookupType === "function";
  const walk = (full) => full.split(".").reduce((o, k) => (o == null ? o : o[k]), exp);
  return {
    message(full) {
      let T;
      try {
        T = reflected ? exp.lookupType(full) : walk(full);
      } catch (e) {
        return null;
      }
      if (!T || typeof T.decode !== "function") return null;
      return {
        decode: (b) => T.decode(b),
        encode: (m) => T.encode(m).finish(),
        toJSON: (m) => (typeof m.toJSON === "function" ? m.toJSON() : T.toObject(m, runtime("protobufjs/minimal").util.toJSONOptions)),
        fromJSON: (j) => T.fromObject(j),
      };
    },
    enum(full) {
      if (reflected) {
        try {
          const E = exp.lookupEnum(full);
          const o = Object.create(E.valuesById);
          Object.assign(o, E.values);
          return { object: o };
        } catch (e) {
          return null;
        }
      }
      const E = walk(full);
      return E && typeof E === "object" ? { object: E } : null;
    },
  };
}

// ---- observing one message ----

// sampleOf is the sample of field f (its first or second value): the
// bytes of the field and the canonical value the generated code must
// read back; null when the field's type offers none (an enum with a
// single value, a message of another file).
function sampleOf(f, types, second = false, depth = 0) {
  const pick = (t) => SAMPLES[t][second ? 1 : 0];
  if (f.map) {
    const k = f.map.key.type === "bool" ? "true" : f.map.key.type === "string" ? "zq" : "7";
    const vs = sampleOf({ ...f.map.value, label: "optional" }, types);
    if (!vs) return null;
    const key = [...enc.tag(1, WIRE[f.map.key.type]), ...scalarBytes(f.map.key.type, k)];
    const entry = [...key, ...vs.bytes];
    return { bytes: [...enc.tag(f.number, 2), ...enc.len(entry)], canon: `{${canonicalSample(f.map.key.type, k)}:${vs.value}}` };
  }
  if (f.label === "repeated") {
    const a = sampleOf({ ...f, label: "optional" }, types, false);
    const b = sampleOf({ ...f, label: "optional" }, types, true);
    if (!a || !b) return null;
    let bytes;
    if (f.packedEncoding) {
      const body = [...a.raw, ...b.raw];
      bytes = [...enc.tag(f.number, 2), ...enc.len(body)];
    } else bytes = [...a.bytes, ...b.bytes];
    return { bytes, canon: `[${a.value},${b.value}]` };
  }
  let raw, value;
  switch (f.type) {
    case "message": {
      const t = types.get(f.typeName);
      const body = t && requiredOf(t.decl, types, depth);
      if (!body) return null;
      raw = enc.len(body);
      value = "message";
      break;
    }
    case "group": {
      const t = types.get(f.typeName);
      const body = t && requiredOf(t.decl, types, depth);
      if (!body) return null;
      return { bytes: [...enc.tag(f.number, 3), ...body, ...enc.tag(f.number, 4)], raw: null, value: "message", canon: "message" };
    }
    case "enum": {
      const t = types.get(f.typeName);
      if (!t) return null;
      // a value other than the ones the field may read unset: its
      // declared default, the enum's first value, 0
      const def = f.defaultValue !== null ? t.decl.values.find((v) => v.name === f.defaultValue) : null;
      const unsetNums = [0, t.decl.values[0].number, ...(def ? [def.number] : [])];
      let vals = t.decl.values.filter((v) => !unsetNums.includes(v.number));
      if (vals.length === 0) vals = t.decl.values.filter((v) => v.number !== (def ? def.number : t.decl.values[0].number));
      if (vals.length === 0) return null;
      // the second sample: another value than the first
      const other = t.decl.values.find((v) => v.number !== vals[0].number);
      const v = second && other ? other : vals[0];
      raw = enc.varint(v.number);
      value = "n:" + v.number;
      break;
    }
    default:
      raw = scalarBytes(f.type, pick(f.type));
      value = canonicalSample(f.type, pick(f.type));
  }
  return { bytes: [...enc.tag(f.number, WIRE[f.type]), ...raw], raw, value, canon: value };
}

// foreign says why field f cannot be tried when its type (or its map's
// value type) comes from another file whose generated code is not in the
// output tree ("" when it can): a generator run on one file writes the
// code of that file (and, ts-proto, of the well-known types it uses).
let present = () => true;
function foreign(f, types) {
  const name = f.map ? f.map.value.typeName : f.typeName;
  const t = name ? types.get(name) : null;
  if (!t || present(t.file)) return "";
  return `its type ${name.slice(1)} comes from ${t.file}, whose generated code is not in the output`;
}

// defaultOf renders the default value a field declares ([default = …] in
// proto2) as canon renders values, "" when it declares none.
function defaultOf(f, types) {
  const d = f.defaultValue;
  if (d === null || f.map || f.label === "repeated") return "";
  switch (f.type) {
    case "enum": {
      const t = types.get(f.typeName);
      const v = t && t.decl.values.find((x) => x.name === d);
      return v ? "n:" + v.number : "enum value " + d;
    }
    case "bool": return d;
    case "string": return JSON.stringify(d);
    case "bytes": return "b:" + unescapeC(d).toString("hex");
    case "float": case "double": {
      const x = d === "inf" ? Infinity : d === "-inf" ? -Infinity : /^-?nan$/.test(d) ? NaN : Number(d);
      return "n:" + num(f.type === "float" ? Math.fround(x) : x);
    }
    default: return "n:" + BigInt(d).toString();
  }
}

// zeroOf renders the value of f's type that sets nothing, "" for a
// message: an enum's first value, the empty string and bytes, 0, false.
function zeroOf(f, types) {
  if (f.map || f.label === "repeated") return "";
  switch (f.type) {
    case "message": case "group": return "";
    case "enum": {
      const t = types.get(f.typeName);
      return t && t.decl.values.length > 0 ? "n:" + t.decl.values[0].number : "";
    }
    case "string": return '""';
    case "bytes": return "b:";
    case "bool": return "false";
  }
  return "n:0";
}

// unescapeC reads the C escapes protoc writes a bytes default with.
function unescapeC(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "\\") {
      out.push(...Buffer.from(s[i], "utf8"));
      continue;
    }
    const c = s[++i];
    const simple = { n: 10, r: 13, t: 9, '"': 34, "'": 39, "\\": 92, a: 7, b: 8, f: 12, v: 11, "?": 63 };
    if (c in simple) out.push(simple[c]);
    else if (c === "x") {
      let h = "";
      while (h.length < 2 && /[0-9a-fA-F]/.test(s[i + 1])) h += s[++i];
      out.push(parseInt(h, 16));
    } else if (/[0-7]/.test(c)) {
      let o = c;
      while (o.length < 3 && /[0-7]/.test(s[i + 1])) o += s[++i];
      out.push(parseInt(o, 8) & 0xff);
    } else out.push(c.charCodeAt(0));
  }
  return Buffer.from(out);
}

// requiredOf is the bytes of a message of type m with its required
// fields set to their samples, which some decoders insist on; null when
// one has none, or past a depth that only a cycle reaches.
function requiredOf(m, types, depth) {
  if (depth > 8) return null;
  let out = [];
  for (const g of m.fields) {
    if (g.label !== "required") continue;
    const s = sampleOf({ ...g, map: null }, types, false, depth + 1);
    if (!s) return null;
    out = out.concat(s.bytes);
  }
  return out;
}

// fieldsOf renders encoded bytes of a message of type m as its fields,
// each its tag and its value, sorted: two encodings of one message compare
// equal whatever order the writer put the fields in, the fields of a
// nested message (a message field, a group, a map entry) compared alike,
// and an empty packed list (no element) is no field.
function fieldsOf(bytes, m, types) {
  let pos = 0;
  const varint = () => {
    let v = 0n, s = 0n;
    for (;;) {
      if (pos >= bytes.length) throw new Error("truncated");
      const b = bytes[pos++];
      v |= BigInt(b & 0x7f) << s;
      if (!(b & 0x80)) return v;
      s += 7n;
    }
  };
  // fields reads fields up to end, or up to the end tag of group no
  const fields = (end, group, msg) => {
    const out = [];
    while (pos < end) {
      const start = pos;
      const t = varint();
      const no = Number(t >> 3n), wt = Number(t & 7n);
      const f = msg ? msg.fields.find((x) => x.number === no) : null;
      const sub = f && (f.type === "message" || f.type === "group") ? types.get(f.typeName) : null;
      const tag = Buffer.from(bytes.slice(start, pos)).toString("hex");
      switch (wt) {
        case 4:
          if (no !== group) throw new Error("mismatched end group");
          return out.sort();
        case 0: {
          const v0 = pos;
          varint();
          out.push(tag + Buffer.from(bytes.slice(v0, pos)).toString("hex"));
          break;
        }
        case 1: case 5: {
          const n = wt === 1 ? 8 : 4;
          out.push(tag + Buffer.from(bytes.slice(pos, pos + n)).toString("hex"));
          pos += n;
          break;
        }
        case 2: {
          const n = Number(varint());
          const e = pos + n;
          if (e > end) throw new Error("truncated");
          // an empty packed list holds no element: as if not written
          const packable = f && f.label === "repeated" && !["string", "bytes", "message", "group"].includes(f.type);
          if (!(packable && n === 0)) out.push(tag + (sub ? "{" + fields(e, -1, sub.decl).join(" ") + "}" : Buffer.from(bytes.slice(pos, e)).toString("hex")));
          pos = e;
          break;
        }
        case 3:
          out.push(tag + "[" + fields(end, no, sub ? sub.decl : null).join(" ") + "]");
          break;
        default:
          throw new Error("wire type " + wt);
      }
    }
    if (group >= 0) throw new Error("no end group");
    return out.sort();
  };
  return fields(bytes.length, -1, m);
}

const hex = (b) => Buffer.from(b).toString("hex");
const errText = (e) => String((e && e.message) || e).split("\n")[0].slice(0, 300);

// keysOf lists the readable properties of a decoded message: own ones and
// those its prototypes hold as data (pbjs keeps defaults there).
function keysOf(m) {
  const keys = new Set();
  for (let o = m; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const k of Object.getOwnPropertyNames(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if (d && "value" in d && typeof d.value !== "function" && k !== "constructor" && !k.startsWith("$")) keys.add(k);
    }
  }
  return [...keys];
}

// propOf finds the property that holds f in m (decoded from f's sample)
// but differs from empty (decoded without f): a key, or KEY.CASE for a
// oneof kept as one property ({case, value} or {$case, NAME}).
function propOf(m, empty, f, types) {
  const diff = [];
  for (const k of keysOf(m)) {
    const a = m[k], b = empty ? empty[k] : undefined;
    const oneof = a && typeof a === "object" && !Array.isArray(a) && !isBytes(a) && ("$case" in a || "case" in a);
    if (oneof) {
      const c = "$case" in a ? a.$case : a.case;
      if (c !== undefined && (!b || (b.$case ?? b.case) !== c)) diff.push(k + "." + c);
      continue;
    }
    if (canon(a, f, types) !== canon(b, f, types)) diff.push(k);
  }
  return diff;
}

// read reads the value of prop (KEY or KEY.CASE) in m; "unset" for a
// oneof member that is not the oneof's case.
function read(m, prop) {
  const [k, c] = prop.split(".");
  const v = m[k];
  if (c === undefined) return { v };
  if (v === undefined || v === null) return { v };
  const cur = "$case" in v ? v.$case : v.case;
  if (cur !== c) return { unset: true };
  return { v: "value" in v ? v.value : v[c] };
}

// messageFacts observes the fields of message m.
function messageFacts(api, m, file, types, out) {
  const base = { element: m.fullName, kind: "message" };
  const a = api.message(m.fullName);
  if (!a) {
    out.push({ ...base, error: "no generated code found for the message" });
    return;
  }
  const fields = m.fields.map((f) => describe(f, m, file, types));
  // the bytes every sample goes with: the required fields, which some
  // decoders insist on
  let req = [];
  for (const f of fields) {
    if (f.label !== "required") continue;
    const s = sampleOf(f, types);
    if (!s) {
      out.push({ ...base, error: `required field ${f.name} has no sample` });
      return;
    }
    req = req.concat(s.bytes);
  }
  let empty, emptyErr;
  try {
    empty = a.decode(Uint8Array.from(req));
  } catch (e) {
    emptyErr = errText(e);
  }
  out.push(emptyErr ? { ...base, error: "decoding its required fields (or nothing): " + emptyErr } : base);
  for (const f of fields) {
    if (f.label !== "required") {
      out.push(fieldFacts(a, f, empty, req, types));
      continue;
    }
    // a required field is never left out (some decoders insist): the
    // message with every required field at its sample is the base, and
    // the field's second sample is the one tried; a message has no second
    // sample to tell its property by
    if (f.type === "message" || f.type === "group") {
      out.push({ ...fieldFacts(a, f, undefined, [], types, {}), untested: "a required message field: no second sample to tell its property by" });
      continue;
    }
    let others = [];
    for (const g of fields) if (g !== f && g.label === "required") others = others.concat(sampleOf(g, types).bytes);
    out.push(fieldFacts(a, f, empty, others, types, sampleOf(f, types, true)));
  }
}

// describe is the declaration of field f of m as the facts show it.
function describe(f, m, file, types) {
  const d = { ...f, message: m.fullName, syntax: file.syntax };
  const t = types.get(f.typeName);
  if (f.type === "message" && t && t.decl.mapEntry) {
    const [k, v] = t.decl.fields;
    d.map = { key: { ...k, label: "optional" }, value: { ...v, label: "optional" } };
  }
  const packable = !["string", "bytes", "message", "group"].includes(f.type);
  d.packedEncoding = f.label === "repeated" && packable && (f.packed === true || (f.packed === null && file.syntax === "proto3"));
  d.oneof = f.oneofIndex >= 0 && !f.proto3Optional ? m.oneofs[f.oneofIndex] : "";
  return d;
}

function fieldFacts(a, f, empty, req, types, sample) {
  const facts = {
    element: f.message + "." + f.name,
    kind: "field",
    number: f.number,
    type: f.map ? `map<${f.map.key.type}, ${f.map.value.type === "message" || f.map.value.type === "enum" ? f.map.value.typeName : f.map.value.type}>` : f.type === "message" || f.type === "enum" || f.type === "group" ? f.typeName : f.type,
    label: f.map ? "map" : f.label,
    syntax: f.syntax,
    oneof: f.oneof,
    proto3Optional: f.proto3Optional,
    jsonName: f.jsonName,
    packed: f.packedEncoding,
  };
  facts.defaultValue = defaultOf(f, types);
  facts.zero = zeroOf(f, types);
  const away = foreign(f, types);
  if (away) {
    facts.untested = away;
    return facts;
  }
  if (sample && !sample.bytes) return facts; // untested: the declaration only
  const s = sample || sampleOf(f, types);
  if (!s) {
    facts.error = "no sample for its type";
    return facts;
  }
  const bytes = Uint8Array.from([...req, ...s.bytes]);
  facts.sample = s.canon;
  let m;
  try {
    m = a.decode(bytes);
  } catch (e) {
    facts.error = "decoding the sample: " + errText(e);
    return facts;
  }
  let props = propOf(m, empty, f, types);
  if (props.length === 0 && !sample) {
    // the sample is the value the field reads unset (a bool declared
    // true): its second sample
    const s2 = sampleOf(f, types, true);
    if (s2 && s2.canon !== s.canon) {
      try {
        const bytes2 = Uint8Array.from([...req, ...s2.bytes]);
        const m2 = a.decode(bytes2);
        const p2 = propOf(m2, empty, f, types);
        if (p2.length === 1) {
          facts.sample = s2.canon;
          facts.prop = p2[0];
          return fieldRest(a, f, m2, empty, bytes2, facts, types, p2[0]);
        }
      } catch (e) {
        /* the first sample's finding stands */
      }
    }
  }
  if (props.length !== 1) {
    facts.error = props.length === 0 ? "no property holds the decoded sample" : "several properties changed: " + props.join(", ");
    return facts;
  }
  const prop = props[0];
  facts.prop = prop;
  return fieldRest(a, f, m, empty, bytes, facts, types, prop);
}

// fieldRest observes the rest of field f's facts, its sample decoded in m.
function fieldRest(a, f, m, empty, bytes, facts, types, prop) {
  const r = read(m, prop);
  facts.value = r.unset ? "unset" : canon(r.v, f, types);
  if (empty !== undefined && f.label !== "required") {
    const u = read(empty, prop);
    facts.unset = u.unset ? "unset" : canon(u.v, f, types);
  }
  try {
    const msg = types.get("." + f.message);
    const back = fieldsOf(a.encode(m), msg && msg.decl, types);
    const want = fieldsOf(bytes, msg && msg.decl, types);
    facts.wire = back.join(" ") === want.join(" ") ? "same" : `${hex(a.encode(m))} for ${hex(bytes)}`;
  } catch (e) {
    facts.wire = "encoding failed: " + errText(e);
  }
  if (a.toJSON) {
    try {
      const j = a.toJSON(m);
      const j0 = empty !== undefined ? a.toJSON(empty) : {};
      const keys = Object.keys(j || {}).filter((k) => JSON.stringify(j[k]) !== JSON.stringify((j0 || {})[k]));
      facts.jsonKeys = keys;
      if (a.fromJSON) {
        try {
          const m2 = a.fromJSON(JSON.parse(JSON.stringify(j)));
          const r2 = read(m2, prop);
          facts.jsonBack = r2.unset ? "unset" : canon(r2.v, f, types);
        } catch (e) {
          facts.jsonBack = "failed: " + errText(e);
        }
      }
    } catch (e) {
      facts.jsonKeys = ["failed: " + errText(e)];
    }
  }
  return facts;
}

// ---- observing one enum ----

// enumFacts observes enum e: for each value, the members of the generated
// enum object that stand for it (ts-proto and pbjs name them as the value,
// protoc-gen-es without the enum's prefix) and what the generated helpers
// (ts-proto's) make of it; for the enum, the members that stand for no
// value (ts-proto's UNRECOGNIZED).
function enumFacts(api, e, out) {
  const a = api.enum(e.fullName);
  if (!a) {
    out.push({ element: e.fullName, kind: "enum", error: "no generated code found for the enum" });
    return;
  }
  const E = a.object;
  const show = (x) => (x === undefined ? "undefined" : typeof x === "bigint" ? x + "n" : JSON.stringify(x));
  const call = (fn, x) => {
    try {
      return show(fn(x));
    } catch (err) {
      return "failed: " + errText(err);
    }
  };
  const members = Object.keys(E).filter((k) => !/^-?\d+$/.test(k));
  const standsFor = (k, v) => E[k] === v.number || E[k] === v.name;
  // every member, with what the helpers make of it: the checker tells the
  // values' members from those the generator adds
  const all = members.map((k) => {
    const x = E[k];
    const m = { key: k, value: show(x) };
    if (a.toJSON) m.toJSON = call(a.toJSON, x);
    if (a.toNumber) m.toNumber = call(a.toNumber, x);
    if (a.fromJSON && a.toJSON) m.jsonBack = call((y) => a.fromJSON(a.toJSON(y)), x);
    if (a.fromJSON && a.toNumber) m.numberBack = call((y) => a.fromJSON(a.toNumber(y)), x);
    return m;
  });
  out.push({ element: e.fullName, kind: "enum", values: e.values.map((v) => v.name), members: all });
  for (const v of e.values) {
    const keys = members.filter((k) => standsFor(k, v));
    const f = { element: e.fullName + "." + v.name, kind: "enum-value", number: v.number, aliases: e.values.filter((w) => w.number === v.number).map((w) => w.name), keys };
    f.shown = keys.map((k) => show(E[k]));
    f.byNumber = show(E[v.number]);
    const m = keys.length > 0 ? E[keys[0]] : undefined;
    if (a.fromJSON) {
      f.fromName = call(a.fromJSON, v.name);
      f.fromNumber = call(a.fromJSON, v.number);
    }
    if (a.toJSON && keys.length > 0) f.toJSON = call(a.toJSON, m);
    if (a.toNumber && keys.length > 0) f.toNumber = call(a.toNumber, m);
    out.push(f);
  }
}

// ---- the probe ----

// probe loads entry, the generated module of the input file (its path in
// files), and returns the facts of every message and enum the input
// declares, in declaration order, a header first.
function probe({ generator, options, release, files, entry, descriptors, input, runtime, ts }) {
  const types = index(descriptors);
  const file = descriptors.find((f) => f.name === input);
  const out = [{ element: "", kind: "probe", generator, release, options, module: entry }];
  if (!file) {
    out[0].error = `no descriptor of ${input}`;
    return out;
  }
  let exp;
  const loader = new Loader(files, runtime, ts);
  try {
    exp = loader.load(entry);
  } catch (e) {
    if (loader.missing.length > 0) {
      // a generator run on one file of several: the code of the others
      // is not there to run with
      out[0].untested = `${entry} does not load without ${loader.missing.join(", ")}, which the output does not hold: ${errText(e)}`;
    } else out[0].error = `${entry} does not load: ${errText(e)}`;
    return out;
  }
  const api = apiOf(generator, exp, runtime, file.package);
  // the files whose generated code is there: pbjs writes every imported
  // file's types into the module, ts-proto and protoc-gen-es a module per
  // file
  present = (proto) => {
    // protoc-gen-es imports the well-known types from its runtime
    if (generator === "pbjs" || proto === input || (generator === "es" && proto.startsWith("google/protobuf/"))) return true;
    const stem = proto.replace(/\.proto$/, "");
    const mods = generator === "ts-proto" ? [stem + ".ts"] : [stem + "_pb.ts", stem + "_pb.js"];
    return mods.some((m) => files.has(m));
  };
  const walk = (m) => {
    if (m.mapEntry) return;
    messageFacts(api, m, file, types, out);
    m.enums.forEach((e) => enumFacts(api, e, out));
    m.messages.forEach(walk);
  };
  file.enums.forEach((e) => enumFacts(api, e, out));
  file.messages.forEach(walk);
  return out;
}

module.exports = { probe, fieldsOf, sampleOf, canon };
