// Opens the ds_config that defines a key named in a report and selects it.
// Looks at visible editors first, then open documents, then workspace files.
import * as vscode from 'vscode';
import { locateKey, looksLikeDeepSpeedConfig, KeyLocation } from './configKeys';
import { globToDocumentPattern } from './selector';
import { currentSettings } from './client';

interface Candidate {
  document: vscode.TextDocument;
  location: KeyLocation;
}

function isConfigDocument(document: vscode.TextDocument, patterns: string[]): boolean {
  if (!['json', 'jsonc'].includes(document.languageId)) return false;
  if (patterns.some((pattern) => vscode.languages.match({ pattern }, document) > 0)) return true;
  return looksLikeDeepSpeedConfig(document.getText());
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
  const patterns = currentSettings().configGlobs.map(globToDocumentPattern);
  const ordered: vscode.TextDocument[] = [
    ...vscode.window.visibleTextEditors.map((e) => e.document),
    ...vscode.workspace.textDocuments,
  ];
  let best: Candidate | undefined;
  const consider = (documents: vscode.TextDocument[]) => {
    for (const document of documents) {
      if (!isConfigDocument(document, patterns)) continue;
      const location = locateKey(document.getText(), key);
      if (!location) continue;
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
