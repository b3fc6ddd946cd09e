// Decides which dsls executable to start: the `dsls.path` setting, else the copy
// bundled next to the extension, else `dsls` on PATH. File access is injected.
import * as path from 'path';

export type ServerSource = 'setting' | 'bundled' | 'PATH';

export interface ResolvedServer {
  command: string;
  source: ServerSource;
}

export interface ServerPathInputs {
  configuredPath: string | undefined;
  extensionPath: string;
  pathEnv: string | undefined;
  homeDir: string;
  isExecutable: (file: string) => boolean;
}

export const executableName = 'dsls';

export function expandHome(file: string, homeDir: string): string {
  if (file === '~') return homeDir;
  if (file.startsWith('~/')) return path.join(homeDir, file.slice(2));
  return file;
}

export function bundledServerPath(extensionPath: string): string {
  return path.join(extensionPath, 'bin', executableName);
}

/**
 * A configured path is returned even when it does not exist, so the user sees
 * the failure for the path they chose instead of a silent fallback.
 */
export function resolveServerPath(inputs: ServerPathInputs): ResolvedServer | undefined {
  const configured = inputs.configuredPath?.trim();
  if (configured) return { command: expandHome(configured, inputs.homeDir), source: 'setting' };
  const bundled = bundledServerPath(inputs.extensionPath);
  if (inputs.isExecutable(bundled)) return { command: bundled, source: 'bundled' };
  for (const dir of (inputs.pathEnv ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, executableName);
    if (inputs.isExecutable(candidate)) return { command: candidate, source: 'PATH' };
  }
  return undefined;
}
