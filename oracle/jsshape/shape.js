// shape.js: the node side of mcpt's js-shape checker, a persistent worker.
//
// One request per line on standard input, one response per line on
// standard output:
//   {"id":1,"files":{"a.js":"…"},"entries":["a.js"],"module":"auto","timeout":5000,"values":["3"]}
//   {"id":1,"modules":[{"file":"a.js","shape":{…}}],"values":[{"t":"number","v":"3"}]}
// Each request loads the entries of one output tree (the modules they
// import or require, from files only) in a fresh V8 context and answers
// with the runtime shape of each: its exports, and of each export its
// value, own properties with their descriptors in creation order, for a
// class its prototype members and the own properties of an instance made
// with no arguments. values are JavaScript literals of a prediction,
// evaluated in a context of their own and described alike.
//
// The modules are data, not trusted code. They run in a context that holds
// the ECMAScript built-ins and nothing of node's (no process, require,
// fetch, timers), with code generation from strings and WebAssembly off;
// no object of this side is handed to them; require and import resolve to
// the request's files only. Each load runs under a time limit. The process
// itself runs under node's permission model (no file system, no child
// process, no worker), with a bounded heap, and mcpt bounds its memory and
// the time of each request, replacing a process that dies or overruns.
"use strict";

const vm = require("vm");
const readline = require("readline");

