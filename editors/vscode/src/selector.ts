// Builds the language client's document selector from the configured globs.
// Pure, so the glob handling is unit tested.

export interface DocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/** A glob without a slash names a file in any folder, as the server reads it. */
export function globToDocumentPattern(glob: string): string {
  const trimmed = glob.trim();
  if (trimmed.includes('/')) return trimmed;
  return `**/${trimmed}`;
}

const jsonLanguages = ['json', 'jsonc'];
const schemes = ['file', 'untitled'];

// The languages of files that may hold a ds_config inside their own syntax.
export const hostLanguages = ['python', 'shellscript', 'yaml'] as const;

export function buildDocumentSelector(configGlobs: readonly string[], detectByContent: boolean): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const scheme of schemes) {
    if (detectByContent) {
      for (const language of jsonLanguages) filters.push({ scheme, language });
    } else {
      for (const glob of configGlobs) {
        if (glob.trim() === '') continue;
        for (const language of jsonLanguages) {
          filters.push({ scheme, language, pattern: globToDocumentPattern(glob) });
        }
      }
    }
    filters.push({ scheme, language: 'log' });
  }
  // Python sources that build a ds_config as a dict, shell scripts that write one, Accelerate
  // config files. Only once the client runs (a JSON, log or .txt document started it): opening a
  // Python file, a script or a YAML file does not start the server. The server looks for a DeepSpeed key before it parses and publishes
  // nothing for a file that writes no config.
  if (detectByContent) {
    for (const language of hostLanguages) filters.push({ scheme: 'file', language });
  }
  // Plain-text training logs saved as .txt; the server ignores ones without log content.
  filters.push({ scheme: 'file', language: 'plaintext', pattern: '**/*.txt' });
  return filters;
}
