import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildDocumentSelector, globToDocumentPattern } from '../src/selector';

test('a bare file-name glob matches in every folder', () => {
  assert.equal(globToDocumentPattern('ds_z*.json'), '**/ds_z*.json');
  assert.equal(globToDocumentPattern(' configs/*.json '), 'configs/*.json');
  assert.equal(globToDocumentPattern('**/zero*.json'), '**/zero*.json');
});

test('with content detection every JSON document goes to the server', () => {
  const filters = buildDocumentSelector(['*ds_config*.json'], true);
  assert.ok(filters.some((f) => f.scheme === 'file' && f.language === 'json' && f.pattern === undefined));
  assert.ok(filters.some((f) => f.scheme === 'untitled' && f.language === 'jsonc' && f.pattern === undefined));
  assert.ok(!filters.some((f) => f.pattern === '**/*ds_config*.json'));
  assert.ok(filters.some((f) => f.scheme === 'file' && f.language === 'python'));
  assert.ok(filters.some((f) => f.scheme === 'file' && f.language === 'shellscript'));
  assert.ok(filters.some((f) => f.scheme === 'file' && f.language === 'yaml'));
});

test('without content detection only the globs select JSON documents', () => {
  const filters = buildDocumentSelector(['*ds_config*.json', '', 'zero*.json'], false);
  const json = filters.filter((f) => f.language === 'json' || f.language === 'jsonc');
  assert.ok(json.length > 0);
  assert.ok(json.every((f) => f.pattern === '**/*ds_config*.json' || f.pattern === '**/zero*.json'));
});

test('logs are selected by language and .txt files by pattern', () => {
  const filters = buildDocumentSelector([], false);
  assert.ok(filters.some((f) => f.language === 'log' && f.scheme === 'file'));
  assert.ok(filters.some((f) => f.language === 'plaintext' && f.pattern === '**/*.txt'));
  assert.ok(!filters.some((f) => f.language === 'json'));
  assert.ok(!filters.some((f) => f.language === 'python'));
  assert.ok(!filters.some((f) => f.language === 'shellscript'));
  assert.ok(!filters.some((f) => f.language === 'yaml'));
});
