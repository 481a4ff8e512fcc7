#!/usr/bin/env node
// tsc-worker.js: the TypeScript compiler as a persistent worker.
//
// It speaks Bazel's persistent worker protocol in its JSON form: one
// WorkRequest per line on standard input,
//   {"arguments": ["--declaration", "--outDir", "out", "in.ts"], "requestId": 1}
// and one WorkResponse per line on standard output,
//   {"exitCode": 0, "output": "…diagnostics…", "requestId": 1}
// The arguments of a request are those of one `tsc` command line; the
// outputs and the exit code are the ones that command would give (0, 1 when
// diagnostics kept the outputs from being written, 2 when outputs were
// written despite diagnostics). What makes it faster than `tsc` per run:
// node and the compiler are loaded once, and the parsed library files
// (lib.es2022.d.ts, …), which never change, are kept between requests.
//
// `node tsc-worker.js [flags] -- ARGS` compiles once, as `tsc ARGS` would, and
// exits with tsc's exit code (the fault demonstration run as a command).
//
// The compiler is the TypeScript package installed beside this file (`npm
// ci`), or the one MCPT_TYPESCRIPT names: the package's directory
// (…/node_modules/typescript) or a directory holding node_modules/typescript,
// relative to the working directory. Any release from 3.5 on serves.
//
// Flags of the worker itself:
//   --version            print the compiler's release as `tsc --version`
//                        does (`Version 5.9.3`) and exit.
//   --sort-enum-members  a fault, for the pack's fault demonstration: the
//                        declaration output lists the members of a numeric
//                        enum by value instead of in declaration order
//                        (TypeScript 5 and later).
"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

const argv = process.argv.slice(2);
const dashes = argv.indexOf("--");
const flags = dashes < 0 ? argv : argv.slice(0, dashes);
const sortEnumMembers = flags.includes("--sort-enum-members");
for (const a of flags) {
  if (a !== "--sort-enum-members" && a !== "--version") {
    process.stderr.write(`tsc-worker: unknown flag ${a}\n`);
    process.exit(2);
  }
}

// loadTypeScript loads the compiler: MCPT_TYPESCRIPT's, else the one npm
// installed here.
function loadTypeScript() {
  const want = process.env.MCPT_TYPESCRIPT;
  if (!want) return require("typescript");
  const dir = path.resolve(want);
  for (const p of [dir, path.join(dir, "node_modules", "typescript")]) {
    let pkg;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8"));
    } catch (e) {
      continue;
    }
    if (pkg.name === "typescript") return require(p);
  }
  process.stderr.write(`tsc-worker: MCPT_TYPESCRIPT=${want}: neither it nor its node_modules/typescript is the typescript package\n`);
  process.exit(2);
}

const ts = loadTypeScript();
if (flags.includes("--version")) {
  process.stdout.write(`Version ${ts.version}\n`);
  process.exit(0);
}
if (sortEnumMembers && Number(ts.versionMajorMinor.split(".")[0]) < 5) {
  process.stderr.write(`tsc-worker: --sort-enum-members needs TypeScript 5 or later, not ${ts.version}\n`);
  process.exit(2);
}

// Parsed library files, by file name and parse options, for as long as the
// compiler options stay the same.
let libCache = new Map();
let libCacheOptions = "";
const libDir = path.dirname(ts.getDefaultLibFilePath({}));

// cacheKey is what of the options the parsed library files depend on: all
// but where the outputs go.
function cacheKey(options) {
  const kept = Object.keys(options).filter((k) => !["outDir", "declarationDir", "outFile", "rootDir"].includes(k));
  return JSON.stringify(options, kept.sort());
}

