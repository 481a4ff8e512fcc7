// faulty-worker.js: what the pack's faulty compilers (faulty-members.js,
// semantic/faulty-tsc.js) share: tsc of this directory's node_modules, the
// --fault=NAME flag, a compilation with the fault's transformers, and the
// persistent worker's loop in Bazel's JSON protocol, as tsc-worker.js: one
// request per line, its arguments those of a tsc command line.
"use strict";

const readline = require("readline");
const path = require("path");
const ts = require(path.join(__dirname, "node_modules", "typescript"));

// faultFlag is the NAME of --fault=NAME, one of faults; any other ends
// the process with exit status 2 and the names it knows.
function faultFlag(name, faults) {
  const flag = process.argv.slice(2).find((a) => a.startsWith("--fault="));
  const fault = flag ? flag.slice("--fault=".length) : "";
  if (!faults.includes(fault)) {
    process.stderr.write(`${name}: --fault=NAME, one of ${faults.join(", ")}\n`);
    process.exit(2);
  }
  return fault;
}

// compile runs tsc's command line args as tsc does (exit status 1: no
// output for errors, 2: output with errors), with what emitWith(program)
// returns: the transformers of the emit and, optionally, its writeFile.
function compile(args, emitWith) {
  const cmd = ts.parseCommandLine(args);
  const host = { getCanonicalFileName: (x) => x, getCurrentDirectory: () => ts.sys.getCurrentDirectory(), getNewLine: () => "\n" };
  if (cmd.errors.length > 0) return { exitCode: 1, output: ts.formatDiagnostics(cmd.errors, host) };
  const program = ts.createProgram({ rootNames: cmd.fileNames, options: cmd.options });
  const diags = [...program.getSyntacticDiagnostics()];
  if (diags.length === 0) diags.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics());
  if (diags.length > 0 && cmd.options.noEmitOnError) {
    return { exitCode: 1, output: ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diags), host) };
  }
  const { transformers, writeFile } = emitWith(program);
  const emit = program.emit(undefined, writeFile, undefined, undefined, transformers);
  diags.push(...emit.diagnostics);
  const output = diags.length > 0 ? ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diags), host) : "";
  return { exitCode: emit.emitSkipped && diags.length > 0 ? 1 : diags.length > 0 ? 2 : 0, output };
}

// serve answers the requests of standard input until it ends; a
// compilation that throws answers exit status 3 with the error.
function serve(name, emitWith) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() === "") return;
    const req = JSON.parse(line);
    let res;
    try {
      res = compile((req.arguments || []).map(String), emitWith);
    } catch (e) {
      res = { exitCode: 3, output: `${name}: ${e && e.stack ? e.stack : e}\n` };
    }
    process.stdout.write(JSON.stringify({ exitCode: res.exitCode, output: res.output, requestId: req.requestId || 0 }) + "\n");
  });
  rl.on("close", () => process.exit(0));
}

module.exports = { ts, faultFlag, serve };
