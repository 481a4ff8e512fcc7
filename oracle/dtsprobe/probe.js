// probe.js: the node side of mcpt's dts-probe checker, a persistent worker.
// Its first argument is the directory of the TypeScript package to use.
//
// One request per line on standard input, one response per line on
// standard output:
//   {"id":1,"module":"orders.d.ts","source":"…","decls":{"orders.d.ts":"…"},
//    "name":"zqnote","of":"Order","options":["--strict"]}
//   {"id":1,"probes":[{"text":"…","what":"…","source":"","decl":"TS2741: …"}]}
// For the new member (name, in the declaration of) the source declares,
// the worker writes probes, one statement a line, that use it as its
// declaration allows or forbids (left out, assigned, given undefined,
// called with fewer arguments or with ?.). It type-checks them against the
// source (the follow-up input, beside the other declaration files of the
// output) and against the emitted declaration file, in one program. Each
// probe says what each side said of it ("" when it compiles); where they
// disagree, the declaration file describes the member otherwise than its
// source. A probe that the worker cannot make or check is "undecided".
//
// Everything is in memory but TypeScript's library files: node runs under
// its permission model, allowed to read the TypeScript package only.
"use strict";

const path = require("path");
const fs = require("fs");
const readline = require("readline");

const tsDir = process.argv[1];
const ts = require(tsDir);
const libDir = path.dirname(ts.getDefaultLibFilePath({}));
const root = "/mcpt-probe";
const probeName = "__mcpt_probe.ts";

// The library files, parsed once per language version.
const libs = new Map();

function libFile(fileName, languageVersion) {
  const key = fileName + "\0" + JSON.stringify(languageVersion);
  let sf = libs.get(key);
  if (sf === undefined) {
    let text;
    try {
      text = fs.readFileSync(fileName, "utf8");
    } catch (_) {
      return undefined;
    }
    sf = ts.createSourceFile(fileName, text, languageVersion);
    libs.set(key, sf);
  }
  return sf;
}

// host is a compiler host over files (absolute virtual paths to text) and
// TypeScript's library directory.
function host(files, options) {
  const isLib = (f) => path.dirname(f) === libDir;
  const dirs = new Set();
  for (const f of Object.keys(files)) {
    for (let d = path.dirname(f); d !== "/" && !dirs.has(d); d = path.dirname(d)) dirs.add(d);
  }
  return {
    getSourceFile: (f, v) => {
      if (Object.prototype.hasOwnProperty.call(files, f)) return ts.createSourceFile(f, files[f], v, true);
      return isLib(f) ? libFile(f, v) : undefined;
    },
    getDefaultLibFileName: (o) => path.join(libDir, ts.getDefaultLibFileName(o)),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => root,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (f) => Object.prototype.hasOwnProperty.call(files, f) || (isLib(f) && fs.existsSync(f)),
    readFile: (f) => (Object.prototype.hasOwnProperty.call(files, f) ? files[f] : isLib(f) ? fs.readFileSync(f, "utf8") : undefined),
    directoryExists: (d) => dirs.has(d) || d === libDir,
    getDirectories: () => [],
    realpath: (f) => f,
  };
}

