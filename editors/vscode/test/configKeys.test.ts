import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { locateKey } from '../src/configKeys';

const config = `{
  // comments are tolerated, as DeepSpeed's loader does
  "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {
    "stage": 2,
    "overlap_comm": true,
  }
}`;

test('an existing nested key is found at its name', () => {
  const loc = locateKey(config, 'zero_optimization.overlap_comm');
  assert.ok(loc);
  assert.equal(loc.exact, true);
  assert.equal(config.slice(loc.offset, loc.offset + loc.length), '"overlap_comm"');
});

test('a missing key falls back to its nearest parent', () => {
  const loc = locateKey(config, 'zero_optimization.contiguous_gradients');
  assert.ok(loc);
  assert.equal(loc.exact, false);
  assert.deepEqual(loc.foundPath, ['zero_optimization']);
  assert.equal(config.slice(loc.offset, loc.offset + loc.length), '"zero_optimization"');
});

test('nothing to point at gives undefined', () => {
  assert.equal(locateKey(config, 'bf16.enabled'), undefined);
  assert.equal(locateKey('[1, 2]', 'zero_optimization'), undefined);
  assert.equal(locateKey('', 'x'), undefined);
});

test('a truncated document still yields the parts that parsed', () => {
  const loc = locateKey('{"a": {', 'a.b');
  assert.ok(loc);
  assert.equal(loc.exact, false);
  assert.deepEqual(loc.foundPath, ['a']);
});
