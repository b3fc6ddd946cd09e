// Maps the `dsls.*` VS Code settings to the flat object the server reads from
// initializationOptions and from the `dsls` section of workspace/configuration.
// Pure: takes a getter so it can be unit tested without VS Code.

export type Launcher = 'hf' | 'accelerate' | 'deepspeed';
export type RuleSeverity = 'off' | 'error' | 'warning' | 'information' | 'hint';

export interface ServerSettings {
  deepspeedVersion?: string;
  torchVersion?: string;
  worldSize?: number;
  launcher?: Launcher;
  rules: Record<string, RuleSeverity>;
  configGlobs: string[];
}

/** Reads one setting below the `dsls` section, e.g. get('worldSize'). */
export type SettingGetter = (key: string) => unknown;

const launchers: readonly string[] = ['hf', 'accelerate', 'deepspeed'];
const severities: readonly string[] = ['off', 'error', 'warning', 'information', 'hint'];

export const defaultConfigGlobs: readonly string[] = [
  '*ds_config*.json',
  '*deepspeed*.json',
  'zero*.json',
  'ds_z*.json',
];

function nonEmptyString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function positiveInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    const parsed = Number(value);
    return parsed >= 1 ? parsed : undefined;
  }
  return undefined;
}

function ruleMap(value: unknown): Record<string, RuleSeverity> {
  const rules: Record<string, RuleSeverity> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return rules;
  for (const [code, severity] of Object.entries(value as Record<string, unknown>)) {
    if (typeof severity !== 'string') continue;
    const normalized = severity.trim().toLowerCase();
    // VS Code spells it "info" in some places; the server wants "information".
    const canonical = normalized === 'info' ? 'information' : normalized;
    if (severities.includes(canonical)) rules[code] = canonical as RuleSeverity;
  }
  return rules;
}

function globList(value: unknown): string[] {
  if (!Array.isArray(value)) return [...defaultConfigGlobs];
  return value.filter((g): g is string => typeof g === 'string' && g.trim() !== '').map((g) => g.trim());
}

/** Unknown or invalid values are left out, so the server applies its own defaults. */
export function toServerSettings(get: SettingGetter): ServerSettings {
  const settings: ServerSettings = {
    rules: ruleMap(get('rules')),
    configGlobs: globList(get('configGlobs')),
  };
  const deepspeedVersion = nonEmptyString(get('deepspeedVersion'));
  if (deepspeedVersion) settings.deepspeedVersion = deepspeedVersion;
  const torchVersion = nonEmptyString(get('torchVersion'));
  if (torchVersion) settings.torchVersion = torchVersion;
  const worldSize = positiveInteger(get('worldSize'));
  if (worldSize !== undefined) settings.worldSize = worldSize;
  const launcher = nonEmptyString(get('launcher'))?.toLowerCase();
  if (launcher && launchers.includes(launcher)) settings.launcher = launcher as Launcher;
  return settings;
}

/** Settings whose change needs a new server process rather than a notification. */
export const restartSettings: readonly string[] = ['dsls.path'];
