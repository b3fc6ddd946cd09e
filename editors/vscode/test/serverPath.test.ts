import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { resolveServerPath, expandHome } from '../src/serverPath';

const base = {
  extensionPath: '/ext',
  pathEnv: ['/usr/local/bin', '/opt/dsls/bin'].join(path.delimiter),
  homeDir: '/home/u',
};

test('the setting wins, even when the file is missing', () => {
  const r = resolveServerPath({ ...base, configuredPath: '~/bin/dsls', isExecutable: () => true });
  assert.deepEqual(r, { command: '/home/u/bin/dsls', source: 'setting' });
  const missing = resolveServerPath({ ...base, configuredPath: '/nowhere/dsls', isExecutable: () => false });
  assert.deepEqual(missing, { command: '/nowhere/dsls', source: 'setting' });
});

test('the bundled copy comes before PATH', () => {
  const r = resolveServerPath({ ...base, configuredPath: '', isExecutable: (f) => f === '/ext/bin/dsls' || f === '/opt/dsls/bin/dsls' });
  assert.deepEqual(r, { command: '/ext/bin/dsls', source: 'bundled' });
});

test('PATH is searched in order', () => {
  const r = resolveServerPath({ ...base, configuredPath: undefined, isExecutable: (f) => f === '/opt/dsls/bin/dsls' });
  assert.deepEqual(r, { command: '/opt/dsls/bin/dsls', source: 'PATH' });
});

test('nothing found gives undefined', () => {
  assert.equal(resolveServerPath({ ...base, configuredPath: '  ', pathEnv: undefined, isExecutable: () => false }), undefined);
});

test('only a leading ~ is expanded', () => {
  assert.equal(expandHome('~', '/h'), '/h');
  assert.equal(expandHome('/a/~/b', '/h'), '/a/~/b');
});
