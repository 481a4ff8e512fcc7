#!/usr/bin/env node
// transpile.js: esbuild's transform of one TypeScript file, as a command
// or a persistent worker (../ts2js/worker.js says how both are run). The
// options are those of esbuild's transform API (target, format,
// tsconfigRaw.compilerOptions.useDefineForClassFields, …) over these
// defaults: the TypeScript loader, ES module output, target esnext, a
// tsconfig that sets nothing (esbuild reads no tsconfig.json here: the
// transform API does not look for one), and keepNames: without it,
// esbuild may rename a class or function where it lowers it (class _A
// for a class A with a static block), which it documents, and which the
// relations, which compare names at run time, would take for a fault.
"use strict";

require("../ts2js/worker.js").run({
  name: "esbuild",
  packages: ["esbuild"],
  dir: __dirname,
  defaults: () => ({ loader: "ts", format: "esm", target: "esnext", keepNames: true, tsconfigRaw: { compilerOptions: {} } }),
  transpile([esbuild], src, file, options) {
    return esbuild.transformSync(src, { ...options, sourcefile: file }).code;
  },
  // A diagnostic of the input names its place; an unknown option or a
  // failure of esbuild's service does not.
  refuses: (e) => Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((m) => m.location),
});
