import type { CommandSandbox, CommandSpec, PreparedCommand, SandboxStatus } from '../../contracts/sandbox';
import { loadBuiltin } from '../../utils/builtin';
import { PID_NAMESPACE_NOTE } from './model-note';

/**
 * Not a sandbox: with the sandbox off, every command still runs in its own PID namespace
 * (`bwrap --dev-bind / / --unshare-pid`), with the filesystem, network and user as they are. A
 * process that leaves the command's process group (`setsid`, a double fork) would otherwise
 * outlive the session; in the namespace it dies with the command's init, which dies with its
 * command or, through `--die-with-parent`, with kodo. Where bwrap cannot start (no user
 * namespaces), commands run as before, in a process group only.
 */
export class PidNamespaceWrapper implements CommandSandbox {
  readonly kind = 'pid-namespace' as const;
  private probing: Promise<SandboxStatus> | undefined;

  constructor(
    private readonly options: {
      binary: string;
      /** Tries the wrapper once (default: runs it around `true`). */
      probe?: () => Promise<SandboxStatus>;
    },
  ) {}

  describe(): string {
    return 'no sandbox';
  }

  modelNote(): string {
    return PID_NAMESPACE_NOTE;
  }

  status(): Promise<SandboxStatus> {
    this.probing ??= (this.options.probe ?? (() => probeWrapper(this.options.binary)))();
    return this.probing;
  }

  async prepare(spec: CommandSpec): Promise<PreparedCommand> {
    const status = await this.status();
    if (!status.ok) return { ok: true, file: spec.file, args: spec.args, env: spec.env, sandboxed: false };
    return {
      ok: true,
      file: this.options.binary,
      args: [...pidNamespaceArgs(), '--chdir', spec.cwd, '--', spec.file, ...spec.args],
      env: spec.env,
      sandboxed: false,
    };
  }
}

/**
 * The whole host as it is (`--dev-bind` keeps devices usable) with a /proc of the namespace's
 * own, so `$$` and `/proc/self` agree. No `--cap-drop`: an unsandboxed command keeps what kodo has.
 */
export function pidNamespaceArgs(): string[] {
  return ['--dev-bind', '/', '/', '--proc', '/proc', '--unshare-pid', '--die-with-parent'];
}

async function probeWrapper(binary: string): Promise<SandboxStatus> {
  const { spawn } = loadBuiltin('node:child_process');
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(binary, [...pidNamespaceArgs(), '--', 'true'], { stdio: 'ignore' });
    } catch (error) {
      resolve({ ok: false, message: (error as Error).message });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, message: error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, message: `exit ${code ?? signal}` });
    });
  });
}
