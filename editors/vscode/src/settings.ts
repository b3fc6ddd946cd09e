// Maps the `dsls.*` VS Code settings to the flat object the server reads from
// initializationOptions and from the `dsls` section of workspace/configuration.
// The keys come from the server's settings table (settingsTable.ts, generated); values are
// sent as the user wrote them, so the server checks them and says what is wrong with one.
// Pure: takes a getter so it can be unit tested without VS Code.
import { builtinConfigGlobs, serverSettings } from './settingsTable';

export type ServerSettings = Record<string, unknown>;

/** Reads one setting below the `dsls` section, e.g. get('worldSize'). */
export type SettingGetter = (key: string) => unknown;

/** Unset values (undefined, null, an empty string) are left out, so the server applies its defaults. */
export function toServerSettings(get: SettingGetter): ServerSettings {
  const settings: ServerSettings = {};
  for (const { key } of serverSettings) {
    const value = get(key);
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    settings[key] = typeof value === 'string' ? value.trim() : value;
  }
  return settings;
}

/** The globs that make a file a ds_config by its name: the built-in ones and dsls.configGlobs. */
export function configGlobsOf(settings: ServerSettings): string[] {
  const extra = Array.isArray(settings.configGlobs)
    ? settings.configGlobs.filter((g): g is string => typeof g === 'string' && g.trim() !== '')
    : [];
  return [...builtinConfigGlobs, ...extra];
}

/** Settings whose change needs a new server process rather than a notification. */
export const restartSettings: readonly string[] = ['dsls.path'];