// compile runs one tsc command line and returns its exit code and output.
function compile(args) {
  const out = [];
  const cmd = ts.parseCommandLine(args);
  const formatHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
    getNewLine: () => ts.sys.newLine,
  };
  const report = (diags) => {
    if (diags.length > 0) out.push(ts.formatDiagnostics(diags, formatHost));
  };
  if (cmd.errors.length > 0) {
    report(cmd.errors);
    return { exitCode: ts.ExitStatus.DiagnosticsPresent_OutputsSkipped, output: out.join("") };
  }
  if (cmd.fileNames.length === 0 || cmd.options.project || cmd.options.build || cmd.options.watch) {
    out.push("tsc-worker: give the input files on the command line (no project, build or watch mode)\n");
    return { exitCode: ts.ExitStatus.DiagnosticsPresent_OutputsSkipped, output: out.join("") };
  }
  const options = cmd.options;
  const key = cacheKey(options);
  if (key !== libCacheOptions) {
    libCache = new Map();
    libCacheOptions = key;
  }
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (path.dirname(path.resolve(fileName)) !== libDir) {
      return getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    }
    const k = fileName + "\0" + JSON.stringify(languageVersionOrOptions);
    let sf = libCache.get(k);
    if (sf === undefined) {
      sf = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (sf !== undefined) libCache.set(k, sf);
    }
    return sf;
  };
  const program = ts.createProgram({ rootNames: cmd.fileNames, options, host });
  const diags = emitAndDiagnose(program, options);
  report(ts.sortAndDeduplicateDiagnostics(diags.all));
  let exitCode = ts.ExitStatus.Success;
  if (diags.emitSkipped && diags.all.length > 0) exitCode = ts.ExitStatus.DiagnosticsPresent_OutputsSkipped;
  else if (diags.all.length > 0) exitCode = ts.ExitStatus.DiagnosticsPresent_OutputsGenerated;
  return { exitCode, output: out.join("") };
}

// emitAndDiagnose gathers diagnostics in the order tsc does, each group only
// when the one before found nothing, and emits.
function emitAndDiagnose(program, options) {
  const all = [...program.getConfigFileParsingDiagnostics()];
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === 0) {
    all.push(...program.getOptionsDiagnostics());
    all.push(...program.getGlobalDiagnostics());
    if (all.length === 0) all.push(...program.getSemanticDiagnostics());
  }
  const transformers = sortEnumMembers ? { afterDeclarations: [sortEnums] } : undefined;
  const emit = program.emit(undefined, undefined, undefined, undefined, transformers);
  all.push(...emit.diagnostics);
  return { all, emitSkipped: emit.emitSkipped };
}

// sortEnums is the fault of --sort-enum-members: in a declaration file, the
// members of every enum whose values are all numbers are sorted by value.
function sortEnums(context) {
  const value = (m) => {
    let e = m.initializer;
    let sign = 1;
    if (e && ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken) {
      sign = -1;
      e = e.operand;
    }
    return e && ts.isNumericLiteral(e) ? sign * Number(e.text) : undefined;
  };
  const visit = (node) => {
    if (ts.isEnumDeclaration(node) && node.members.every((m) => value(m) !== undefined)) {
      const sorted = [...node.members].sort((a, b) => value(a) - value(b));
      return context.factory.updateEnumDeclaration(node, node.modifiers, node.name, sorted);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => (ts.isSourceFile(file) ? ts.visitEachChild(file, visit, context) : file);
}

// serve answers the requests of standard input in order, one at a time.
function serve() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      process.stderr.write(`tsc-worker: bad request: ${e.message}\n`);
      process.exit(1);
    }
    const id = req.requestId || 0;
    let res;
    try {
      res = compile(Array.isArray(req.arguments) ? req.arguments.map(String) : []);
    } catch (e) {
      res = { exitCode: 3, output: `tsc-worker: ${e && e.stack ? e.stack : e}\n` };
    }
    process.stdout.write(JSON.stringify({ exitCode: res.exitCode, output: res.output, requestId: id }) + "\n");
  });
  rl.on("close", () => process.exit(0));
}

if (dashes < 0) {
  serve();
} else {
  // One compilation of the arguments after --, as a tsc command.
  const res = compile(argv.slice(dashes + 1));
  process.stderr.write(res.output);
  process.exitCode = res.exitCode;
}
