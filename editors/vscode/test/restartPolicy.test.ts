import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RestartPolicy } from '../src/restartPolicy';

test('restarts up to the limit inside the window, then stops', () => {
  let now = 0;
  const policy = new RestartPolicy(3, 1000, () => now);
  assert.equal(policy.shouldRestart(), true);
  now = 100;
  assert.equal(policy.shouldRestart(), true);
  now = 200;
  assert.equal(policy.shouldRestart(), true);
  now = 300;
  assert.equal(policy.shouldRestart(), false);
});

test('old crashes fall out of the window', () => {
  let now = 0;
  const policy = new RestartPolicy(2, 1000, () => now);
  policy.shouldRestart();
  policy.shouldRestart();
  now = 5000;
  assert.equal(policy.shouldRestart(), true);
  assert.equal(policy.recentCrashes, 1);
});

test('reset forgets the crashes', () => {
  const policy = new RestartPolicy(1, 1000, () => 0);
  policy.shouldRestart();
  assert.equal(policy.shouldRestart(), false);
  policy.reset();
  assert.equal(policy.shouldRestart(), true);
});
