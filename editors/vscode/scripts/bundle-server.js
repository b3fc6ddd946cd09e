#!/usr/bin/env node
// Copies a built dsls executable to bin/dsls so the packaged extension carries
// its own server. Usage: node scripts/bundle-server.js <path-to-dsls>
// (or DSLS_BINARY=<path>). Without an argument, removes a bundled copy.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const source = process.argv[2] || process.env.DSLS_BINARY || '';
const target = path.join(__dirname, '..', 'bin', 'dsls');

if (source === '') {
  fs.rmSync(target, { force: true });
  console.log('bundle-server: no server bundled; the extension will use dsls.path or PATH');
  process.exit(0);
}
if (!fs.statSync(source, { throwIfNoEntry: false })?.isFile()) {
  console.error(`bundle-server: ${source} is not a file`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(source, target);
fs.chmodSync(target, 0o755);
// Debug info is most of a RelWithDebInfo build and is no use in an extension.
const strip = spawnSync('strip', ['--strip-debug', target], { stdio: 'inherit' });
const stripped = strip.status === 0 ? ' (debug info stripped)' : '';
console.log(`bundle-server: copied ${source} to ${target}${stripped}`);
