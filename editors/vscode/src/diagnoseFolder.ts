// "DeepSpeed: Diagnose Run Folder": the folder (from the explorer's context menu, or picked)
// goes to the server's dsls.diagnoseFolder; each job found is shown as a report.
import * as vscode from 'vscode';
import { DslsClient } from './client';
import { diagnoseFolderCommand, folderSummary, parseFolderResult } from './folderReport';
import { ReportViews } from './reportView';

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Diagnose',
    title: 'Run folder with per-rank logs',
  });
  return picked?.[0];
}

export async function diagnoseRunFolder(client: DslsClient, views: ReportViews, target?: unknown): Promise<vscode.Uri[]> {
  const folder = target instanceof vscode.Uri ? target : await pickFolder();
  if (!folder) return [];
  if (folder.scheme !== 'file') {
    void vscode.window.showInformationMessage('Only folders on this machine can be diagnosed.');
    return [];
  }
  const raw = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'DeepSpeed: diagnosing the run folder' },
    () => client.executeCommand(diagnoseFolderCommand, [{ uri: folder.toString() }]),
  );
  const result = parseFolderResult(raw);
  client.output.info(`${diagnoseFolderCommand}: ${folderSummary(result)}`);
  for (const e of result.errors) client.output.warn(`${e.path}: ${e.message}`);
  if (result.jobs.length === 0) {
    void vscode.window.showInformationMessage(folderSummary(result));
    return [];
  }
  const shown: vscode.Uri[] = [];
  for (const job of result.jobs) shown.push(await views.show(job.result));
  return shown;
}
