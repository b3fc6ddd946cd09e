// Drives dsls the way an editor does, through vscode-jsonrpc: open a ZeRO-2
// config with the overlap_comm race, read the diagnostic and the hover,
// apply the preferred quick fix, change settings, and diagnose a log.
// Diagnostics, ranges, code actions and edits are compared whole, so a server
// that drops or moves any of them fails here.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { pathToFileURL } = require('node:url');
const { LspSession, positionAt, applyEdits, editsFor, hoverText, proto } = require('../lib/lsp-session.cjs');

const dsls = process.env.DSLS_BINARY;
const fixtures = path.join(__dirname, '..', 'fixtures');
const configText = fs.readFileSync(path.join(fixtures, 'ds_config_zero2_race.json'), 'utf8');
const logText = fs.readFileSync(path.join(fixtures, 'oom_then_timeouts.log'), 'utf8');
// Names the server recognises by glob; the files are sent as text and never read or written.
const uri = pathToFileURL(path.join(fixtures, 'ds_config_zero2_race.json')).href;
const logUri = pathToFileURL(path.join(fixtures, 'oom_then_timeouts.log')).href;
const raceCode = 'overlap-comm-race';
const contiguousTitle = 'Set contiguous_gradients to false (avoids the bucket races, not the allocator race)';

/** The range of the first `needle` in `text` at or after `from`. */
function rangeOf(source, needle, from = 0) {
  const offset = source.indexOf(needle, from);
  assert.ok(offset >= 0, `${JSON.stringify(needle)} is in the fixture`);
  return { start: positionAt(source, offset), end: positionAt(source, offset + needle.length) };
}

/** The range of the `true` that follows `key`. */
function valueRange(source, key) {
  return rangeOf(source, 'true', source.indexOf(key) + key.length);
}

/** The whole of line `line`. */
function lineRange(source, line) {
  return { start: { line, character: 0 }, end: { line, character: source.split('\n')[line].length } };
}

/** The fields the tests compare exactly. */
function shape(d) {
  const s = { code: d.code, source: d.source, severity: d.severity, range: d.range };
  if (d.relatedInformation !== undefined)
    s.relatedInformation = d.relatedInformation.map((r) => ({ location: r.location, message: r.message }));
  return s;
}

/** What dsls reports for the fixture config: the race on the overlap_comm key. */
function expectedConfigDiagnostics(severity = proto.DiagnosticSeverity.Warning) {
  return [
    {
      code: raceCode,
      source: 'dsls',
      severity,
      range: rangeOf(configText, '"overlap_comm"'),
      relatedInformation: [
        {
          location: { uri, range: rangeOf(configText, '"contiguous_gradients"') },
          message: 'contiguous_gradients = true (set in this file)',
        },
      ],
    },
  ];
}

/** What dsls reports for the fixture log while the fixture config is open beside it. */
function expectedLogDiagnostics() {
  const lines = logText.split('\n');
  const lineOf = (needle) => lines.findIndex((l) => l.includes(needle));
  const oom = lineOf('torch.OutOfMemoryError');
  const collateral = {
    location: { uri: logUri, range: lineRange(logText, oom) },
    message: `initiating failure: GPU out of memory (${logUri}:${oom + 1})`,
  };
  const configKey = (key, name) => ({
    location: { uri, range: rangeOf(configText, `"${key}"`) },
    message: `config key ${name} in this run's ds_config`,
  });
  const info = (line) => ({
    code: 'log-nccl-watchdog-timeout',
    source: 'dsls',
    severity: proto.DiagnosticSeverity.Information,
    range: lineRange(logText, line),
    relatedInformation: [collateral],
  });
  const watchdogs = lines.flatMap((l, i) => (l.includes('Watchdog caught collective operation timeout') ? [i] : []));
  assert.equal(watchdogs.length, 3, 'the fixture log has three watchdog timeouts');
  return [
    {
      code: 'log-cuda-oom',
      source: 'dsls',
      severity: proto.DiagnosticSeverity.Error,
      range: lineRange(logText, oom),
      relatedInformation: [
        configKey('stage', 'zero_optimization.stage'),
        configKey('train_micro_batch_size_per_gpu', 'train_micro_batch_size_per_gpu'),
      ],
    },
    ...watchdogs.map(info),
    { ...info(lineOf('exits with return code')), code: 'log-worker-exit' },
  ];
}

/**
 * Waits for the published diagnostics of `uri` to be exactly `expected` (and, when given,
 * for the document `version`); on timeout the assertion shows how the last publish differs.
 */
async function expectDiagnostics(target, expected, what, version) {
  const matches = (diags, params) =>
    (version === undefined || params.version === version) && isDeepStrictEqual(diags.map(shape), expected);
  try {
    return await session.waitForDiagnostics(target, matches, 10000, what);
  } catch (err) {
    const last = session.diagnostics.get(target);
    if (version !== undefined) assert.equal(last?.version, version, `${what}: version of the last publish`);
    assert.deepEqual(last?.diagnostics.map(shape), expected, what);
    throw err;
  }
}

