#!/usr/bin/env node
// faulty-members.js: tsc (the release `npm ci` installed here) with one
// fault in how it writes private names, abstract members or `export =`,
// the constructs of add-private-member, add-abstract-member,
// add-export-assignment and add-imported-member. A persistent worker in Bazel's JSON protocol, as
// tsc-worker.js: one request per line, its arguments those of a tsc
// command line.
//
//   node faulty-members.js --fault=NAME
//
//   abstract-fields            an abstract property is written as a field
//                              (as tsc 3.7 to 4.1 did under
//                              useDefineForClassFields)
//   private-first              members with a private name are written
//                              first in the JavaScript class body
//   drop-private-declaration   the declared class lacks `#private;`
//   hoist-export-assignment    `module.exports = N;` is written before the
//                              statements, where N is not assigned yet
//   keep-type-imports          an import whose names only types use is
//                              kept in the JavaScript, as an import for
//                              its side effects (a require() of a module
//                              that may have no JavaScript)
"use strict";

const readline = require("readline");
const path = require("path");
const ts = require(path.join(__dirname, "node_modules", "typescript"));

const faults = ["abstract-fields", "private-first", "drop-private-declaration", "hoist-export-assignment", "keep-type-imports"];
const flag = process.argv.slice(2).find((a) => a.startsWith("--fault="));
const fault = flag ? flag.slice("--fault=".length) : "";
if (!faults.includes(fault)) {
  process.stderr.write(`faulty-members: --fault=NAME, one of ${faults.join(", ")}\n`);
  process.exit(2);
}

const hasModifier = (node, kind) => (ts.getModifiers(node) || []).some((m) => m.kind === kind);
const isPrivateNamed = (m) => m.name !== undefined && ts.isPrivateIdentifier(m.name);

// before: faults of the JavaScript, on the source's syntax tree.
function before(context) {
  const f = context.factory;
  const visit = (node) => {
    if (fault === "abstract-fields" && ts.isPropertyDeclaration(node) && hasModifier(node, ts.SyntaxKind.AbstractKeyword)) {
      const mods = ts.getModifiers(node).filter((m) => m.kind !== ts.SyntaxKind.AbstractKeyword);
      return f.updatePropertyDeclaration(node, mods, node.name, node.questionToken, node.type, undefined);
    }
    if (fault === "keep-type-imports" && ts.isImportDeclaration(node) && node.importClause) {
      return f.createImportDeclaration(undefined, undefined, node.moduleSpecifier);
    }
    if (fault === "private-first" && ts.isClassDeclaration(node) && node.members.some(isPrivateNamed)) {
      const members = [...node.members.filter(isPrivateNamed), ...node.members.filter((m) => !isPrivateNamed(m))];
      return ts.visitEachChild(f.updateClassDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members), visit, context);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitEachChild(file, visit, context);
}

// after: faults of the JavaScript once modules are written.
function after(context) {
  const f = context.factory;
  const isAssignment = (s) =>
    ts.isExpressionStatement(s) &&
    ts.isBinaryExpression(s.expression) &&
    s.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(s.expression.left) &&
    ts.isIdentifier(s.expression.left.expression) &&
    s.expression.left.expression.text === "module" &&
    s.expression.left.name.text === "exports";
  return (file) => {
    if (fault !== "hoist-export-assignment" || !file.statements.some(isAssignment)) return file;
    const hoisted = file.statements.filter(isAssignment);
    const rest = file.statements.filter((s) => !isAssignment(s));
    const prologue = rest.filter((s) => ts.isPrologueDirective(s)).length;
    return f.updateSourceFile(file, [...rest.slice(0, prologue), ...hoisted, ...rest.slice(prologue)]);
  };
}

// afterDeclarations: faults of the declaration file.
function afterDeclarations(context) {
  const visit = (node) => {
    if (fault === "drop-private-declaration" && ts.isPropertyDeclaration(node) && isPrivateNamed(node)) {
      return undefined;
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => (ts.isSourceFile(file) ? ts.visitEachChild(file, visit, context) : file);
}

function compile(args) {
  const cmd = ts.parseCommandLine(args);
  const host = { getCanonicalFileName: (x) => x, getCurrentDirectory: () => ts.sys.getCurrentDirectory(), getNewLine: () => "\n" };
  if (cmd.errors.length > 0) return { exitCode: 1, output: ts.formatDiagnostics(cmd.errors, host) };
  const program = ts.createProgram({ rootNames: cmd.fileNames, options: cmd.options });
  const diags = [...program.getSyntacticDiagnostics()];
  if (diags.length === 0) diags.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics());
  if (diags.length > 0 && cmd.options.noEmitOnError) {
    return { exitCode: 1, output: ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diags), host) };
  }
  const emit = program.emit(undefined, undefined, undefined, undefined, { before: [before], after: [after], afterDeclarations: [afterDeclarations] });
  diags.push(...emit.diagnostics);
  const output = diags.length > 0 ? ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diags), host) : "";
  return { exitCode: emit.emitSkipped && diags.length > 0 ? 1 : diags.length > 0 ? 2 : 0, output };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  const req = JSON.parse(line);
  let res;
  try {
    res = compile((req.arguments || []).map(String));
  } catch (e) {
    res = { exitCode: 3, output: `faulty-members: ${e && e.stack ? e.stack : e}\n` };
  }
  process.stdout.write(JSON.stringify({ exitCode: res.exitCode, output: res.output, requestId: req.requestId || 0 }) + "\n");
});
rl.on("close", () => process.exit(0));