function message(d) {
  return `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
}

// moduleNames are the modules a file imports or exports from.
function moduleNames(f) {
  const out = [];
  const visit = (n) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) out.push(n.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression)) out.push(n.moduleReference.expression.text);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(f);
  return out;
}

// --- Finding the member in the source ---

const nameOf = (n) => (n && n.name && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name) || ts.isNumericLiteral(n.name) || ts.isPrivateIdentifier(n.name)) ? n.name.text : undefined);
const hasMod = (n, kind) => !!(ts.canHaveModifiers(n) && (ts.getModifiers(n) || []).some((m) => m.kind === kind));
// exported tells a declaration exported by its modifier or by an export
// list of its statements (`enum E {} export { E }`).
const exported = (n, list, name) =>
  hasMod(n, ts.SyntaxKind.ExportKeyword) ||
  list.some((s) => ts.isExportDeclaration(s) && !s.moduleSpecifier && !s.isTypeOnly && s.exportClause && ts.isNamedExports(s.exportClause) &&
    s.exportClause.elements.some((e) => !e.propertyName && e.name.text === name && !e.isTypeOnly));

// declaration finds the exported declaration a dotted path names among
// statements (a namespace's too), and the expression that reaches it
// from the probe (M.NS.Box).
function declaration(statements, dotted) {
  const parts = dotted.split(".");
  let list = statements;
  let expr = "M";
  for (let i = 0; i < parts.length; i++) {
    const found = list.find((s) => nameOf(s) === parts[i] || (ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => nameOf(d) === parts[i])));
    if (!found) return { why: `the source declares no ${parts.slice(0, i + 1).join(".")}` };
    if (!exported(found, list, parts[i])) return { why: `${parts.slice(0, i + 1).join(".")} is not exported: a consumer of the declaration file cannot use it` };
    expr += "." + parts[i];
    if (i === parts.length - 1) {
      const node = ts.isVariableStatement(found) ? found.declarationList.declarations.find((d) => nameOf(d) === parts[i]) : found;
      return { node, expr, constant: ts.isVariableStatement(found) && (found.declarationList.flags & ts.NodeFlags.Const) !== 0 };
    }
    if (!ts.isModuleDeclaration(found) || !found.body || !ts.isModuleBlock(found.body)) return { why: `${parts.slice(0, i + 1).join(".")} is no namespace` };
    list = found.body.statements;
  }
  return { why: "no name" };
}

const anOf = (of) => (/^[AEIOUaeiou]/.test(of) ? `an ${of}` : `a ${of}`);
const typeArgs = (n) => (n.typeParameters && n.typeParameters.length > 0 ? `<${n.typeParameters.map(() => "any").join(", ")}>` : "");
const key = (name) => JSON.stringify(name);
const access = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${key(name)}]`);

// The probes of a member of an object type: each a statement of one line
// and what it asks.
function propertyProbes(T, name, where, params) {
  const out = [];
  const v = `__mcpt_v<${T}>()`;
  out.push({ text: `${v}${access(name)};`, what: `${where} has ${name}` });
  out.push({ text: `{ const p: Pick<${T}, ${key(name)}> = {}; }`, what: `${name} may be left out of ${where} (it is optional)` });
  out.push({ text: `{ const p: Pick<${T}, ${key(name)}> = { ${key(name)}: undefined }; }`, what: `${name} of ${where} may be undefined` });
  out.push({ text: `{ const v = ${v}; v${access(name)} = v${access(name)}; }`, what: `${name} of ${where} may be assigned (it is not readonly)` });
  if (params) out.push(...callProbes(`${v}${access(name)}?.`, `${name} of ${where}`, params));
  return out;
}

// callProbes call a function with each number of arguments its source
// declares, and with undefined in each place: never (__mcpt_n) stands
// for any argument.
function callProbes(callee, what, params) {
  const out = [];
  if (params.some((p) => p.dotDotDotToken) || params.length > 8) return out;
  const args = (k, u) => Array.from({ length: k }, (_, i) => (i === u ? "undefined" : "__mcpt_n")).join(", ");
  for (let k = 0; k <= params.length; k++) out.push({ text: `${callee}(${args(k, -1)});`, what: `${what} may be called with ${k} argument${k === 1 ? "" : "s"}` });
  for (let i = 0; i < params.length; i++) out.push({ text: `${callee}(${args(params.length, i)});`, what: `${what} takes undefined for its parameter ${i + 1}` });
  return out;
}

// literal is the literal an initialiser writes (a number, maybe
// negative, a string, true or false), as a type; undefined for any other
// expression, whose value the probes do not ask.
function literal(e) {
  if (!e) return undefined;
  if (ts.isNumericLiteral(e)) return String(Number(e.text));
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand)) return `(-${Number(e.operand.text)})`;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return JSON.stringify(e.text);
  if (e.kind === ts.SyntaxKind.TrueKeyword) return "true";
  if (e.kind === ts.SyntaxKind.FalseKeyword) return "false";
  return undefined;
}

// enumValue is the value of an enum member as a literal type, computed
// as TypeScript does where the members before it are literals or have
// none (one more than the previous number, 0 first); undefined otherwise.
function enumValue(e, member) {
  let next = 0;
  for (const m of e.members) {
    let v;
    if (m.initializer) {
      v = literal(m.initializer);
      if (v === undefined || v === "true" || v === "false") next = undefined;
      else next = v.startsWith('"') ? undefined : Number(v.replace(/[()]/g, "")) + 1;
    } else if (next !== undefined) {
      v = next < 0 ? `(${next})` : String(next);
      next++;
    }
    if (m === member) return v;
  }
  return undefined;
}

