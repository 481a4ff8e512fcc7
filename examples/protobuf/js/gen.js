#!/usr/bin/env node
// gen.js: the transpiler under test of the Protocol Buffers configurations
// for JavaScript and TypeScript (../ts-proto, ../pbjs, ../es): one of the
// generators, run on one .proto file, then the probe (probe.js) on what it
// wrote.
//
//   node gen.js GENERATOR [KEY=VALUE…] INPUT.proto OUTDIR
//
// GENERATOR is ts-proto (protoc --ts_proto_out), es (protoc --es_out, from
// @bufbuild/protoc-gen-es) or pbjs (protobufjs's pbjs, -o OUTDIR/NAME.js).
// Each KEY=VALUE is an option of the generator: for ts-proto and es a
// plugin parameter (--ts_proto_opt=KEY=VALUE, --es_opt=KEY=VALUE); for
// pbjs target (static-module, the default, or json-module), wrap
// (commonjs, the default, es6, default) or a switch of pbjs set with
// true (keep-case=true, force-long=true, force-number=true), and dts=true
// to run pbts on the static module too. probe=false leaves the probe out.
//
// Imports are looked up beside the input, in the directories of
// PROTO_PATH (separated by colons), then in the pack's directory, as
// ../gen-go.sh does. The generated
// files go to OUTDIR as the generator names them; the probe's facts to
// OUTDIR/NAME.facts.jsonl, NAME the input's name without .proto. Exit
// status 0: written; 1: protoc or pbjs refused the input (its diagnostic
// on standard error); 2: anything else (a mistake in the arguments, the
// generator failing otherwise).
//
//   node gen.js GENERATOR --version            prints "PACKAGE VERSION"
//   node gen.js GENERATOR --persistent_worker
//
// serves the same command lines as a persistent worker (Bazel's protocol
// in its JSON form), the TypeScript compiler the probe needs loaded once.
//
// The generator and the runtime its code needs are those a directory of
// NODE_PATH holds, when one does, else those `npm ci` installed in the
// generator's directory (../ts-proto, ../es, ../pbjs): NODE_PATH points a
// configuration at another release (mcpt bench --realbugs installs each
// release into a directory of its own and sets NODE_PATH to it).
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const readline = require("readline");
const { execFileSync } = require("child_process");
const { readSet } = require("./descriptor.js");
const { probe } = require("./probe.js");

// What each generator is: the npm packages that may provide it (the first
// found is the generator, its version the release), the directory of the
// configuration whose node_modules `npm ci` fills, and how to find its
// program in the package.
const GENERATORS = {
  "ts-proto": { packages: ["ts-proto"], dir: "ts-proto", program: () => "protoc-gen-ts_proto" },
  es: { packages: ["@bufbuild/protoc-gen-es"], dir: "es", program: () => "bin/protoc-gen-es" },
  // protobufjs-cli from protobufjs 7 on; protobufjs 6 held the CLI itself
  pbjs: { packages: ["protobufjs-cli", "protobufjs"], dir: "pbjs", program: (tool) => "bin/" + tool },
};

const lookupDirs = (gen) => [
  ...(process.env.NODE_PATH || "").split(path.delimiter).filter((d) => d !== "").map((d) => path.resolve(d)),
  path.join(__dirname, "..", gen.dir, "node_modules"),
];

// runtimeOf requires a package as the generated code does: from NODE_PATH
// first, then from the configuration's node_modules.
function runtimeOf(gen) {
  const paths = lookupDirs(gen);
  return (spec) => require(require.resolve(spec, { paths }));
}

// generator finds the generator: the first directory of NODE_PATH (then
// the configuration's node_modules) that holds one of its packages with
// its program (protobufjs holds pbjs before 7 only).
function generator(name) {
  const gen = GENERATORS[name];
  if (!gen) throw new Error(`unknown generator ${JSON.stringify(name)}: want ts-proto, es or pbjs`);
  for (const d of lookupDirs(gen)) {
    for (const p of gen.packages) {
      const dir = path.join(d, p);
      if (!fs.existsSync(path.join(dir, "package.json")) || !fs.existsSync(path.join(dir, gen.program("pbjs")))) continue;
      const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
      return { name, gen, pkg: p, dir, version };
    }
  }
  throw new Error(`${gen.packages.join(" or ")} is not installed (npm ci in ${path.join(__dirname, "..", gen.dir)}, or NODE_PATH)`);
}

