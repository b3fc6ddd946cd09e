// Drives dsls the way an editor does, through vscode-jsonrpc: open a ZeRO-2
// config with the overlap_comm race, read the diagnostic and the hover,
// apply the preferred quick fix, change settings, and diagnose a log.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { LspSession, positionAt, applyEdits, editsFor, hoverText, proto } = require('../lib/lsp-session.cjs');

const dsls = process.env.DSLS_BINARY;
const fixtures = path.join(__dirname, '..', 'fixtures');
const configText = fs.readFileSync(path.join(fixtures, 'ds_config_zero2_race.json'), 'utf8');
const logText = fs.readFileSync(path.join(fixtures, 'oom_then_timeouts.log'), 'utf8');
// A name the server recognises by glob; the file need not exist on disk.
const uri = pathToFileURL(path.join(fixtures, 'ds_config_zero2_race.json')).href;
const raceCode = 'overlap-comm-race';

const hasRace = (diags) => diags.some((d) => d.code === raceCode);
const noRace = (diags) => !hasRace(diags);

let session;
let version = 1;
let text = configText;

before(async () => {
  assert.ok(dsls, 'DSLS_BINARY must name the dsls executable');
  session = new LspSession(dsls, { initializationOptions: { rules: {}, configGlobs: [] }, settings: { rules: {} } });
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

test('a ZeRO-2 config with overlap_comm true gets the race diagnostic', async () => {
  session.notify(proto.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'json', version, text },
  });
  const diags = await session.waitForDiagnostics(uri, hasRace, 10000, raceCode);
  const race = diags.find((d) => d.code === raceCode);
  assert.equal(race.source, 'dsls');
  const keyLine = positionAt(text, text.indexOf('"overlap_comm"')).line;
  assert.ok(race.range.start.line <= keyLine && keyLine <= race.range.end.line, `range ${JSON.stringify(race.range)} covers line ${keyLine}`);
  assert.ok(race.severity === undefined || race.severity <= proto.DiagnosticSeverity.Warning, 'default severity is warning or error');
});

test('hover on overlap_comm explains the race', async () => {
  const position = positionAt(text, text.indexOf('"overlap_comm"') + 3);
  const hover = await session.request(proto.HoverRequest.type, { textDocument: { uri }, position });
  const content = hoverText(hover);
  assert.match(content, /overlap_comm/);
  assert.match(content, /race/i);
});

test('the preferred quick fix sets overlap_comm to false and the diagnostic goes', async () => {
  const race = session.diagnostics.get(uri).diagnostics.find((d) => d.code === raceCode);
  const actions = await session.request(proto.CodeActionRequest.type, {
    textDocument: { uri },
    range: race.range,
    context: { diagnostics: [race], only: ['quickfix'] },
  });
  const titles = actions.map((a) => a.title);
  // The second fix may add a note after the title the contract fixes.
  assert.ok(titles.some((t) => t.startsWith('Set contiguous_gradients to false')), `actions: ${titles.join(' | ')}`);
  const preferred = actions.filter((a) => a.isPreferred);
  assert.equal(preferred.length, 1, 'exactly one preferred action');
  assert.equal(preferred[0].title, 'Set overlap_comm to false');
  assert.equal(preferred[0].kind, 'quickfix');

  const edits = editsFor(preferred[0].edit, uri);
  assert.ok(edits.length > 0, 'the quick fix carries an edit for this document');
  const fixed = applyEdits(text, edits);
  assert.match(fixed, /"overlap_comm"\s*:\s*false/);
  assert.match(fixed, /"contiguous_gradients"\s*:\s*true/, 'the preferred fix leaves contiguous_gradients alone');
  JSON.parse(fixed);

  // Send the edits the way an incremental client does: last edit first.
  version += 1;
  const ordered = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  const contentChanges =
    syncKind() === proto.TextDocumentSyncKind.Incremental ? ordered.map((e) => ({ range: e.range, text: e.newText })) : [{ text: fixed }];
  session.notify(proto.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges });
  text = fixed;
  await session.waitForDiagnostics(uri, noRace, 10000, 'the race diagnostic to clear');
});

test('a full-text change brings the race back', async () => {
  version += 1;
  text = configText;
  session.notify(proto.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await session.waitForDiagnostics(uri, hasRace, 10000, 'the race diagnostic after a full change');
});

test('rule severities follow didChangeConfiguration', async () => {
  session.settings = { rules: { [raceCode]: 'error' } };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await session.waitForDiagnostics(
    uri,
    (diags) => diags.some((d) => d.code === raceCode && d.severity === proto.DiagnosticSeverity.Error),
    10000,
    'the race diagnostic as an error',
  );
  session.settings = { rules: { [raceCode]: 'off' } };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await session.waitForDiagnostics(uri, noRace, 10000, 'the race rule to be switched off');
  session.settings = { rules: {} };
  session.notify(proto.DidChangeConfigurationNotification.type, { settings: { dsls: session.settings } });
  await session.waitForDiagnostics(uri, hasRace, 10000, 'the race diagnostic with default rules');
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

test('a log document opened as languageId log is accepted', async () => {
  const logUri = pathToFileURL(path.join(fixtures, 'oom_then_timeouts.log')).href;
  session.notify(proto.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: logUri, languageId: 'log', version: 1, text: logText },
  });
  // Whatever the server publishes for logs, it must stay responsive.
  const hover = await session.request(proto.HoverRequest.type, { textDocument: { uri: logUri }, position: { line: 5, character: 3 } });
  assert.ok(hover === null || typeof hover === 'object');
  session.notify(proto.DidCloseTextDocumentNotification.type, { textDocument: { uri: logUri } });
});

function rpcError() {
  return require('vscode-jsonrpc').ResponseError;
}