// probes writes the probes of the member, or says why it cannot.
function probes(sourceFile, name, of) {
  if (!of) {
    const d = declaration(sourceFile.statements, name);
    if (d.why) return d;
    const n = d.node;
    const out = [{ text: ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) ? `{ type T = ${d.expr}${typeArgs(n)}; }` : `${d.expr};`, what: `the module exports ${name}` }];
    if (ts.isFunctionDeclaration(n)) out.push(...callProbes(d.expr, name, n.parameters));
    if (ts.isClassDeclaration(n) && !hasMod(n, ts.SyntaxKind.AbstractKeyword)) {
      const ctor = n.members.find(ts.isConstructorDeclaration);
      out.push(...callProbes(`new ${d.expr}`, `new ${name}`, ctor ? ctor.parameters : []));
    }
    if (ts.isVariableDeclaration(n) && d.constant && !n.type) {
      const lit = literal(n.initializer);
      if (lit !== undefined) out.push({ text: `{ const x: ${lit} = ${d.expr}; }`, what: `${name} is ${lit}` });
    }
    return { probes: out };
  }
  const d = declaration(sourceFile.statements, of);
  if (d.why) return d;
  const c = d.node;
  const params = (m) => (ts.isMethodSignature(m) || ts.isMethodDeclaration(m) ? m.parameters : m.type && ts.isFunctionTypeNode(m.type) ? m.type.parameters : undefined);
  if (ts.isEnumDeclaration(c)) {
    const m = c.members.find((x) => nameOf(x) === name);
    if (!m) return { why: `the enum ${of} has no member ${name} in the source` };
    const out = [{ text: `{ const e: ${d.expr} = ${d.expr}${access(name)}; }`, what: `${of} has the member ${name}` }];
    const v = enumValue(c, m);
    if (v !== undefined) out.push({ text: `{ const x: ${v} = ${d.expr}${access(name)}; }`, what: `${of}.${name} is ${v.replace(/[()]/g, "")}` });
    return { probes: out };
  }
  let members;
  if (ts.isInterfaceDeclaration(c)) members = c.members;
  else if (ts.isTypeAliasDeclaration(c) && ts.isTypeLiteralNode(c.type)) members = c.type.members;
  else if (ts.isClassDeclaration(c)) members = c.members;
  else return { why: `${of} is no interface, object type, class or enum` };
  const T = `${d.expr}${typeArgs(c)}`;
  // A private name's text has its # (the mutation names the member without it).
  const m = members.find((x) => (nameOf(x) === name || (x.name && ts.isPrivateIdentifier(x.name) && nameOf(x) === "#" + name)) && !ts.isConstructorDeclaration(x));
  if (m) {
    if (m.name && ts.isPrivateIdentifier(m.name)) return { why: `${name} is a private name: no consumer sees it` };
    const isStatic = ts.isClassDeclaration(c) && hasMod(m, ts.SyntaxKind.StaticKeyword);
    const where = isStatic ? `the class ${of}` : anOf(of);
    return { probes: propertyProbes(isStatic ? `typeof ${d.expr}` : T, name, where, params(m)) };
  }
  if (ts.isClassDeclaration(c)) {
    const ctor = c.members.find(ts.isConstructorDeclaration);
    const p = ctor && ctor.parameters.find((x) => nameOf(x) === name && ts.isParameterPropertyDeclaration(x, ctor));
    if (p) {
      const out = propertyProbes(T, name, anOf(of));
      if (!hasMod(c, ts.SyntaxKind.AbstractKeyword)) out.push(...callProbes(`new ${d.expr}`, `new ${of}`, ctor.parameters));
      return { probes: out };
    }
  }
  return { why: `${of} has no member ${name} in the source` };
}

// --- A request ---

// previous are the programs of the last requests, by the declaration
// file they probed, the most recent last (see run): at most keepPrograms.
const previous = new Map();
const keepPrograms = 8;

