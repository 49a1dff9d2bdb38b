import { randomBytes } from 'node:crypto';
import { quoteArg } from '../config/serverDefinition';
import type { SandboxPolicy } from './sandboxPolicy';

/** A command line as it will be spawned. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** The same command, wrapped to run inside the sandbox; `release` once its process has ended. */
export interface SandboxedLaunch extends Launch {
  release(): void;
}

/** Runs stdio servers inside an operating-system sandbox. */
export interface ProcessSandbox {
  wrap(launch: Launch, policy: SandboxPolicy): Promise<SandboxedLaunch>;
  dispose(): Promise<void>;
}

/** The sandbox cannot run on this machine: the message says why and what to do. */
export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

/** The part of `@anthropic-ai/sandbox-runtime` the host uses (the package is ESM, loaded on first use). */
export interface SandboxRuntimeModule {
  readonly SandboxManager: {
    isSupportedPlatform(): boolean;
    checkDependenciesAsync(): Promise<{ errors: string[]; warnings: string[] }>;
    initialize(config: object): Promise<void>;
    wrapWithSandboxArgv(
      command: string,
      binShell: undefined,
      customConfig: object,
      abortSignal: undefined,
      cwd: string | undefined,
      options: { commandId: string; commandText: string },
    ): Promise<{ argv: string[]; env: Record<string, string | undefined> }>;
    registerCommandNetworkLists(commandId: string, lists: { allowedDomains: string[] }): void;
    unregisterCommandNetworkLists(commandId: string): void;
    reset(): Promise<void>;
  };
}

type Manager = SandboxRuntimeModule['SandboxManager'];

/**
 * The sandbox runtime Claude Code uses (bubblewrap and a filtering proxy on Linux, Seatbelt on
 * macOS). One runtime serves every sandboxed server of the window: its proxy starts with the
 * first of them; each server gets its own file-system rules and its own network allow list
 * (keyed by an unguessable id only its proxy settings carry).
 */
export class SrtProcessSandbox implements ProcessSandbox {
  private ready?: Promise<Manager>;

  constructor(
    private readonly load: () => Promise<SandboxRuntimeModule> = () =>
      import('@anthropic-ai/sandbox-runtime') as Promise<SandboxRuntimeModule>,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  async wrap(launch: Launch, policy: SandboxPolicy): Promise<SandboxedLaunch> {
    const manager = await this.manager();
    const commandId = randomBytes(16).toString('base64url');
    const line = [launch.command, ...launch.args].map(quoteArg).join(' ');
    const filesystem = {
      denyRead: [...policy.denyRead],
      allowRead: [...policy.allowRead],
      allowWrite: [...policy.allowWrite],
      denyWrite: [...policy.denyWrite],
    };
    const { argv, env } = await manager.wrapWithSandboxArgv(
      line,
      undefined,
      { filesystem, network: { allowedDomains: [] } },
      undefined,
      launch.cwd,
      { commandId, commandText: line },
    );
    // The wrap's environment is this process's plus the proxy settings; the server keeps its own.
    const added: Record<string, string> = {};
    for (const [name, value] of Object.entries(env))
      if (value !== undefined && process.env[name] !== value) added[name] = value;
    if (policy.allowedDomains.length > 0)
      manager.registerCommandNetworkLists(commandId, { allowedDomains: [...policy.allowedDomains] });
    let released = false;
    return {
      command: argv[0],
      args: argv.slice(1),
      env: { ...launch.env, ...added },
      cwd: launch.cwd,
      release: () => {
        if (released) return;
        released = true;
        manager.unregisterCommandNetworkLists(commandId);
      },
    };
  }

  async dispose(): Promise<void> {
    const ready = this.ready;
    this.ready = undefined;
    const manager = await ready?.catch(() => undefined);
    await manager?.reset();
  }

  private manager(): Promise<Manager> {
    this.ready ??= this.start().catch((error: unknown) => {
      this.ready = undefined; // installing what was missing and restarting the server tries again
      throw error;
    });
    return this.ready;
  }

  private async start(): Promise<Manager> {
    if (this.platform !== 'linux' && this.platform !== 'darwin') {
      throw new SandboxUnavailableError(
        `"sandbox" needs Linux or macOS (this is ${this.platform}); remove it to run the server unsandboxed`,
      );
    }
    let manager: Manager;
    try {
      manager = (await this.load()).SandboxManager;
    } catch (error) {
      throw new SandboxUnavailableError(
        `the sandbox runtime could not be loaded (${(error as Error).message}); reinstall MCP Host`,
      );
    }
    if (!manager.isSupportedPlatform())
      throw new SandboxUnavailableError(
        'this system cannot run the sandbox (WSL 1 has no bubblewrap); use WSL 2 or remove "sandbox"',
      );
    const { errors } = await manager.checkDependenciesAsync();
    if (errors.length > 0) {
      const install =
        this.platform === 'linux'
          ? ': install them (for example `sudo apt-get install bubblewrap socat ripgrep`) and restart the server'
          : '';
      throw new SandboxUnavailableError(
        `the sandbox cannot run here: ${errors.join('; ')}${install}, or remove "sandbox"`,
      );
    }
    // Nothing by default: each server's wrap brings its own rules and allow list.
    await manager.initialize({
      network: { allowedDomains: [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    });
    return manager;
  }
}
