import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { toServerSettings, defaultConfigGlobs } from '../src/settings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

test('unset settings give only rules and the default globs', () => {
  assert.deepEqual(toServerSettings(from({})), { rules: {}, configGlobs: [...defaultConfigGlobs] });
});

test('all settings map to the server keys', () => {
  const s = toServerSettings(
    from({
      deepspeedVersion: ' 0.16.4 ',
      torchVersion: '2.5.1',
      worldSize: 8,
      launcher: 'Accelerate',
      rules: { 'overlap-comm-race': 'error', 'unknown-key': 'off' },
      configGlobs: ['train/*.json', 'my_ds.json'],
    }),
  );
  assert.deepEqual(s, {
    deepspeedVersion: '0.16.4',
    torchVersion: '2.5.1',
    worldSize: 8,
    launcher: 'accelerate',
    rules: { 'overlap-comm-race': 'error', 'unknown-key': 'off' },
    configGlobs: ['train/*.json', 'my_ds.json'],
  });
});

test('invalid values are dropped instead of sent', () => {
  const s = toServerSettings(
    from({
      deepspeedVersion: '',
      worldSize: 0,
      launcher: 'slurm',
      rules: { a: 'fatal', b: 3, c: 'info', d: 'HINT' },
      configGlobs: ['', 7, 'x.json'],
    }),
  );
  assert.equal(s.deepspeedVersion, undefined);
  assert.equal(s.worldSize, undefined);
  assert.equal(s.launcher, undefined);
  assert.deepEqual(s.rules, { c: 'information', d: 'hint' });
  assert.deepEqual(s.configGlobs, ['x.json']);
});

test('a world size typed as text is accepted when it is a whole number', () => {
  assert.equal(toServerSettings(from({ worldSize: '16' })).worldSize, 16);
  assert.equal(toServerSettings(from({ worldSize: '1.5' })).worldSize, undefined);
  assert.equal(toServerSettings(from({ worldSize: 2.5 })).worldSize, undefined);
});

test('rules that are not an object are ignored', () => {
  assert.deepEqual(toServerSettings(from({ rules: ['error'] })).rules, {});
  assert.deepEqual(toServerSettings(from({ rules: null })).rules, {});
});