let session;
let version = 1;
let text = configText;

before(async () => {
  assert.ok(dsls, 'DSLS_BINARY must name the dsls executable');
  session = new LspSession(dsls, { initializationOptions: { rules: {}, configGlobs: [], deepspeedVersion: '0.14.2' }, settings: { rules: {}, deepspeedVersion: '0.14.2' } });
  await session.start();
});

after(async () => {
  if (!session) return;
  try {
    const { code } = await session.shutdown();
    assert.equal(code, 0, 'dsls should exit with status 0 after shutdown + exit');
  } finally {
    session.kill();
  }
});

function syncKind() {
  const sync = session.initializeResult.capabilities.textDocumentSync;
  return typeof sync === 'number' ? sync : sync?.change;
}

test('initialize advertises the features editors use', () => {
  const caps = session.initializeResult.capabilities;
  assert.ok(syncKind() === proto.TextDocumentSyncKind.Incremental || syncKind() === proto.TextDocumentSyncKind.Full);
  assert.ok(caps.hoverProvider, 'hoverProvider');
  assert.ok(caps.codeActionProvider, 'codeActionProvider');
  assert.ok(caps.executeCommandProvider?.commands?.includes('dsls.diagnoseText'), 'dsls.diagnoseText is an advertised command');
});

test('a ZeRO-2 config with overlap_comm true gets exactly the race diagnostic', async () => {
  session.notify(proto.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'json', version, text },
  });
  const diags = await expectDiagnostics(uri, expectedConfigDiagnostics(), 'the race diagnostic', version);
  assert.match(diags[0].message, /^ZeRO stage 2 with overlap_comm = true \(set in this file\) and contiguous_gradients = true \(set in this file\): /);
  assert.match(diags[0].codeDescription?.href ?? '', /\/docs\/rules\/overlap-comm-race\.md$/);
});

test('hover on overlap_comm explains the race and spans the key', async () => {
  const position = positionAt(text, text.indexOf('"overlap_comm"') + 3);
  const hover = await session.request(proto.HoverRequest.type, { textDocument: { uri }, position });
  const content = hoverText(hover);
  assert.match(content, /overlap_comm/);
  assert.match(content, /race/i);
  assert.deepEqual(hover.range, rangeOf(text, '"overlap_comm"'));
});

test('the quick fixes are exactly the two race fixes, with their edits', async () => {
  const [race] = session.diagnostics.get(uri).diagnostics;
  const actions = await session.request(proto.CodeActionRequest.type, {
    textDocument: { uri },
    range: race.range,
    context: { diagnostics: [race], only: ['quickfix'] },
  });
  assert.deepEqual(
    actions.map((a) => ({ title: a.title, kind: a.kind, isPreferred: a.isPreferred, edits: editsFor(a.edit, uri) })),
    [
      {
        title: 'Set overlap_comm to false',
        kind: 'quickfix',
        isPreferred: true,
        edits: [{ range: valueRange(text, '"overlap_comm"'), newText: 'false' }],
      },
      {
        title: contiguousTitle,
        kind: 'quickfix',
        isPreferred: undefined,
        edits: [{ range: valueRange(text, '"contiguous_gradients"'), newText: 'false' }],
      },
    ],
  );
  for (const a of actions) {
    // The edit is pinned to the version it was computed for, and both forms agree.
    assert.deepEqual(a.edit.documentChanges.map((c) => c.textDocument), [{ uri, version }], a.title);
    assert.deepEqual(a.edit.changes, { [uri]: editsFor(a.edit, uri) }, a.title);
    assert.deepEqual(a.diagnostics.map(shape), expectedConfigDiagnostics(), `${a.title}: the diagnostic it fixes`);
  }
});

test('fix-all offers the overlap_comm fix', async () => {
  const actions = await session.request(proto.CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ['source.fixAll'] },
  });
  assert.deepEqual(
    actions.map((a) => ({ title: a.title, kind: a.kind, edits: editsFor(a.edit, uri) })),
    [
      {
        title: 'Fix all safe dsls findings',
        kind: 'source.fixAll.dsls',
        edits: [{ range: valueRange(text, '"overlap_comm"'), newText: 'false' }],
      },
    ],
  );
});

test('the preferred quick fix sets overlap_comm to false and the diagnostic goes', async () => {
  const [race] = session.diagnostics.get(uri).diagnostics;
  const actions = await session.request(proto.CodeActionRequest.type, {
    textDocument: { uri },
    range: race.range,
    context: { diagnostics: [race], only: ['quickfix'] },
  });
  const preferred = actions.filter((a) => a.isPreferred);
  assert.deepEqual(preferred.map((a) => a.title), ['Set overlap_comm to false']);
  const edits = editsFor(preferred[0].edit, uri);
  const fixed = applyEdits(text, edits);
  assert.equal(fixed, configText.replace('"overlap_comm": true', '"overlap_comm": false'), 'only the value changes');

  // Send the edits the way an incremental client does: last edit first.
  version += 1;
  const ordered = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  const contentChanges =
    syncKind() === proto.TextDocumentSyncKind.Incremental ? ordered.map((e) => ({ range: e.range, text: e.newText })) : [{ text: fixed }];
  session.notify(proto.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges });
  text = fixed;
  await expectDiagnostics(uri, [], 'no diagnostics after the fix', version);
});

