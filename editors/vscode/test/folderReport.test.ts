import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { diagnoseFolderCommand, folderSummary, parseFolderResult } from '../src/folderReport';

// The shape dsls.diagnoseFolder answers with (tests/transcripts/diagnose_folder.test).
const serverResult = {
  folder: '/runs/each-rank-log',
  message: '1 job in /runs/each-rank-log.',
  errors: [],
  jobs: [
    {
      layout: 'deepspeed-each-rank-log',
      name: '20241206140012',
      ranks: [0, 1, 2, 3],
      localRanks: false,
      files: [{ path: '/runs/each-rank-log/20241206140012_rank2.log', role: 'log', rank: 2 }],
      report: {
        verdict: 'Initiating failure: "GPU out of memory" (`cuda-oom`) at line 13 of ..._rank2.log, rank 2.',
        findings: [
          {
            id: 'cuda-oom',
            title: 'GPU out of memory',
            initiating: true,
            initiatingRank: 2,
            collateralRanks: [0, 1, 3],
            evidence: [{ line: 13, text: 'torch.cuda.OutOfMemoryError: CUDA out of memory.', rank: 2, file: '/runs/each-rank-log/20241206140012_rank2.log' }],
            configKeys: ['train_micro_batch_size_per_gpu'],
          },
        ],
      },
      markdown: '# Job 20241206140012\n\n/runs/each-rank-log: one job of 4 rank files\n\n# Training log diagnosis\n',
    },
  ],
};

test('each job of the folder becomes a report with its own markdown and findings', () => {
  const r = parseFolderResult(serverResult);
  assert.equal(r.jobs.length, 1);
  const job = r.jobs[0];
  assert.equal(job.name, '20241206140012');
  assert.deepEqual(job.ranks, [0, 1, 2, 3]);
  assert.ok(job.result.markdown?.startsWith('# Job 20241206140012'));
  assert.equal(job.result.findings[0].initiatingRank, 2);
  assert.deepEqual(job.result.findings[0].collateralRanks, [0, 1, 3]);
  assert.equal(folderSummary(r), 'DeepSpeed: 1 job in /runs/each-rank-log: 20241206140012 (4 ranks)');
});

test('a folder without per-rank logs says why; malformed answers are reduced to what is usable', () => {
  const none = parseFolderResult({ folder: '/x', jobs: [], errors: [], message: 'No per-rank logs in /x.' });
  assert.equal(folderSummary(none), 'No per-rank logs in /x.');
  assert.deepEqual(parseFolderResult(null), { folder: '', message: '', jobs: [], errors: [] });
  const odd = parseFolderResult({ jobs: [7, null, { name: 3, ranks: ['a', 1], report: 'x' }], errors: [{ path: 'p', message: 'm' }, 2] });
  assert.equal(odd.jobs.length, 1);
  assert.deepEqual(odd.jobs[0].ranks, [1]);
  assert.deepEqual(odd.jobs[0].result.findings, []);
  assert.deepEqual(odd.errors, [{ path: 'p', message: 'm' }]);
});

test('the command is contributed, on folders in the explorer, and calls the server command', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const command = manifest.contributes.commands.find((c: { command: string }) => c.command === 'dsls.diagnoseRunFolder');
  assert.ok(command, 'dsls.diagnoseRunFolder is not contributed');
  assert.equal(`${command.category}: ${command.title}`, 'DeepSpeed: Diagnose Run Folder');
  const menu = manifest.contributes.menus['explorer/context'];
  assert.deepEqual(menu, [{ command: 'dsls.diagnoseRunFolder', when: 'explorerResourceIsFolder', group: 'dsls' }]);
  // The extension's command is not the server's: the language client registers that one itself.
  assert.equal(diagnoseFolderCommand, 'dsls.diagnoseFolder');
  assert.notEqual(command.command, diagnoseFolderCommand);
});
