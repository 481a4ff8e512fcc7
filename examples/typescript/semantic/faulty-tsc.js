#!/usr/bin/env node
// faulty-tsc.js: tsc with a fault of the kind real tsc releases had, for
// the fault demonstration of the semantic checkers. A persistent worker in
// Bazel's JSON protocol, as ../tsc-worker.js: one request per line, its
// arguments those of a tsc command line.
//
//   node faulty-tsc.js --fault=NAME
//
// The faults keep the output consistent with itself (a new member gets
// the treatment its siblings get); only running or type-checking it shows
// them:
//   declare-fields         a `declare` class field is emitted as a field,
//                          an own property of every instance
//   static-after-blocks    static fields written before a `static {}` block
//                          are initialised after it: the block reads
//                          undefined
//   enum-export-list       under CommonJS, an enum exported by an export
//                          list (`enum E {} export { E }`) is never
//                          assigned to exports.E
//   drop-optional-methods  optional methods (`m?(): T`) are left out of
//                          the declaration file
//   lose-undefined         `| undefined` is left out of the declared type
//                          of optional properties
"use strict";

const { ts, faultFlag, serve } = require("../faulty-worker.js");

const fault = faultFlag("faulty-tsc", ["declare-fields", "static-after-blocks", "enum-export-list", "drop-optional-methods", "lose-undefined"]);

const isStatic = (m) => (ts.getModifiers(m) || []).some((x) => x.kind === ts.SyntaxKind.StaticKeyword);

// before: faults of the JavaScript, on the source's syntax tree.
function before(context) {
  const f = context.factory;
  const visit = (node) => {
    if (fault === "declare-fields" && ts.isPropertyDeclaration(node) && (ts.getModifiers(node) || []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) {
      const mods = ts.getModifiers(node).filter((m) => m.kind !== ts.SyntaxKind.DeclareKeyword);
      return f.updatePropertyDeclaration(node, mods, node.name, node.questionToken || node.exclamationToken, node.type, node.initializer);
    }
    if (fault === "static-after-blocks" && ts.isClassDeclaration(node)) {
      const last = node.members.map((m, i) => (ts.isClassStaticBlockDeclaration(m) ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
      if (last >= 0) {
        const moved = node.members.filter((m, i) => i < last && ts.isPropertyDeclaration(m) && isStatic(m));
        const rest = node.members.filter((m) => !moved.includes(m));
        const at = rest.indexOf(node.members[last]) + 1;
        const members = [...rest.slice(0, at), ...moved, ...rest.slice(at)];
        return f.updateClassDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
      }
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitEachChild(file, visit, context);
}

// afterDeclarations: faults of the declaration file.
function afterDeclarations(context) {
  const f = context.factory;
  const visit = (node) => {
    if (fault === "drop-optional-methods" && (ts.isMethodSignature(node) || ts.isMethodDeclaration(node)) && node.questionToken) {
      return undefined;
    }
    if (fault === "lose-undefined" && (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && node.questionToken && node.type && ts.isUnionTypeNode(node.type)) {
      const kept = node.type.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword);
      if (kept.length < node.type.types.length) {
        const type = kept.length === 1 ? kept[0] : f.updateUnionTypeNode(node.type, f.createNodeArray(kept));
        return ts.isPropertySignature(node)
          ? f.updatePropertySignature(node, node.modifiers, node.name, node.questionToken, type)
          : f.updatePropertyDeclaration(node, node.modifiers, node.name, node.questionToken, type, node.initializer);
      }
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => (ts.isSourceFile(file) ? ts.visitEachChild(file, visit, context) : file);
}

// exportedByList are the enums of a source exported by an export list
// only.
function exportedByList(sf) {
  const listed = new Set();
  for (const s of sf.statements) {
    if (ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) listed.add((e.propertyName || e.name).text);
    }
  }
  return sf.statements.filter((s) => ts.isEnumDeclaration(s) && listed.has(s.name.text) && !(ts.getModifiers(s) || []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)).map((s) => s.name.text);
}

// enum-export-list edits the JavaScript as it is written: the enums of
// each source exported by a list lose their assignment to exports.
function emitWith(program) {
  const enums = new Map();
  for (const sf of program.getSourceFiles()) if (!sf.isDeclarationFile) enums.set(sf.fileName, exportedByList(sf));
  const writeFile = (name, text, bom, onError, sources) => {
    if (fault === "enum-export-list" && name.endsWith(".js") && sources) {
      for (const sf of sources) {
        for (const e of enums.get(sf.fileName) || []) text = text.split(`(exports.${e} = ${e} = {})`).join(`(${e} = {})`);
      }
    }
    ts.sys.writeFile(name, text, bom);
  };
  return { transformers: { before: [before], afterDeclarations: [afterDeclarations] }, writeFile };
}

serve("faulty-tsc", emitWith);
