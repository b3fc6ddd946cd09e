// Entry point: starts dsls for ds_config JSON and log files and registers the
// DeepSpeed commands.
import * as vscode from 'vscode';
import { DslsClient } from './client';
import { diagnoseEditorSelection, diagnoseTerminalSelection } from './diagnose';
import { diagnoseRunFolder } from './diagnoseFolder';
import { ReportViews, reportScheme } from './reportView';
import { revealConfigKey } from './revealKey';

let client: DslsClient | undefined;

function reportError(output: vscode.LogOutputChannel, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  output.error(message);
  void vscode.window.showErrorMessage(`DeepSpeed: ${message}`);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('DeepSpeed (dsls)', { log: true });
  const views = new ReportViews();
  client = new DslsClient(context, output);
  const c = client;
  const guarded =
    <T>(fn: (...args: unknown[]) => Promise<T>) =>
    async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        reportError(output, err);
        return undefined;
      }
    };
  context.subscriptions.push(
    output,
    views,
    c,
    vscode.workspace.registerTextDocumentContentProvider(reportScheme, views),
    vscode.commands.registerCommand('dsls.diagnoseTerminalSelection', guarded(() => diagnoseTerminalSelection(c, views))),
    vscode.commands.registerCommand('dsls.diagnoseSelection', guarded(() => diagnoseEditorSelection(c, views))),
    vscode.commands.registerCommand('dsls.diagnoseRunFolder', guarded((folder) => diagnoseRunFolder(c, views, folder))),
    vscode.commands.registerCommand('dsls.revealConfigKey', guarded((key) => revealConfigKey(key))),
    vscode.commands.registerCommand('dsls.restartServer', guarded(() => c.restart())),
    vscode.commands.registerCommand('dsls.showOutput', () => output.show(true)),
  );
  try {
    await c.ensureStarted();
  } catch (err) {
    // Already reported to the user; the commands retry the start.
    output.error(`dsls did not start: ${String(err)}`);
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
