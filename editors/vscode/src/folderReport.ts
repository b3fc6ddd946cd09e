// Turns the result of the server's `dsls.diagnoseFolder` command (the per-rank logs of a run
// folder analysed as jobs) into reports to show, one per job. Pure: no VS Code API here.
import { DiagnoseResult, parseDiagnoseResult } from './report';

export const diagnoseFolderCommand = 'dsls.diagnoseFolder';

export interface FolderJob {
  name: string;
  layout: string;
  ranks: number[];
  result: DiagnoseResult;
}

export interface FolderResult {
  folder: string;
  message: string;
  jobs: FolderJob[];
  errors: { path: string; message: string }[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Accepts whatever the server sent and keeps only well-formed parts. */
export function parseFolderResult(raw: unknown): FolderResult {
  const out: FolderResult = { folder: '', message: '', jobs: [], errors: [] };
  if (raw === null || typeof raw !== 'object') return out;
  const obj = raw as Record<string, unknown>;
  out.folder = text(obj.folder);
  out.message = text(obj.message);
  if (Array.isArray(obj.errors))
    for (const e of obj.errors)
      if (e !== null && typeof e === 'object') {
        const item = e as Record<string, unknown>;
        out.errors.push({ path: text(item.path), message: text(item.message) });
      }
  if (Array.isArray(obj.jobs))
    for (const j of obj.jobs) {
      if (j === null || typeof j !== 'object') continue;
      const job = j as Record<string, unknown>;
      const report = job.report !== null && typeof job.report === 'object' ? (job.report as Record<string, unknown>) : {};
      // The job's markdown (its files and ranks, then the diagnosis) stands for the report's own.
      const result = parseDiagnoseResult({ findings: report.findings, markdown: job.markdown });
      out.jobs.push({
        name: text(job.name),
        layout: text(job.layout),
        ranks: Array.isArray(job.ranks) ? job.ranks.filter((r): r is number => typeof r === 'number') : [],
        result,
      });
    }
  return out;
}

/** One line for the status message: how many jobs, or why there are none. */
export function folderSummary(result: FolderResult): string {
  if (result.jobs.length === 0) return result.message || 'No per-rank logs in this folder.';
  const jobs = result.jobs.map((j) => `${j.name} (${j.ranks.length} rank${j.ranks.length === 1 ? '' : 's'})`);
  return `DeepSpeed: ${result.jobs.length} job${result.jobs.length === 1 ? '' : 's'} in ${result.folder}: ${jobs.join(', ')}`;
}
