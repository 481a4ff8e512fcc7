// worker.js: what the packs of the TypeScript-to-JavaScript transpilers
// (examples/esbuild, swc, babel, sucrase) share to run their transpiler,
// as a command or as a persistent worker.
//
// Each pack's transpile.js calls run() with how to load its transpiler and
// how to turn one TypeScript file into JavaScript. The program it makes
// takes the options of one run as arguments:
//
//   node transpile.js [KEY=VALUE…] INPUT.ts OUTDIR
//
// KEY is a path into the transpiler's own options (jsc.target,
// optimizeConstEnums, tsconfigRaw.compilerOptions.useDefineForClassFields),
// VALUE a JSON value (true, 3, ["typescript","imports"]) or else a string
// (es2022). The JavaScript goes to OUTDIR/NAME.js, NAME the input's name
// without its extension. Exit status 0: written; 1: the transpiler refused
// the input (a diagnostic of it, on standard error); 2: a mistake in the
// arguments or the options, or the transpiler failed otherwise.
//
//   node transpile.js --version        prints "NAME VERSION" of the transpiler
//   node transpile.js --persistent_worker
//
// serves the same command lines as a persistent worker (Bazel's protocol in
// its JSON form: one {"arguments": [...], "requestId": N} per line on
// standard input, one {"exitCode": N, "output": "...", "requestId": N} per
// line on standard output), the transpiler loaded once.
//
// The transpiler is the package a directory of NODE_PATH holds, when one
// does, else the one `npm ci` installed beside transpile.js: NODE_PATH
// points a pack at another release (mcpt bench --realbugs installs each
// release into a directory of its own and sets NODE_PATH to it).
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

// load requires the package name: from the first directory of NODE_PATH
// that holds it, else as node resolves it from dir (the pack's own
// node_modules). It returns the module and the directory it came from.
function load(name, dir) {
  for (const d of (process.env.NODE_PATH || "").split(path.delimiter)) {
    if (d === "") continue;
    const p = path.join(path.resolve(d), name);
    if (fs.existsSync(path.join(p, "package.json"))) return { module: require(p), dir: p };
  }
  const p = path.dirname(require.resolve(name + "/package.json", { paths: [dir] }));
  return { module: require(p), dir: p };
}

// version is the version in the package.json of the package at dir.
function version(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
}

// setOption sets the option at key (a dotted path) to value in options.
function setOption(options, key, value) {
  const parts = key.split(".");
  let o = options;
  for (const p of parts.slice(0, -1)) {
    if (typeof o[p] !== "object" || o[p] === null) o[p] = {};
    o = o[p];
  }
  let v = value;
  try {
    v = JSON.parse(value);
  } catch (e) {
    // a string
  }
  o[parts[parts.length - 1]] = v;
}

// UsageError is a mistake in a command line: exit status 2.
class UsageError extends Error {}

// parse reads one command line: the options over the pack's defaults, the
// input and the output directory.
function parse(args, defaults) {
  const options = defaults();
  const rest = [];
  for (const a of args) {
    const eq = a.indexOf("=");
    if (eq > 0 && !a.startsWith("-") && /^[A-Za-z_][\w.]*$/.test(a.slice(0, eq))) setOption(options, a.slice(0, eq), a.slice(eq + 1));
    else rest.push(a);
  }
  if (rest.length !== 2) throw new UsageError(`want [KEY=VALUE…] INPUT OUTDIR, got ${JSON.stringify(args)}`);
  return { options, input: rest[0], outdir: rest[1] };
}

// runOnce runs one command line and returns its exit status and what it
// says.
function runOnce(pack, tr, args) {
  let job;
  try {
    job = parse(args, pack.defaults);
  } catch (e) {
    return { exitCode: 2, output: `${pack.name}: ${e.message}\n` };
  }
  let src;
  try {
    src = fs.readFileSync(job.input, "utf8");
  } catch (e) {
    return { exitCode: 2, output: `${pack.name}: ${e.message}\n` };
  }
  const name = path.basename(job.input).replace(/\.[cm]?tsx?$/, "");
  let code;
  try {
    code = pack.transpile(tr.module, src, path.resolve(job.input), job.options, tr.version);
  } catch (e) {
    // a Rust transpiler's error ends with a stack of its own frames
    const msg = String((e && (e.message || e)) || "failed").replace(/\n+Stack backtrace:[\s\S]*$/, "");
    return { exitCode: pack.refuses(e) ? 1 : 2, output: `${pack.name} ${tr.version}: ${msg}\n` };
  }
  try {
    fs.mkdirSync(job.outdir, { recursive: true });
    fs.writeFileSync(path.join(job.outdir, name + ".js"), code);
  } catch (e) {
    return { exitCode: 2, output: `${pack.name}: ${e.message}\n` };
  }
  return { exitCode: 0, output: "" };
}

// serve answers the requests of standard input in order, one at a time.
function serve(pack, tr) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`${pack.name}: bad request: ${e.message}\n`);
      process.exit(2);
    }
    const res = runOnce(pack, tr, Array.isArray(req.arguments) ? req.arguments : []);
    process.stdout.write(JSON.stringify({ exitCode: res.exitCode, output: res.output, requestId: req.requestId || 0 }) + "\n");
  });
}

// run is the program of a pack's transpile.js. pack holds:
//   name                   the transpiler's name
//   packages               the npm packages to load, the transpiler first (its
//                          version is the release)
//   dir                    the directory of transpile.js
//   defaults()             the options every run starts from
//   transpile(ms, src, file, options, version)
//                          the JavaScript of src (file is its absolute path), ms the
//                          packages' modules
//   refuses(err)           whether what transpile threw is a diagnostic of the input
function run(pack) {
  const args = process.argv.slice(2);
  let tr;
  try {
    const ls = pack.packages.map((p) => load(p, pack.dir));
    tr = { module: ls.map((l) => l.module), version: version(ls[0].dir) };
  } catch (e) {
    process.stderr.write(`${pack.name}: cannot load ${pack.packages.join(", ")} (npm ci in ${pack.dir}, or NODE_PATH): ${e.message}\n`);
    process.exit(2);
  }
  if (args.length === 1 && args[0] === "--version") {
    process.stdout.write(`${pack.name} ${tr.version}\n`);
    return;
  }
  if (args.length === 1 && args[0] === "--persistent_worker") {
    serve(pack, tr);
    return;
  }
  const res = runOnce(pack, tr, args);
  process.stderr.write(res.output);
  process.exitCode = res.exitCode;
}

module.exports = { run, load, version };
