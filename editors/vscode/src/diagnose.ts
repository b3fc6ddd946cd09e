// The two diagnose commands: send the selected log text to the server's
// dsls.diagnoseText command and show the report.
import * as vscode from 'vscode';
import { DslsClient } from './client';
import { parseDiagnoseResult } from './report';
import { ReportViews } from './reportView';
import { readTerminalSelection } from './terminalSelection';

export const diagnoseTextCommand = 'dsls.diagnoseText';

export async function diagnoseText(client: DslsClient, views: ReportViews, text: string): Promise<vscode.Uri | undefined> {
  const raw = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'DeepSpeed: diagnosing' },
    () => client.executeCommand(diagnoseTextCommand, [{ text }]),
  );
  const result = parseDiagnoseResult(raw);
  client.output.info(`${diagnoseTextCommand}: ${result.findings.length} finding(s) for ${text.split('\n').length} line(s)`);
  return views.show(result);
}

export async function diagnoseEditorSelection(client: DslsClient, views: ReportViews): Promise<vscode.Uri | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Open a log and select the lines to diagnose.');
    return undefined;
  }
  const selections = editor.selections.filter((s) => !s.isEmpty).sort((a, b) => a.start.line - b.start.line);
  const selected = selections.map((s) => editor.document.getText(s)).join('\n');
  // Blank lines before the first selection keep the report's line numbers those of the file.
  const lead = selections.length > 0 ? '\n'.repeat(selections[0].start.line) : '';
  // With nothing selected, the whole document is the natural scope.
  const text = selected !== '' ? lead + selected : editor.document.getText();
  if (text.trim() === '') {
    void vscode.window.showInformationMessage('There is no text to diagnose.');
    return undefined;
  }
  return diagnoseText(client, views, text);
}

export async function diagnoseTerminalSelection(client: DslsClient, views: ReportViews): Promise<vscode.Uri | undefined> {
  if (!vscode.window.activeTerminal) {
    void vscode.window.showInformationMessage('Open a terminal and select the log lines to diagnose.');
    return undefined;
  }
  const text = await readTerminalSelection();
  if (!text || text.trim() === '') {
    void vscode.window.showInformationMessage('Select the log lines in the terminal first.');
    return undefined;
  }
  return diagnoseText(client, views, text);
}