test('a full-text change brings the race back', async () => {
  version += 1;
  text = configText;
  session.notify(proto.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await expectDiagnostics(uri, expectedConfigDiagnostics(), 'the race diagnostic after a full change', version);
});

test('rule severities follow didChangeConfiguration', async () => {
  session.settings = { rules: { [raceCode]: 'error' } };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await expectDiagnostics(uri, expectedConfigDiagnostics(proto.DiagnosticSeverity.Error), 'the race diagnostic as an error');
  session.settings = { rules: { [raceCode]: 'off' } };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await expectDiagnostics(uri, [], 'the race rule to be switched off');
  session.settings = { rules: {} };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await expectDiagnostics(uri, expectedConfigDiagnostics(), 'the race diagnostic with default rules');
});

test('dsls.diagnoseText names the initiating rank and embeds a timeline', async () => {
  const result = await session.request(proto.ExecuteCommandRequest.type, {
    command: 'dsls.diagnoseText',
    arguments: [{ text: logText }],
  });
  assert.ok(Array.isArray(result.findings) && result.findings.length > 0, `findings: ${JSON.stringify(result)}`);
  for (const f of result.findings) {
    assert.equal(typeof f.id, 'string');
    assert.equal(typeof f.title, 'string');
    assert.ok(Array.isArray(f.collateralRanks));
    assert.ok(Array.isArray(f.evidence));
    assert.ok(Array.isArray(f.configKeys));
    for (const e of f.evidence) {
      assert.ok(logText.includes(e.text.trim()), `evidence "${e.text}" is text from the log`);
    }
  }
  const oom = result.findings.find((f) => f.initiatingRank === 3);
  assert.ok(oom, `a finding blames rank 3 (the OOM); got ranks ${result.findings.map((f) => f.initiatingRank)}`);
  assert.deepEqual([...oom.collateralRanks].sort(), [0, 1, 2]);
  assert.equal(typeof result.markdown, 'string');
  assert.match(result.markdown, /<svg|data:image\/svg\+xml/, 'the markdown carries the SVG rank timeline');
});

test('bad diagnoseText arguments give an error or no findings, and the server stays up', async () => {
  for (const args of [[], [{}], [{ text: 42 }], ['plain string'], [{ text: '' }]]) {
    try {
      const result = await session.request(proto.ExecuteCommandRequest.type, { command: 'dsls.diagnoseText', arguments: args });
      assert.ok(result === null || Array.isArray(result.findings), `answer for ${JSON.stringify(args)}`);
      if (result) assert.equal(result.findings.length, 0);
    } catch (err) {
      assert.ok(err instanceof rpcError() || err.code !== undefined, `unexpected failure for ${JSON.stringify(args)}: ${err}`);
    }
  }
  const hover = await session.request(proto.HoverRequest.type, {
    textDocument: { uri },
    position: positionAt(text, text.indexOf('"overlap_comm"') + 3),
  });
  assert.match(hoverText(hover), /overlap_comm/);
});

test('a log document opened as languageId log gets its findings, linked to the open config', async () => {
  session.notify(proto.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: logUri, languageId: 'log', version: 1, text: logText },
  });
  await expectDiagnostics(logUri, expectedLogDiagnostics(), 'the log diagnostics', 1);
  const hover = await session.request(proto.HoverRequest.type, { textDocument: { uri: logUri }, position: { line: 5, character: 3 } });
  assert.ok(hover === null || typeof hover === 'object');
  session.notify(proto.DidCloseTextDocumentNotification.type, { textDocument: { uri: logUri } });
  await expectDiagnostics(logUri, [], 'the log diagnostics to be cleared on close');
});

function rpcError() {
  return require('vscode-jsonrpc').ResponseError;
}

test('a JSON file that is no ds_config (a checkpoint trainer_state.json) gets no diagnostics', async () => {
  const statePath = path.join(__dirname, '..', '..', 'fixtures', 'projects', 'hf_trainer', 'output', 'checkpoint-500', 'trainer_state.json');
  const stateUri = pathToFileURL(statePath).href;
  session.notify(proto.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: stateUri, languageId: 'json', version: 1, text: fs.readFileSync(statePath, 'utf8') },
  });
  // A request on the document waits for its analysis, so anything it publishes has been sent.
  const symbols = await session.request(proto.DocumentSymbolRequest.type, { textDocument: { uri: stateUri } });
  assert.deepEqual(symbols, []);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(session.diagnostics.get(stateUri), undefined, 'nothing is published for a file that is no ds_config');
  session.notify(proto.DidCloseTextDocumentNotification.type, { textDocument: { uri: stateUri } });
});
