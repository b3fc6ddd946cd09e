// Opens the ds_config that defines a key named in a report and selects it.
// Looks at visible editors first, then open documents, then workspace files.
import * as vscode from 'vscode';
import { locateKey, KeyLocation } from './configKeys';
import { globToDocumentPattern } from './selector';
import { currentSettings } from './client';
import { configGlobsOf } from './settings';

interface Candidate {
  document: vscode.TextDocument;
  location: KeyLocation;
}

// Any JSON document may hold the key: the server decides what is a config, and the extension
// keeps no key list of its own. Outside the config globs only an exact match counts (below).
function isJsonDocument(document: vscode.TextDocument): boolean {
  return ['json', 'jsonc'].includes(document.languageId);
}

async function workspaceConfigs(patterns: string[]): Promise<vscode.TextDocument[]> {
  const found: vscode.TextDocument[] = [];
  for (const pattern of patterns) {
    const uris = await vscode.workspace.findFiles(pattern, '**/node_modules/**', 20);
    for (const uri of uris) found.push(await vscode.workspace.openTextDocument(uri));
  }
  return found;
}

export async function revealConfigKey(key: unknown): Promise<boolean> {
  if (typeof key !== 'string' || key === '') return false;
  const patterns = configGlobsOf(currentSettings()).map(globToDocumentPattern);
  const ordered: vscode.TextDocument[] = [
    ...vscode.window.visibleTextEditors.map((e) => e.document),
    ...vscode.workspace.textDocuments,
  ];
  let best: Candidate | undefined;
  const consider = (documents: vscode.TextDocument[]) => {
    for (const document of documents) {
      if (!isJsonDocument(document)) continue;
      const location = locateKey(document.getText(), key);
      if (!location) continue;
      // Outside the configured globs only an exact match counts: a parent section alone says little.
      const named = patterns.some((pattern) => vscode.languages.match({ pattern }, document) > 0);
      if (!named && !location.exact) continue;
      if (!best || (location.exact && !best.location.exact)) best = { document, location };
      if (best.location.exact) return;
    }
  };
  consider(ordered);
  if (!best?.location.exact) consider(await workspaceConfigs(patterns));
  if (!best) {
    void vscode.window.showInformationMessage(`No ds_config in this workspace defines "${key}".`);
    return false;
  }
  const { document, location } = best;
  const range = new vscode.Range(document.positionAt(location.offset), document.positionAt(location.offset + location.length));
  await vscode.window.showTextDocument(document, { selection: range, viewColumn: vscode.ViewColumn.One });
  if (!location.exact) {
    void vscode.window.showInformationMessage(
      `"${key}" is not set in ${vscode.workspace.asRelativePath(document.uri)}; showing "${location.foundPath.join('.')}".`,
    );
  }
  return true;
}
