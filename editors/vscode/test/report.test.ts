import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  configKeyLink,
  parseDiagnoseResult,
  renderFindings,
  renderReport,
  reportHtmlPage,
  relatedConfigKeys,
  escapeHtml,
} from '../src/report';

const finding = {
  id: 'nccl-timeout',
  title: 'Collective timed out after rank 3 stopped',
  initiatingRank: 3,
  collateralRanks: [0, 1, 2],
  evidence: [{ line: 12, text: 'Watchdog caught collective operation timeout', rank: 0 }],
  fix: 'Find why rank 3 stalled.',
  verify: 'Rerun with NCCL_DEBUG=INFO.',
  configKeys: ['zero_optimization.overlap_comm', 'zero_optimization.overlap_comm', 'bf16.enabled'],
};

test('malformed server answers are reduced to what is usable', () => {
  assert.deepEqual(parseDiagnoseResult(null), { findings: [] });
  assert.deepEqual(parseDiagnoseResult({ findings: 'x', markdown: 3 }), { findings: [] });
  const r = parseDiagnoseResult({ findings: [{ id: 'a' }, 7, { id: 'b', title: 'B', evidence: [null, { line: 'x' }] }] });
  assert.equal(r.findings.length, 1);
  assert.deepEqual(r.findings[0].evidence, [{ line: 0, text: '', rank: null }]);
});

test('the server markdown is kept and config keys are linked once each', () => {
  const result = parseDiagnoseResult({ findings: [finding], markdown: '# Diagnosis\n\n![timeline](data:image/svg+xml;base64,PHN2Zy8+)' });
  const md = renderReport(result, { linkConfigKeys: true });
  assert.ok(md.startsWith('# Diagnosis\n'));
  assert.ok(md.includes('data:image/svg+xml;base64,PHN2Zy8+'));
  assert.equal(md.split(configKeyLink('zero_optimization.overlap_comm')).length - 1, 1);
  assert.ok(md.includes(configKeyLink('bf16.enabled')));
  assert.deepEqual(relatedConfigKeys(result.findings), ['zero_optimization.overlap_comm', 'bf16.enabled']);
});

test('config key links decode to the command and its argument', () => {
  const link = configKeyLink('zero_optimization.overlap_comm');
  assert.ok(link.startsWith('command:dsls.revealConfigKey?'));
  const args = JSON.parse(decodeURIComponent(link.slice(link.indexOf('?') + 1)));
  assert.deepEqual(args, ['zero_optimization.overlap_comm']);
});

test('without links the keys are plain code', () => {
  const md = renderReport(parseDiagnoseResult({ findings: [finding], markdown: 'x' }), { linkConfigKeys: false });
  assert.ok(!md.includes('command:'));
  assert.ok(md.includes('- `bf16.enabled`'));
});

test('findings are rendered when the server sent no markdown', () => {
  const md = renderReport(parseDiagnoseResult({ findings: [finding] }), { linkConfigKeys: false });
  assert.ok(md.includes('## Collective timed out after rank 3 stopped'));
  assert.ok(md.includes('Initiating rank 3; collateral ranks 0, 1, 2.'));
  assert.ok(md.includes('line 12 (rank 0): Watchdog caught collective operation timeout'));
  assert.ok(md.includes('**Fix:** Find why rank 3 stalled.'));
  assert.match(renderFindings([]), /No known DeepSpeed failure pattern/);
});

test('the webview page allows data: images and no scripts', () => {
  const html = reportHtmlPage('<p>x</p>', { title: 'A <b>', cspSource: 'vscode-webview://abc' });
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /img-src [^;]*data:/);
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /script-src/);
  assert.ok(html.includes('<title>A &lt;b&gt;</title>'));
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});
