#!/usr/bin/env node
// transpile.js: swc's transform of one TypeScript file, as a command or a
// persistent worker (../ts2js/worker.js says how both are run). The
// options are those of @swc/core's transformSync (jsc.target, module.type,
// jsc.transform.useDefineForClassFields, …) over these defaults: the
// TypeScript parser, ES module output, and no .swcrc or other
// configuration file read.
"use strict";

require("../ts2js/worker.js").run({
  name: "swc",
  packages: ["@swc/core"],
  dir: __dirname,
  defaults: () => ({ jsc: { parser: { syntax: "typescript" } }, module: { type: "es6" }, swcrc: false, configFile: false }),
  transpile([swc], src, file, options) {
    return swc.transformSync(src, { ...options, filename: file }).code;
  },
  // swc reports an input it refuses with its place (" --> FILE:LINE:COL"
  // or a framed excerpt); options it cannot read, as a deserialization
  // failure.
  refuses: (e) => {
    const msg = String((e && e.message) || e);
    return !/Failed to deserialize|unknown field|unknown variant|invalid type/.test(msg) && /Syntax Error|-->|╭─\[/.test(msg);
  },
});
