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

const { ts, faultFlag, serve } = require("./faulty-worker.js");

const fault = faultFlag("faulty-members", ["abstract-fields", "private-first", "drop-private-declaration", "hoist-export-assignment", "keep-type-imports"]);

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

serve("faulty-members", () => ({ transformers: { before: [before], after: [after], afterDeclarations: [afterDeclarations] } }));
