// A minimal LSP client for tests: starts dsls over stdio with
// vscode-jsonrpc, answers the requests a real editor answers, and records
// published diagnostics so tests can wait for them.
'use strict';
const { spawn } = require('node:child_process');
const { EventEmitter } = require('node:events');
const rpc = require('vscode-jsonrpc/node');
const proto = require('vscode-languageserver-protocol');

class LspSession extends EventEmitter {
  constructor(serverPath, { initializationOptions = {}, settings = {}, args = ['--stdio'] } = {}) {
    super();
    this.serverPath = serverPath;
    this.args = args;
    this.initializationOptions = initializationOptions;
    /** What workspace/configuration answers for the `dsls` section. */
    this.settings = settings;
    this.diagnostics = new Map();
    this.stderr = '';
    this.configurationRequests = 0;
    this.exit = new Promise((resolve) => (this.resolveExit = resolve));
  }

  async start() {
    this.process = spawn(this.serverPath, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.process.stderr.on('data', (chunk) => {
      this.stderr += chunk.toString();
      if (this.stderr.length > 200000) this.stderr = this.stderr.slice(-100000);
    });
    this.process.on('exit', (code, signal) => this.resolveExit({ code, signal }));
    this.process.on('error', (err) => this.resolveExit({ code: null, signal: null, error: err }));
    const connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(this.process.stdout),
      new rpc.StreamMessageWriter(this.process.stdin),
    );
    this.connection = connection;
    connection.onRequest(proto.ConfigurationRequest.type, (params) => {
      this.configurationRequests += 1;
      return params.items.map((item) => (item.section === 'dsls' ? this.settings : null));
    });
    connection.onRequest(proto.RegistrationRequest.type, () => null);
    connection.onRequest(proto.UnregistrationRequest.type, () => null);
    connection.onRequest(proto.WorkDoneProgressCreateRequest.type, () => null);
    connection.onRequest(proto.WorkspaceFoldersRequest.type, () => null);
    connection.onRequest(proto.ShowMessageRequest.type, () => null);
    connection.onNotification(proto.PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.set(params.uri, params);
      this.emit('diagnostics', params);
    });
    connection.onNotification(proto.LogMessageNotification.type, () => {});
    connection.onNotification(proto.ShowMessageNotification.type, () => {});
    connection.onNotification(proto.TelemetryEventNotification.type, () => {});
    connection.onUnhandledNotification(() => {});
    connection.listen();

    this.initializeResult = await this.request(proto.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'dsls-node-test', version: '1' },
      rootUri: null,
      workspaceFolders: null,
      initializationOptions: this.initializationOptions,
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false }, applyEdit: true },
        textDocument: {
          synchronization: { didSave: true, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'source', 'source.fixAll'] } },
            isPreferredSupport: true,
            dataSupport: true,
          },
        },
      },
    });
    this.connection.sendNotification(proto.InitializedNotification.type, {});
    return this.initializeResult;
  }

  request(type, params, timeoutMs = 10000) {
    const method = typeof type === 'string' ? type : type.method;
    return withTimeout(this.connection.sendRequest(type, params), timeoutMs, () => `${method} got no answer; server stderr:\n${this.stderr}`);
  }

  notify(type, params) {
    return this.connection.sendNotification(type, params);
  }

  /** Resolves with the newest diagnostics for `uri` once `predicate` holds for them. */
  waitForDiagnostics(uri, predicate, timeoutMs = 10000, what = 'diagnostics') {
    const current = this.diagnostics.get(uri);
    if (current && predicate(current.diagnostics, current)) return Promise.resolve(current.diagnostics);
    return new Promise((resolve, reject) => {
      const onDiagnostics = (params) => {
        if (params.uri !== uri || !predicate(params.diagnostics, params)) return;
        clearTimeout(timer);
        this.off('diagnostics', onDiagnostics);
        resolve(params.diagnostics);
      };
      const timer = setTimeout(() => {
        this.off('diagnostics', onDiagnostics);
        const last = this.diagnostics.get(uri);
        reject(new Error(`timed out waiting for ${what} on ${uri}; last published: ${JSON.stringify(last?.diagnostics)}\nserver stderr:\n${this.stderr}`));
      }, timeoutMs);
      this.on('diagnostics', onDiagnostics);
    });
  }

  async shutdown(timeoutMs = 10000) {
    await this.request(proto.ShutdownRequest.type, undefined, timeoutMs);
    this.notify(proto.ExitNotification.type);
    const result = await withTimeout(this.exit, timeoutMs, () => 'server did not exit after the exit notification');
    this.connection.dispose();
    return result;
  }

  kill() {
    if (this.process && this.process.exitCode === null) this.process.kill('SIGKILL');
    this.connection?.dispose();
  }
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(message())), ms);
    }),
  ]);
}

/** Line/character (UTF-16 units, as LSP defaults) of an offset in `text`. */
function positionAt(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

function offsetAt(text, position) {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < position.line && i < lines.length; i++) offset += lines[i].length + 1;
  return Math.min(offset + position.character, text.length);
}

/** Applies LSP TextEdits (all against the same original text). */
function applyEdits(text, edits) {
  const sorted = edits
    .map((e) => ({ start: offsetAt(text, e.range.start), end: offsetAt(text, e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/**
 * The edits a WorkspaceEdit makes to one document. As in editors that support
 * `documentChanges`, those win and `changes` is read only without them.
 */
function editsFor(workspaceEdit, uri) {
  if (!workspaceEdit) return [];
  if (Array.isArray(workspaceEdit.documentChanges)) {
    const edits = [];
    for (const change of workspaceEdit.documentChanges) {
      if (change.textDocument && change.textDocument.uri === uri) edits.push(...change.edits);
    }
    return edits;
  }
  return [...((workspaceEdit.changes && workspaceEdit.changes[uri]) || [])];
}

function hoverText(hover) {
  if (!hover || !hover.contents) return '';
  const c = hover.contents;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n');
  return c.value ?? '';
}

module.exports = { LspSession, positionAt, offsetAt, applyEdits, editsFor, hoverText, proto };
