import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { toServerSettings, configGlobsOf } from '../src/settings';
import { builtinConfigGlobs, serverSettings } from '../src/settingsTable';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('unset settings send nothing', () => {
  assert.deepEqual(toServerSettings(from({})), {});
  assert.deepEqual(toServerSettings(from({ deepspeedVersion: ' ', worldSize: null, select: null })), {});
});

test('every server setting of the table is sent under its key, as written', () => {
  const values: Record<string, unknown> = {
    deepspeedVersion: ' 0.16.4 ',
    torchVersion: '2.5.1',
    worldSize: 8,
    launcher: 'accelerate',
    perFileLauncher: { 'configs/hf/*.json': 'hf' },
    torchCompile: false,
    select: ['overlap-comm-race', 'log-*'],
    ignore: ['default-changed'],
    rules: { 'overlap-comm-race': 'error', 'unknown-key': 'off' },
    configGlobs: ['train/*.json'],
  };
  assert.deepEqual(
    serverSettings.map((s) => s.key),
    Object.keys(values),
  );
  assert.deepEqual(toServerSettings(from(values)), { ...values, deepspeedVersion: '0.16.4' });
});

test('wrong values reach the server, which names what is wrong with them', () => {
  const s = toServerSettings(from({ worldSize: 0, launcher: 'slurm', rules: { a: 'fatal' } }));
  assert.deepEqual(s, { worldSize: 0, launcher: 'slurm', rules: { a: 'fatal' } });
});

test('config globs add to the built-in ones', () => {
  assert.deepEqual(configGlobsOf({}), [...builtinConfigGlobs]);
  assert.deepEqual(configGlobsOf({ configGlobs: ['', 7, 'x.json'] }), [...builtinConfigGlobs, 'x.json']);
  assert.ok(builtinConfigGlobs.includes('*_zero[0-9]*.json'));
});