function run(req) {
  const parsed = ts.parseCommandLine(req.options || []);
  if (parsed.errors.length > 0) return { error: `options: ${parsed.errors.map(message).join("; ")}` };
  const options = { ...parsed.options, noEmit: true, types: [], skipLibCheck: true };
  const modPath = String(req.module || "");
  if (!modPath.endsWith(".d.ts")) return { undecided: `${modPath} is no declaration file` };
  const decls = req.decls || {};
  if (!Object.prototype.hasOwnProperty.call(decls, modPath)) return { undecided: `${modPath} is not in o′` };
  const stem = path.posix.basename(modPath).slice(0, -".d.ts".length);
  const source = String(req.source || "");

  // The two sides in one program, so that the library files are checked
  // once: the source beside the output's other declaration files under
  // src/, the declaration files under dcl/, each with the probe beside
  // the module.
  const side = (s, f) => path.posix.join(root, s, f);
  const files = {};
  for (const [f, text] of Object.entries(decls)) {
    if (f !== modPath) files[side("src", f)] = text;
    files[side("dcl", f)] = text;
  }
  const sourcePath = side("src", path.posix.join(path.posix.dirname(modPath), stem + ".ts"));
  files[sourcePath] = source;
  const made = probes(ts.createSourceFile(sourcePath, source, ts.ScriptTarget.Latest, true), String(req.name || ""), String(req.of || ""));
  if (made.why) return { undecided: made.why };
  const head = [`import * as M from ${JSON.stringify("./" + stem)};`, "declare function __mcpt_v<T>(): T;", "declare const __mcpt_n: never;"];
  const text = [...head, ...made.probes.map((p) => p.text)].join("\n") + "\n";
  const probePath = (s) => side(s, path.posix.join(path.posix.dirname(modPath), probeName));
  files[probePath("src")] = text;
  files[probePath("dcl")] = text;

  const h = host(files, options);
  // The last program that probed this declaration file lends its
  // structure: where the files import what they imported there (the
  // follow-ups of one seed), TypeScript keeps its library files and
  // their references as they were instead of finding them again, about a
  // quarter of a warm request. It checks what changed itself and starts
  // afresh when the options or the imports differ.
  const program = ts.createProgram({ rootNames: [probePath("src"), probePath("dcl")], options, host: h, oldProgram: previous.get(modPath) });
  previous.delete(modPath);
  previous.set(modPath, program);
  if (previous.size > keepPrograms) previous.delete(previous.keys().next().value);
  const byLine = (f) => {
    const sf = program.getSourceFile(f);
    const lines = new Map();
    for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      if (!lines.has(line)) lines.set(line, message(d));
    }
    return lines;
  };
  const src = byLine(probePath("src"));
  const dcl = byLine(probePath("dcl"));
  for (const f of program.getSourceFiles()) {
    if (f.fileName.startsWith(libDir)) continue;
    for (const spec of moduleNames(f)) {
      if (!ts.resolveModuleName(spec, f.fileName, options, h).resolvedModule) {
        const [s, ...rest] = path.posix.relative(root, f.fileName).split("/");
        return { undecided: `${s === "src" ? "against the source" : "against the declaration files"}: ${rest.join("/")}: cannot find module ${JSON.stringify(spec)}` };
      }
    }
  }
  for (let l = 0; l < head.length; l++) {
    if (src.has(l)) return { undecided: `the probe's head against the source: ${src.get(l)}` };
    if (dcl.has(l)) return { undecided: `the probe's head against ${modPath}: ${dcl.get(l)}` };
  }
  made.probes.forEach((p, i) => {
    p.source = src.get(head.length + i) || "";
    p.decl = dcl.get(head.length + i) || "";
  });
  // reused tells the tests that the program before lent its structure.
  const reused = ts.StructureIsReused !== undefined && program.structureIsReused === ts.StructureIsReused.Completely;
  return { probes: made.probes, probe: text, reused };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    process.stderr.write(`dts-probe worker: bad request: ${e.message}\n`);
    process.exit(2);
  }
  let res;
  try {
    res = run(req);
  } catch (e) {
    res = { error: `dts-probe worker: ${e && e.stack ? e.stack : e}` };
  }
  res.id = req.id;
  process.stdout.write(JSON.stringify(res) + "\n");
});
rl.on("close", () => process.exit(0));
