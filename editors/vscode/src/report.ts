// Turns the result of the server's `dsls.diagnoseText` command into the
// markdown shown to the user, adding links from the report to ds_config keys.
// Pure: no VS Code API here.

export interface EvidenceLine {
  line: number;
  text: string;
  rank?: number | null;
}

export interface Finding {
  id: string;
  title: string;
  initiatingRank?: number | null;
  collateralRanks?: number[];
  evidence?: EvidenceLine[];
  fix?: string;
  verify?: string;
  configKeys?: string[];
}

export interface DiagnoseResult {
  findings: Finding[];
  markdown?: string;
}

export const revealConfigKeyCommand = 'dsls.revealConfigKey';

/** Accepts whatever the server sent and keeps only well-formed parts. */
export function parseDiagnoseResult(raw: unknown): DiagnoseResult {
  const result: DiagnoseResult = { findings: [] };
  if (raw === null || typeof raw !== 'object') return result;
  const obj = raw as Record<string, unknown>;
  if (typeof obj.markdown === 'string') result.markdown = obj.markdown;
  if (Array.isArray(obj.findings)) {
    for (const f of obj.findings) {
      if (f === null || typeof f !== 'object') continue;
      const item = f as Record<string, unknown>;
      if (typeof item.id !== 'string' || typeof item.title !== 'string') continue;
      result.findings.push({
        id: item.id,
        title: item.title,
        initiatingRank: typeof item.initiatingRank === 'number' ? item.initiatingRank : null,
        collateralRanks: Array.isArray(item.collateralRanks)
          ? item.collateralRanks.filter((r): r is number => typeof r === 'number')
          : [],
        evidence: Array.isArray(item.evidence)
          ? item.evidence
              .filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object')
              .map((e) => ({
                line: typeof e.line === 'number' ? e.line : 0,
                text: typeof e.text === 'string' ? e.text : '',
                rank: typeof e.rank === 'number' ? e.rank : null,
              }))
          : [],
        fix: typeof item.fix === 'string' ? item.fix : undefined,
        verify: typeof item.verify === 'string' ? item.verify : undefined,
        configKeys: Array.isArray(item.configKeys)
          ? item.configKeys.filter((k): k is string => typeof k === 'string' && k !== '')
          : [],
      });
    }
  }
  return result;
}

export function configKeyLink(key: string): string {
  return `command:${revealConfigKeyCommand}?${encodeURIComponent(JSON.stringify([key]))}`;
}

function inlineCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function rankText(rank: number | null | undefined): string {
  return typeof rank === 'number' ? `rank ${rank}` : 'rank unknown';
}

/** Markdown for the findings, used when the server sent no markdown of its own. */
export function renderFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'No known DeepSpeed failure pattern was found in the selected text.\n';
  const parts: string[] = [];
  for (const f of findings) {
    parts.push(`## ${f.title}\n`);
    parts.push(`Rule: ${inlineCode(f.id)}\n`);
    const collateral = f.collateralRanks ?? [];
    parts.push(
      `Initiating ${rankText(f.initiatingRank)}` +
        (collateral.length > 0 ? `; collateral ranks ${collateral.join(', ')}` : '') +
        '.\n',
    );
    if (f.evidence && f.evidence.length > 0) {
      parts.push('Evidence:\n');
      parts.push('```text');
      for (const e of f.evidence) parts.push(`line ${e.line} (${rankText(e.rank)}): ${e.text}`);
      parts.push('```\n');
    }
    if (f.fix) parts.push(`**Fix:** ${f.fix}\n`);
    if (f.verify) parts.push(`**Verify:** ${f.verify}\n`);
  }
  return parts.join('\n');
}

/** Every config key named by a finding, once, in order of first mention. */
export function relatedConfigKeys(findings: readonly Finding[]): string[] {
  const seen = new Set<string>();
  for (const f of findings) for (const k of f.configKeys ?? []) seen.add(k);
  return [...seen];
}

export interface RenderOptions {
  /** Command links work in the webview; the plain virtual document gets plain text. */
  linkConfigKeys: boolean;
}

export function renderReport(result: DiagnoseResult, options: RenderOptions): string {
  const body = result.markdown && result.markdown.trim() !== '' ? result.markdown : renderFindings(result.findings);
  const keys = relatedConfigKeys(result.findings);
  if (keys.length === 0) return ensureTrailingNewline(body);
  const lines = ['', '## Related ds_config keys', ''];
  for (const key of keys) {
    lines.push(options.linkConfigKeys ? `- [${inlineCode(key)}](${configKeyLink(key)})` : `- ${inlineCode(key)}`);
  }
  return ensureTrailingNewline(body) + lines.join('\n') + '\n';
}

function ensureTrailingNewline(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface HtmlPageOptions {
  title: string;
  cspSource: string;
}

/**
 * The webview page around rendered report HTML. No scripts run in it; images
 * may come from data: URIs, which is how the rank timeline arrives.
 */
export function reportHtmlPage(bodyHtml: string, options: HtmlPageOptions): string {
  const csp = [
    "default-src 'none'",
    `img-src ${options.cspSource} data:`,
    `style-src ${options.cspSource} 'unsafe-inline'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
<style>
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); line-height: 1.5; padding: 0 1.5em 2em; }
  img, svg { max-width: 100%; height: auto; background: #fff; }
  pre, code { font-family: var(--vscode-editor-font-family); }
  pre { padding: 0.5em; overflow-x: auto; background: var(--vscode-textCodeBlock-background); }
  a { color: var(--vscode-textLink-foreground); }
</style>
</head>
<body>
${bodyHtml}
</body>
</html>
`;
}

/** Used when VS Code's markdown renderer is unavailable. */
export function plainHtml(markdown: string): string {
  return `<pre>${escapeHtml(markdown)}</pre>`;
}
