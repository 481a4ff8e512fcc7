#!/usr/bin/env node
// transpile.js: Babel's TypeScript plugin (@babel/plugin-transform-typescript,
// which @babel/preset-typescript applies to .ts files) on one TypeScript
// file, as a command or a persistent worker (../ts2js/worker.js says how
// both are run). The options are the plugin's (allowDeclareFields,
// onlyRemoveTypeImports, optimizeConstEnums, …), and Babel's own under
// core. (core.comments=false); no Babel configuration file is read, and
// no other plugin runs, so the output is the plugin's alone: ES module
// JavaScript of the target the input is written for. The release is the
// plugin's.
"use strict";

require("../ts2js/worker.js").run({
  name: "babel-plugin-transform-typescript",
  packages: ["@babel/plugin-transform-typescript", "@babel/core"],
  dir: __dirname,
  defaults: () => ({}),
  transpile([plugin, core], src, file, options) {
    const { core: own, ...pluginOptions } = options;
    return core.transformSync(src, {
      ...own,
      filename: file,
      configFile: false,
      babelrc: false,
      sourceType: "module",
      plugins: [[plugin.default || plugin, pluginOptions]],
    }).code;
  },
  // Babel reports an input it refuses (a syntax error, a construct the
  // plugin does not take under its options) with its place; an unknown
  // option without one.
  refuses: (e) => !!e && (e.code === "BABEL_PARSE_ERROR" || (e.loc !== undefined && e.loc !== null) || /\(\d+:\d+\)|\n\s*>\s*\d+ \|/.test(String(e.message))),
});
