#!/usr/bin/env node
// transpile.js: esbuild's transform of one TypeScript file, as a command
// or a persistent worker (../ts2js/worker.js says how both are run). The
// options are those of esbuild's transform API (target, format,
// tsconfigRaw.compilerOptions.useDefineForClassFields, …) over these
// defaults: the TypeScript loader, ES module output, target esnext, and a
// tsconfig that sets nothing (esbuild reads no tsconfig.json here: the
// transform API does not look for one).
"use strict";

require("../ts2js/worker.js").run({
  name: "esbuild",
  packages: ["esbuild"],
  dir: __dirname,
  defaults: () => ({ loader: "ts", format: "esm", target: "esnext", tsconfigRaw: { compilerOptions: {} } }),
  transpile([esbuild], src, file, options) {
    return esbuild.transformSync(src, { ...options, sourcefile: file }).code;
  },
  // A diagnostic of the input names its place; an unknown option or a
  // failure of esbuild's service does not.
  refuses: (e) => Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((m) => m.location),
});