class Refused extends Error {}
class Usage extends Error {}

// parse reads KEY=VALUE… INPUT OUTDIR.
function parse(args) {
  if (args.length < 2) throw new Usage("want [KEY=VALUE…] INPUT OUTDIR");
  const options = {};
  for (const a of args.slice(0, -2)) {
    const i = a.indexOf("=");
    if (i <= 0) throw new Usage(`option ${JSON.stringify(a)} is not KEY=VALUE`);
    options[a.slice(0, i)] = a.slice(i + 1);
  }
  return { options, input: args[args.length - 2], outdir: args[args.length - 1] };
}

// includes are protoc's -I directories: the input's, PROTO_PATH's, then
// the pack's (../gen-go.sh's too), whose seeds the relations that refer to
// another file's types import.
function includes(input) {
  const dirs = [path.dirname(path.resolve(input))];
  for (const d of (process.env.PROTO_PATH || "").split(":")) if (d !== "") dirs.push(path.resolve(d));
  dirs.push(path.resolve(__dirname, ".."));
  return dirs;
}

// run runs a program; a non-zero exit is a refusal of the input when
// refusal says so, else a failure.
function run(prog, args, refusal) {
  try {
    execFileSync(prog, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
  } catch (e) {
    const msg = `${path.basename(prog)}: ${String(e.stderr || e.message).trim()}`;
    if (e.status !== null && refusal(e.status, String(e.stderr || ""))) throw new Refused(msg);
    throw new Error(msg);
  }
}

const protoc = () => process.env.PROTOC || "protoc";

// generate writes the generator's output for job into job.outdir and
// returns the path of the input's module in it; with descSet, protoc also
// writes the input's FileDescriptorSet (its imports included) there (the
// plugins: one protoc run instead of two).
function generate(g, job, descSet) {
  const input = path.resolve(job.input);
  const stem = path.basename(input).replace(/\.proto$/, "");
  const incs = includes(input);
  const { probe: _p, ...opts } = job.options;
  if (g.name === "pbjs") {
    const { target = "static-module", wrap = "commonjs", dts, ...flags } = opts;
    if (!["static-module", "json-module"].includes(target)) throw new Usage(`target ${target}: want static-module or json-module`);
    const args = ["-t", target, "-w", wrap];
    for (const [k, v] of Object.entries(flags)) {
      if (v !== "true") throw new Usage(`option ${k}=${v}: pbjs switches take true`);
      args.push("--" + k);
    }
    for (const d of incs) args.push("-p", d);
    const out = path.join(job.outdir, stem + ".js");
    args.push("-o", out, input);
    // pbjs exits 1 on a file it cannot parse or resolve, and on anything
    // else: a refusal when it names the input or says what of the
    // language it does not take (an enum alias before protobufjs 6.11)
    const refuses = (st, err) => st === 1 && (err.includes(path.basename(input)) || /^Error: (duplicate (id|name)|illegal |no such type)/m.test(err));
    run(process.execPath, [path.join(g.dir, g.gen.program("pbjs")), ...args], refuses);
    if (dts === "true") {
      if (target !== "static-module") throw new Usage("dts=true needs target=static-module");
      run(process.execPath, [path.join(g.dir, g.gen.program("pbts")), "-o", path.join(job.outdir, stem + ".d.ts"), out], () => false);
    }
    return stem + ".js";
  }
  const plugin = path.join(g.dir, g.gen.program());
  const args = incs.map((d) => "-I" + d);
  if (g.name === "ts-proto") {
    args.push(`--plugin=protoc-gen-ts_proto=${plugin}`, `--ts_proto_out=${job.outdir}`);
    for (const [k, v] of Object.entries(opts)) args.push(`--ts_proto_opt=${k}=${v}`);
  } else {
    args.push(`--plugin=protoc-gen-es=${plugin}`, `--es_out=${job.outdir}`);
    for (const [k, v] of Object.entries(opts)) args.push(`--es_opt=${k}=${v}`);
  }
  if (descSet) args.push("--include_imports", `--descriptor_set_out=${descSet}`);
  args.push(input);
  // protoc exits 1 when it refuses the input, and when a plugin fails
  run(protoc(), args, (st, err) => st === 1 && !/--\w+_out: protoc-gen-\w+: Plugin (failed|killed)/.test(err));
  if (g.name === "ts-proto") return stem + ".ts";
  return fs.existsSync(path.join(job.outdir, stem + "_pb.ts")) ? stem + "_pb.ts" : stem + "_pb.js";
}

// descriptorsOf reads the FileDescriptorSet of the input, its imports
// included: the one protoc wrote in set (the plugins' run) or, when it
// wrote none (pbjs runs without protoc), the one it writes there now.
function descriptorsOf(input, set) {
  if (!fs.existsSync(set)) {
    const abs = path.resolve(input);
    run(protoc(), [...includes(abs).map((d) => "-I" + d), "--include_imports", `--descriptor_set_out=${set}`, abs], (st) => st === 1);
  }
  return readSet(fs.readFileSync(set));
}

// filesOf reads the output tree: relative slash-separated path → text.
function filesOf(dir) {
  const files = new Map();
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name), r = rel ? rel + "/" + e.name : e.name;
      if (e.isDirectory()) walk(p, r);
      else if (e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name)) files.set(r, fs.readFileSync(p, "utf8"));
    }
  };
  walk(dir, "");
  return files;
}

