// Shows a diagnosis: a webview with the rendered report (the SVG rank
// timeline included, config keys as links) and the same report as a
// read-only markdown document under the dsls-report: scheme.
import * as vscode from 'vscode';
import { DiagnoseResult, plainHtml, renderReport, reportHtmlPage, revealConfigKeyCommand } from './report';

export const reportScheme = 'dsls-report';

export class ReportViews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly documents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private panel: vscode.WebviewPanel | undefined;
  private count = 0;
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? '';
  }

  /** The report as a virtual markdown document; returns its URI. */
  addDocument(markdown: string): vscode.Uri {
    this.count += 1;
    const uri = vscode.Uri.from({ scheme: reportScheme, path: `/DeepSpeed diagnosis ${this.count}.md` });
    this.documents.set(uri.toString(), markdown);
    // Keep memory bounded when many diagnoses are run in one session.
    if (this.documents.size > 20) {
      const oldest = this.documents.keys().next().value;
      if (oldest !== undefined) this.documents.delete(oldest);
    }
    return uri;
  }

  async show(result: DiagnoseResult): Promise<vscode.Uri> {
    const uri = this.addDocument(renderReport(result, { linkConfigKeys: false }));
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: this.panel?.viewColumn ?? vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
    // The rendered report goes in front of its markdown source, in the same group.
    const column = editor.viewColumn ?? vscode.ViewColumn.Beside;

    const markdown = renderReport(result, { linkConfigKeys: true });
    let body: string;
    try {
      body = (await vscode.commands.executeCommand<string>('markdown.api.render', markdown)) ?? plainHtml(markdown);
    } catch {
      body = plainHtml(markdown);
    }
    const panel = this.reportPanel(column);
    panel.webview.html = reportHtmlPage(body, { title: 'DeepSpeed diagnosis', cspSource: panel.webview.cspSource });
    panel.reveal(column, false);
    return uri;
  }

  private reportPanel(column: vscode.ViewColumn): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const panel = vscode.window.createWebviewPanel(
      'dsls.report',
      'DeepSpeed Diagnosis',
      { viewColumn: column, preserveFocus: false },
      { enableScripts: false, enableCommandUris: [revealConfigKeyCommand], localResourceRoots: [] },
    );
    panel.onDidDispose(() => {
      this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
    this.changed.dispose();
  }
}
