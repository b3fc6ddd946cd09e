// Owns the dsls process: starts it over stdio (vscode-languageclient restarts it after a
// crash, up to its own limit), forwards settings, and runs server commands for the diagnose
// commands.
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
  ConfigurationParams,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { buildDocumentSelector } from './selector';
import { resolveServerPath } from './serverPath';
import { toServerSettings, ServerSettings, configGlobsOf } from './settings';

const section = 'dsls';

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function currentSettings(scope?: vscode.ConfigurationScope): ServerSettings {
  const config = vscode.workspace.getConfiguration(section, scope);
  return toServerSettings((key) => config.get(key));
}

/** Answers the server's workspace/configuration items for the `dsls` section. */
function settingsForItem(sectionName: string | undefined, scopeUri: string | undefined): unknown {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  const settings = currentSettings(scope) as unknown as Record<string, unknown>;
  if (sectionName === section) return settings;
  const sub = sectionName?.slice(section.length + 1) ?? '';
  return sub in settings ? settings[sub] : null;
}

function isDslsSection(name: string | undefined): boolean {
  return name === section || (name?.startsWith(section + '.') ?? false);
}

export class DslsClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
  ) {
    this.disposables.push(vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)));
  }

  /** Starts the server once; concurrent callers share the same start. */
  ensureStarted(): Promise<LanguageClient> {
    if (this.client?.isRunning()) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async start(): Promise<LanguageClient> {
    const config = vscode.workspace.getConfiguration(section);
    const resolved = resolveServerPath({
      configuredPath: config.get<string>('path'),
      extensionPath: this.context.extensionPath,
      pathEnv: process.env.PATH,
      homeDir: os.homedir(),
      isExecutable,
    });
    if (!resolved) {
      const message =
        'The dsls executable was not found: set "dsls.path", install the extension with a bundled server, or put dsls on PATH.';
      this.output.error(message);
      void vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'dsls.path');
      });
      throw new Error(message);
    }
    this.output.info(`Starting ${resolved.command} (${resolved.source})`);

    const serverOptions: ServerOptions = {
      command: resolved.command,
      transport: TransportKind.stdio,
    };
    const settings = currentSettings();
    const clientOptions: LanguageClientOptions = {
      documentSelector: buildDocumentSelector(
        configGlobsOf(settings),
        config.get<boolean>('detectByContent', true),
      ),
      initializationOptions: settings,
      outputChannel: this.output,
      diagnosticCollectionName: 'dsls',
      markdown: { isTrusted: false, supportHtml: false },
      middleware: {
        workspace: {
          configuration: async (params: ConfigurationParams, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) return answers;
            return params.items.map((item, i) =>
              isDslsSection(item.section) ? settingsForItem(item.section, item.scopeUri) : answers[i],
            );
          },
        },
      },
    };
    const client = new LanguageClient('dsls', 'DeepSpeed (dsls)', serverOptions, clientOptions);
    this.client = client;
    await client.start();
    return client;
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old) {
      try {
        await old.stop(5000);
      } catch (err) {
        this.output.warn(`Stopping dsls failed: ${String(err)}`);
      }
      await old.dispose();
    }
    await this.ensureStarted();
  }

  async executeCommand(command: string, args: unknown[]): Promise<unknown> {
    const client = await this.ensureStarted();
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  private onConfigurationChanged(event: vscode.ConfigurationChangeEvent): void {
    if (!event.affectsConfiguration(section)) return;
    // The executable and the document selector are fixed per process.
    const needsRestart = ['path', 'configGlobs', 'detectByContent'].some((k) =>
      event.affectsConfiguration(`${section}.${k}`),
    );
    if (needsRestart) {
      if (this.client || this.starting) void this.restart().catch((err) => this.output.error(String(err)));
      return;
    }
    if (this.client?.isRunning()) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [section]: currentSettings() },
      });
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await client.stop(5000);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.stop();
  }
}