// typescript loads the TypeScript compiler the probe compiles with, once.
let tsModule;
function typescript(gen) {
  if (tsModule === undefined) {
    try {
      tsModule = runtimeOf(gen)("typescript");
    } catch (e) {
      tsModule = null;
    }
  }
  return tsModule;
}

function once(g, args) {
  let job;
  try {
    job = parse(args);
  } catch (e) {
    return { exitCode: 2, output: `gen.js: ${e.message}\n` };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mcpt-protojs-"));
  try {
    fs.mkdirSync(job.outdir, { recursive: true });
    const set = path.join(tmp, "set.pb");
    const probing = job.options.probe !== "false";
    const entry = generate(g, job, probing && g.name !== "pbjs" ? set : "");
    if (probing) {
      const rt = runtimeOf(g.gen);
      if (g.name === "pbjs") {
        // the static code registers its types in protobufjs's roots; a
        // fresh registry for each run
        try {
          rt("protobufjs/minimal").roots = {};
        } catch (e) {
          /* the probe reports a module that does not load */
        }
      }
      const stem = path.basename(job.input).replace(/\.proto$/, "");
      const facts = probe({
        generator: g.name,
        options: job.options,
        release: g.version,
        files: filesOf(job.outdir),
        entry,
        descriptors: descriptorsOf(job.input, set),
        input: path.basename(job.input),
        runtime: rt,
        ts: typescript(g.gen),
      });
      fs.writeFileSync(path.join(job.outdir, stem + ".facts.jsonl"), facts.map((f) => JSON.stringify(f)).join("\n") + "\n");
    }
    return { exitCode: 0, output: "" };
  } catch (e) {
    const code = e instanceof Refused ? 1 : 2;
    return { exitCode: code, output: `${e instanceof Refused ? "" : "gen.js: "}${e.message}\n` };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function serve(g) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`gen.js: bad request: ${e.message}\n`);
      process.exit(2);
    }
    const res = once(g, Array.isArray(req.arguments) ? req.arguments : []);
    process.stdout.write(JSON.stringify({ exitCode: res.exitCode, output: res.output, requestId: req.requestId || 0 }) + "\n");
  });
}

function main() {
  const [name, ...args] = process.argv.slice(2);
  let g;
  try {
    g = generator(name);
  } catch (e) {
    process.stderr.write(`gen.js: ${e.message}\n`);
    process.exit(2);
  }
  if (args.length === 1 && args[0] === "--version") {
    process.stdout.write(`${g.pkg} ${g.version}\n`);
    return;
  }
  if (args.length === 1 && args[0] === "--persistent_worker") {
    serve(g);
    return;
  }
  const res = once(g, args);
  process.stderr.write(res.output);
  process.exitCode = res.exitCode;
}

main();
