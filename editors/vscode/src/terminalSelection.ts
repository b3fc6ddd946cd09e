// Reads the text selected in the active terminal. VS Code's terminal selection
// API is still a proposal, so it is tried first and the copy command plus the
// clipboard serve as the stable path; the user's clipboard is put back after.
import * as vscode from 'vscode';

function proposedSelection(terminal: vscode.Terminal): string | undefined {
  try {
    const value = (terminal as unknown as { selection?: unknown }).selection;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    // Accessing a proposal the extension may not use throws.
    return undefined;
  }
}

export async function readTerminalSelection(): Promise<string | undefined> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return undefined;
  const direct = proposedSelection(terminal);
  if (direct !== undefined) return direct;

  const saved = await vscode.env.clipboard.readText().then(
    (t) => t,
    () => undefined,
  );
  try {
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const copied = await vscode.env.clipboard.readText();
    return copied !== '' ? copied : undefined;
  } finally {
    if (saved !== undefined) await vscode.env.clipboard.writeText(saved);
  }
}