// The code that runs inside each context: it keeps the built-ins it needs
// before any module runs, defines require, and describes values. Its
// completion value is its interface, an object of the context's own realm.
const prelude = new vm.Script(String.raw`(() => {
  "use strict";
  const G = globalThis;
  const O = Object, R = Reflect, S = String, A = Array;
  const J = { stringify: JSON.stringify }; // kept before any module can replace it
  const ownKeys = R.ownKeys, getDesc = O.getOwnPropertyDescriptor, getProto = O.getPrototypeOf;
  const isArray = A.isArray, push = (a, x) => { a[a.length] = x; };
  const fnToString = Function.prototype.toString;
  const call = (f, t, ...a) => R.apply(f, t, a);
  const symToString = Symbol.prototype.toString;
  const isNaN_ = Number.isNaN, is = O.is;
  const Err = Error;

  // The same module at the same time gives the same shape: Math.random
  // and the clock are fixed.
  let seed = 0x2545f491;
  Math.random = function random() {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const RealDate = Date, fixed = 946684800000;
  const FixedDate = function Date(...a) {
    if (!new.target) return new RealDate(fixed).toString();
    return a.length === 0 ? R.construct(RealDate, [fixed], new.target) : R.construct(RealDate, a, new.target);
  };
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = () => fixed;
  FixedDate.UTC = RealDate.UTC;
  FixedDate.parse = RealDate.parse;
  O.defineProperty(RealDate.prototype, "constructor", { value: FixedDate, writable: true, configurable: true });
  G.Date = FixedDate;
  const noop = () => {};
  G.console = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop, dir: noop };

  const errText = (e) => {
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function")) {
        const n = e.name, m = e.message;
        if (typeof n === "string" && typeof m === "string") return n + ": " + m;
      }
      return "threw " + describePrim(e);
    } catch (_) {
      return "threw a value that cannot be shown";
    }
  };
  const describePrim = (v) => {
    switch (typeof v) {
      case "string": return J.stringify(v);
      case "number": return is(v, -0) ? "-0" : S(v);
      case "bigint": return S(v) + "n";
      case "symbol": return call(symToString, v);
      case "undefined": return "undefined";
      case "boolean": return S(v);
    }
    return v === null ? "null" : typeof v;
  };

  // Modules: CommonJS wrappers compiled by the host (define), loaded by
  // require, which resolves a relative path to one of the files.
  const wrappers = O.create(null), cache = O.create(null);
  const resolve = (from, spec) => {
    if (typeof spec !== "string" || !(spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/"))) return null;
    const parts = spec.startsWith("/") ? [] : from.split("/").slice(0, -1);
    for (const p of spec.split("/")) {
      if (p === "" || p === ".") continue;
      if (p === "..") { if (parts.length === 0) return null; parts.pop(); continue; }
      push(parts, p);
    }
    const base = parts.join("/");
    for (const c of [base, base + ".js", base + ".cjs", base + "/index.js"]) {
      if (wrappers[c] !== undefined) return c;
    }
    return null;
  };
  const load = (path) => {
    const m = cache[path];
    if (m !== undefined) return m.exports;
    const module = { exports: {} };
    cache[path] = module;
    const req = function require(spec) {
      const to = resolve(path, spec);
      if (to === null) throw new Err("require(" + J.stringify(S(spec)) + ") refused: a module may require only the files of the output tree");
      return load(to);
    };
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    call(wrappers[path], module.exports, module.exports, req, module, "/" + path, "/" + dir);
    return module.exports;
  };

  // describe gives the shape of a value: its type, a primitive's value,
  // and an object's own properties (depth levels down).
  let budget = 0;
  const describe = (v, depth, seen) => {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) {
      return { t: v === null ? "null" : typeof v, v: describePrim(v) };
    }
    if (seen.includes(v)) return { t: typeof v === "function" ? "function" : "object", cycle: true };
    if (--budget < 0) return { t: "object", cut: true };
    const out = {};
    let proto = null;
    try { proto = getProto(v); } catch (_) {}
    if (typeof v === "function") {
      let src = "";
      try { src = call(fnToString, v); } catch (_) {}
      out.t = /^class\b/.test(src) ? "class" : "function";
      const n = getDesc(v, "name"), l = getDesc(v, "length");
      if (n && typeof n.value === "string") out.name = n.value;
      if (l && typeof l.value === "number") out.len = l.value;
    } else if (isArray(v)) {
      out.t = "array";
    } else {
      out.t = "object";
      try {
        const c = proto && getDesc(proto, "constructor");
        if (proto === null) out.cls = "null";
        else if (c && typeof c.value === "function" && c.value.name !== "Object") out.cls = S(c.value.name);
      } catch (_) {}
    }
    if (depth <= 0) { out.cut = true; return out; }
    const inner = [...seen, v];
    const skip = out.t === "class" || out.t === "function" ? ["length", "name", "prototype"] : out.t === "array" ? ["length"] : [];
    out.props = props(v, skip, depth, inner);
    if (out.t === "class" || (out.t === "function" && depth >= 2)) {
      const p = getDesc(v, "prototype");
      if (p && p.value !== null && typeof p.value === "object") {
        const pp = props(p.value, ["constructor"], depth, inner);
        if (out.t === "class" || pp.length > 0) out.proto = pp;
      }
    }
    if (out.t === "class" || (out.t === "function" && out.proto && out.proto.length > 0)) {
      let inst;
      try {
        inst = R.construct(v, []);
      } catch (e) {
        out.inst = { throws: errText(e) };
      }
      if (out.inst === undefined) out.inst = { props: inst !== null && typeof inst === "object" ? props(inst, [], depth, inner) : [] };
    }
    return out;
  };
  const keyText = (k) => (typeof k === "symbol" ? "@@" + call(symToString, k) : k);
  const props = (o, skip, depth, seen) => {
    const out = [];
    let keys;
    try { keys = ownKeys(o); } catch (e) { return [{ k: "(own keys)", v: { t: "error", v: errText(e) } }]; }
    for (const k of keys) {
      if (typeof k === "string" && skip.includes(k)) continue;
      if (--budget < 0) { push(out, { k: "(more)", v: { t: "object", cut: true } }); break; }
      let d;
      try { d = getDesc(o, k); } catch (e) { push(out, { k: keyText(k), v: { t: "error", v: errText(e) } }); continue; }
      if (d === undefined) continue;
      const p = { k: keyText(k), e: !!d.enumerable, c: !!d.configurable };
      if ("value" in d) {
        p.w = !!d.writable;
        p.v = describe(d.value, depth - 1, seen);
      } else {
        p.a = true;
        p.g = typeof d.get === "function";
        p.s = typeof d.set === "function";
      }
      push(out, p);
    }
    return out;
  };
  const shape = (exports, esm) => {
    budget = 20000;
    const out = [];
    let keys;
    try { keys = ownKeys(exports); } catch (e) { return J.stringify({ error: errText(e) }); }
    for (const k of keys) {
      if (typeof k !== "string") continue;
      if (!esm && k === "__esModule") continue;
      let v;
      try {
        const d = getDesc(exports, k);
        if (d === undefined) continue;
        // CommonJS output of ES modules (esbuild's, swc's, Babel's)
        // exports each binding as a getter: read it, as an importer does
        if (!esm && !("value" in d) && (typeof d.get !== "function" || d.set !== undefined)) { push(out, { k, v: { t: "accessor" } }); continue; }
        v = esm ? exports[k] : "value" in d ? d.value : call(d.get, exports);
      } catch (e) {
        push(out, { k, v: { t: "error", v: errText(e) } });
        continue;
      }
      push(out, { k, v: describe(v, 3, []) });
    }
    out.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    return J.stringify({ exports: out });
  };
  return {
    define(path, fn) { wrappers[path] = fn; },
    isCommonJS(path) { return wrappers[path] !== undefined; },
    error(msg) { return new Err(msg); },
    // run loads one CommonJS entry and describes its exports; an error
    // at load is the shape's.
    run(path) {
      let exports;
      try { exports = load(path); } catch (e) { return J.stringify({ error: errText(e) }); }
      return shape(exports, false);
    },
    shape(ns) { return shape(ns, true); },
    value(v) { budget = 1000; return J.stringify(describe(v, 3, [])); },
    errText,
  };
})()`, { filename: "mcpt-prelude.js" });

