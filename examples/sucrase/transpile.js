#!/usr/bin/env node
// transpile.js: sucrase's transform of one TypeScript file, as a command
// or a persistent worker (../ts2js/worker.js says how both are run). The
// options are those of sucrase's transform (transforms,
// keepUnusedImports, disableESTransforms, …) over the default transforms
// ["typescript"]: ES module output.
"use strict";

require("../ts2js/worker.js").run({
  name: "sucrase",
  packages: ["sucrase"],
  dir: __dirname,
  defaults: () => ({ transforms: ["typescript"] }),
  transpile([sucrase], src, file, options) {
    return sucrase.transform(src, { ...options, filePath: file }).code;
  },
  // sucrase reports an input it refuses with its place, "(LINE:COL)";
  // options it does not take without one.
  refuses: (e) => /\(\d+:\d+\)/.test(String(e && e.message)),
});