const TOOK = "did not finish within the time limit";

// context makes a fresh context with the prelude's interface under a name
// the host uses to call it with a time limit.
function context() {
  const ctx = vm.createContext({}, { codeGeneration: { strings: false, wasm: false }, microtaskMode: "afterEvaluate" });
  const api = prelude.runInContext(ctx);
  Object.defineProperty(ctx, "__mcpt", { value: api, enumerable: false });
  return { ctx, api };
}

// within runs code in the context under the time limit, returning what it
// returns or an error message.
function within(ctx, code, timeout) {
  try {
    return { value: new vm.Script(code).runInContext(ctx, { timeout, breakOnSigint: false }) };
  } catch (e) {
    const msg = e && e.code === "ERR_SCRIPT_EXECUTION_TIMEOUT" ? `${TOOK} (${timeout} ms)` : hostErr(e);
    return { error: msg };
  }
}

function hostErr(e) {
  try {
    return e && typeof e.message === "string" ? `${e.name}: ${e.message}` : String(e);
  } catch (_) {
    return "an error that cannot be shown";
  }
}

const esmSyntax = /^\s*(import\s*[\w*{"'$]|export\s*[\w*{$]|import\s*\.\s*meta\b)|\bimport\s*\.\s*meta\b|\bawait\b/m;

// kindOf says how a file is loaded: esm or commonjs.
function kindOf(file, src, mode) {
  if (mode === "esm" || mode === "commonjs") return mode;
  if (file.endsWith(".mjs")) return "esm";
  if (file.endsWith(".cjs")) return "commonjs";
  try {
    new vm.Script(`(function (exports, require, module, __filename, __dirname) {${src}\n})`, { filename: file });
    return "commonjs";
  } catch (e) {
    return e instanceof SyntaxError && esmSyntax.test(src) ? "esm" : "commonjs";
  }
}

function relResolve(from, spec, files) {
  if (typeof spec !== "string" || !(spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/"))) return null;
  const parts = spec.startsWith("/") ? [] : from.split("/").slice(0, -1);
  for (const p of spec.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (parts.length === 0) return null;
      parts.pop();
      continue;
    }
    parts.push(p);
  }
  const base = parts.join("/");
  for (const c of [base, base + ".js", base + ".mjs", base + "/index.js"]) {
    if (Object.prototype.hasOwnProperty.call(files, c)) return c;
  }
  return null;
}

// loadTree loads the entries of one output tree in a fresh context and
// describes each.
async function loadTree(req) {
  const files = req.files || {};
  const timeout = Math.max(1, req.timeout | 0) || 5000;
  const { ctx, api } = context();
  const kinds = {};
  for (const f of Object.keys(files)) {
    if (!/\.(c|m)?js$/.test(f)) continue;
    kinds[f] = kindOf(f, files[f], req.module);
    if (kinds[f] === "commonjs") {
      try {
        api.define(f, vm.compileFunction(files[f], ["exports", "require", "module", "__filename", "__dirname"], { parsingContext: ctx, filename: f }));
      } catch (e) {
        kinds[f] = { error: hostErr(e) };
      }
    }
  }
  const modules = new Map();
  // esm makes (once) the module of an ES file; a failure is thrown as an
  // error of this side, seen by this side only.
  const esm = (f) => {
    let m = modules.get(f);
    if (m === undefined) {
      m = new vm.SourceTextModule(files[f], {
        context: ctx,
        identifier: f,
        importModuleDynamically: (spec) => {
          const to = relResolve(f, spec, files);
          if (to === null || kinds[to] !== "esm") throw api.error(`import(${JSON.stringify(String(spec))}) refused: a module may import only the ES modules of the output tree`);
          return esm(to);
        },
      });
      modules.set(f, m);
    }
    return m;
  };
  const out = [];
  for (const f of req.entries || []) {
    if (!Object.prototype.hasOwnProperty.call(files, f)) {
      out.push({ file: f, error: "no such file in the output tree" });
      continue;
    }
    const kind = kinds[f];
    if (kind && kind.error) {
      out.push({ file: f, error: kind.error });
      continue;
    }
    if (kind === "commonjs") {
      const r = within(ctx, `__mcpt.run(${JSON.stringify(f)})`, timeout);
      out.push(r.error ? { file: f, error: r.error } : shapeOf(f, r.value));
      continue;
    }
    out.push(await loadESM(f, ctx, esm, files, kinds, timeout));
  }
  const values = (req.values || []).map((src) => {
    const r = within(context().ctx, `__mcpt.value((${src}\n))`, 1000);
    return r.error ? { t: "error", v: r.error } : JSON.parse(r.value);
  });
  return { modules: out, values };
}

function shapeOf(file, json) {
  const s = JSON.parse(json);
  return s.error !== undefined ? { file, error: s.error } : { file, shape: s };
}

async function loadESM(f, ctx, esm, files, kinds, timeout) {
  let m;
  try {
    m = esm(f);
    await m.link((spec, ref) => {
      const to = relResolve(ref.identifier, spec, files);
      if (to === null) throw new Error(`import of ${JSON.stringify(spec)} in ${ref.identifier} refused: a module may import only the files of the output tree`);
      if (kinds[to] !== "esm") throw new Error(`import of ${JSON.stringify(spec)} in ${ref.identifier}: ${to} is not an ES module`);
      return esm(to);
    });
  } catch (e) {
    return { file: f, error: hostErr(e) };
  }
  if (m.status === "linked") {
    let settled = null;
    m.evaluate({ timeout, breakOnSigint: false }).then(
      () => { settled = {}; },
      (e) => { settled = { error: e && e.code === "ERR_SCRIPT_EXECUTION_TIMEOUT" ? `${TOOK} (${timeout} ms)` : null }; },
    );
    // The context runs its promise jobs after a script of its own
    // (microtaskMode afterEvaluate), those of top-level await too; some
    // (a dynamic import's) settle on this side first: turn both until the
    // evaluation settles or its time is up.
    const end = Date.now() + timeout;
    for (let turn = 0; settled === null; turn++) {
      const left = Math.max(1, end - Date.now());
      const drained = within(ctx, "void 0", left);
      if (drained.error) {
        if (!drained.error.startsWith(TOOK)) return { file: f, error: drained.error };
        // The last few milliseconds of a module that awaits forever can
        // run out in a drain on a busy machine: that is no job of its own
        // that ran too long.
        const why = left < 100 && settled === null ? ": the module awaits what never comes" : "";
        return { file: f, error: `${TOOK} (${timeout} ms)${why}` };
      }
      // Soon at first; then without spinning.
      await new Promise((resolve) => (turn < 100 ? setImmediate(resolve) : setTimeout(resolve, 5)));
      if (settled === null && Date.now() >= end) return { file: f, error: `${TOOK} (${timeout} ms): the module awaits what never comes` };
    }
    if (settled.error) return { file: f, error: settled.error };
  }
  if (m.status === "errored") {
    ctx.__mcpt_err = m.error;
    const r = within(ctx, "__mcpt.errText(globalThis.__mcpt_err)", timeout);
    return { file: f, error: r.error || r.value };
  }
  if (m.status !== "evaluated") return { file: f, error: `${TOOK} (${timeout} ms): the module is still ${m.status}` };
  Object.defineProperty(ctx, "__mcpt_ns", { value: m.namespace, configurable: true });
  const r = within(ctx, "__mcpt.shape(globalThis.__mcpt_ns)", timeout);
  return r.error ? { file: f, error: r.error } : shapeOf(f, r.value);
}

// Requests are answered one at a time, in order.
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
rl.on("line", (line) => {
  if (line.trim() === "") return;
  queue = queue.then(async () => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`js-shape worker: bad request: ${e.message}\n`);
      process.exit(2);
    }
    let res;
    try {
      res = await loadTree(req);
    } catch (e) {
      res = { error: `js-shape worker: ${hostErr(e)}` };
    }
    res.id = req.id;
    process.stdout.write(JSON.stringify(res) + "\n");
  });
});
rl.on("close", () => {
  queue.then(() => process.exit(0));
});
