import { existsSync } from 'node:fs';
import type {
  CommandSandbox,
  CommandSpec,
  PreparedCommand,
  SandboxPolicy,
  SandboxStatus,
} from '../../contracts/sandbox';
import { loadBuiltin } from '../../utils/builtin';
import { controlPaths } from './control-files';
import { isUnder, privateTempTargets } from './host-paths';
import { bwrapModelNote } from './model-note';
import { type DynamicMounts, policyMounts } from './mounts';
import { isSeccompArch, seccompProgram } from './seccomp';
import { SessionFiles } from './session-files';

/**
 * Linux sandbox with bubblewrap. The command sees the host's `/` read-only and its own `/dev`,
 * `/proc`, PID, IPC and UTS namespaces, and private per-session `/tmp`, `/var/tmp` and
 * `/dev/shm`; the policy's writable paths are bound read-write, the control files inside them
 * read-only again, hidden paths (kodo's home, credentials, the host's socket directories) are
 * covered by empty mounts, a seccomp filter refuses `socket(AF_UNIX)`, and without network it
 * gets a network namespace with only a loopback of its own. `--die-with-parent` plus the PID
 * namespace mean that when kodo dies, every process the command started dies too (the
 * namespace's init takes them down). docs/security.md (Sandbox) explains each choice.
 */

/** Marks the environment of a sandboxed command (and tells a nested kodo not to sandbox again). */
export const SANDBOX_ENV_VALUE = 'kodo-bwrap';

/** Sockets that lead out of any sandbox: the Docker daemon is root on the host. */
const HOST_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman/podman.sock'];

/** Variables that point at host resources the sandbox hides; a command must not go looking. */
const HOST_ONLY_ENV = [
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'DOCKER_HOST',
];

/** The descriptor number the seccomp program arrives on (stdin, stdout, stderr come first). */
const SECCOMP_FD = 3;

export const BWRAP_MISSING_MESSAGE =
  'The sandbox needs bubblewrap (`bwrap`), which is not installed. Install the `bubblewrap` package ' +
  '(Debian/Ubuntu: `sudo apt-get install bubblewrap`, Fedora: `sudo dnf install bubblewrap`, Arch: ' +
  '`sudo pacman -S bubblewrap`), or turn the sandbox off (setting `tools.sandbox: false`).';

/** The namespace and safety flags every run uses (the probe uses the same ones). */
export function bwrapIsolationArgs(options: { network: boolean }): string[] {
  return [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(options.network ? [] : ['--unshare-net']),
    '--die-with-parent',
    // Running as root, bwrap would keep every capability; a sandboxed command needs none.
    '--cap-drop',
    'ALL',
  ];
}

/**
 * The full bwrap argv (after the binary) for one command. `dynamic` are the parts that depend on
 * the session's files (private temp dirs, control files as they are now); `seccompFd` is where
 * the filter arrives, absent without one.
 */
export function bwrapArgs(
  policy: SandboxPolicy,
  spec: CommandSpec,
  options: { dynamic?: DynamicMounts; seccompFd?: number } = {},
): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const mount of policyMounts(policy, options.dynamic)) {
    if (mount.op === 'tmpfs') args.push('--tmpfs', mount.path);
    else if (mount.op === 'hide-file') args.push('--ro-bind', '/dev/null', mount.path);
    else if (mount.op === 'private') args.push('--bind', mount.source ?? mount.path, mount.path);
    else if (mount.op === 'protect') args.push('--ro-bind', mount.path, mount.path);
    else args.push(`--${mount.op}`, mount.path, mount.path);
  }
  for (const socket of hostSockets(spec.env, policy)) args.push('--ro-bind', '/dev/null', socket);
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  args.push(...bwrapIsolationArgs({ network: policy.network }));
  args.push('--chdir', spec.cwd, '--', spec.file, ...spec.args);
  return args;
}

/**
 * Sockets to cover with /dev/null where they are not hidden already: the container daemons and
 * the SSH agent (a key in all but name). A socket the user allowed stays.
 */
function hostSockets(env: NodeJS.ProcessEnv, policy: SandboxPolicy): string[] {
  const candidates = [...HOST_SOCKETS];
  if (env.SSH_AUTH_SOCK?.startsWith('/')) candidates.push(env.SSH_AUTH_SOCK);
  const covered = [...policy.hiddenPaths, ...privateTempTargets(policy.hostTempDir)];
  return candidates.filter(
    (path) =>
      existsSync(path) && !policy.unixSockets.includes(path) && !covered.some((dir) => isUnder(path, dir)),
  );
}

/** The environment inside: the host-only pointers dropped, the private temp dir named. */
function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, SANDBOX: SANDBOX_ENV_VALUE, TMPDIR: '/tmp' };
  for (const name of HOST_ONLY_ENV) delete out[name];
  return out;
}

export interface BwrapSandboxOptions {
  /** Absolute path of the bwrap binary. */
  binary: string;
  policy: SandboxPolicy;
  /** Tries bwrap once on this machine (default: runs `bwrap … true`). */
  probe?: () => Promise<SandboxStatus>;
  /**
   * Without a working bwrap: `error` refuses to run commands (sandbox asked for explicitly),
   * `unsandboxed` runs them as they are (automatic sandbox) after telling `onUnavailable` once.
   */
  whenUnavailable: 'error' | 'unsandboxed';
  onUnavailable?: (message: string) => void;
}

export class BwrapSandbox implements CommandSandbox {
  readonly kind = 'bwrap' as const;
  private probing: Promise<SandboxStatus> | undefined;
  private warned = false;

  private readonly files: SessionFiles;
  /** The policy with its hidden paths narrowed to those that exist (the long credential list). */
  private resolved: SandboxPolicy | undefined;

  constructor(private readonly options: BwrapSandboxOptions) {
    const arch = process.arch;
    const seccomp =
      options.policy.unixSockets.length === 0 && isSeccompArch(arch) ? () => seccompProgram(arch) : undefined;
    this.files = new SessionFiles({ parent: options.policy.hostTempDir, ...(seccomp ? { seccomp } : {}) });
  }

  describe(): string {
    return this.options.policy.network ? 'bwrap' : 'bwrap (no network)';
  }

  modelNote(): string {
    return bwrapModelNote(this.options.policy);
  }

  /** Removes the session's private temp dirs and the empty control files it created. */
  dispose(): void {
    this.files.dispose();
  }

  status(): Promise<SandboxStatus> {
    this.probing ??= (this.options.probe ?? (() => probeBwrap(this.options.binary)))();
    return this.probing;
  }

  async prepare(spec: CommandSpec): Promise<PreparedCommand> {
    const status = await this.status();
    if (!status.ok) {
      if (this.options.whenUnavailable === 'error') return { ok: false, message: status.message };
      if (!this.warned) {
        this.warned = true;
        this.options.onUnavailable?.(status.message);
      }
      return { ok: true, file: spec.file, args: spec.args, env: spec.env, sandboxed: false };
    }
    let dynamic: DynamicMounts;
    let seccompFd: number | undefined;
    const acquired: string[] = [];
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      for (const path of acquired) this.files.releaseMountPoint(path);
    };
    try {
      dynamic = this.dynamicMounts(acquired);
      seccompFd = this.files.openSeccomp();
    } catch (error) {
      release();
      return { ok: false, message: `The sandbox could not set up its files: ${(error as Error).message}` };
    }
    return {
      ok: true,
      file: this.options.binary,
      args: bwrapArgs(this.policy(), spec, {
        dynamic,
        ...(seccompFd !== undefined ? { seccompFd: SECCOMP_FD } : {}),
      }),
      env: sandboxEnv(spec.env),
      ...(seccompFd !== undefined ? { fds: [seccompFd] } : {}),
      sandboxed: true,
      release,
    };
  }

  /**
   * Checked once per session: a command cannot create a credential file (the home is read-only),
   * and the list is long enough that stat-ing it per command would show in the sandbox bench.
   */
  private policy(): SandboxPolicy {
    this.resolved ??= {
      ...this.options.policy,
      hiddenPaths: this.options.policy.hiddenPaths.filter((path) => existsSync(path)),
    };
    return this.resolved;
  }

  /**
   * The private temp dirs, and the control files as they are on disk now: missing ones become
   * mount points for this command (listed in `acquired`, to release when it ends).
   */
  private dynamicMounts(acquired: string[]): DynamicMounts {
    const { policy } = this.options;
    const privateTemp = privateTempTargets(policy.hostTempDir).map((path, index) => ({
      path,
      source: this.files.tempDir(index),
    }));
    const protect: string[] = [];
    for (const root of policy.protectedRoots) {
      const madeByKodo = (path: string) => this.files.isMountPoint(path);
      for (const control of controlPaths(root, policy.protectedExempt, { madeByKodo })) {
        if (this.files.acquireMountPoint(control)) acquired.push(control.path);
        else if (control.missing && !existsSync(control.path)) continue;
        protect.push(control.path);
      }
    }
    return { privateTemp, protect };
  }
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Starts `bwrap … true` with the isolation flags of a real run. Containers and hardened kernels
 * often forbid the user namespaces bwrap needs; that shows up here, with bwrap's own message.
 */
export async function probeBwrap(binary: string): Promise<SandboxStatus> {
  // Loaded here: the session creates its sandbox at startup, and spawning waits for first use.
  const { spawn } = loadBuiltin('node:child_process');
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push(...bwrapIsolationArgs({ network: false }), '--', 'true');
  return new Promise((resolve) => {
    let stderr = '';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      resolve({ ok: false, message: unavailableMessage((error as Error).message) });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, message: unavailableMessage(error.message) });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, message: unavailableMessage(stderr.trim() || `exit ${code ?? signal}`) });
    });
  });
}

function unavailableMessage(detail: string): string {
  return (
    `The bubblewrap sandbox cannot start on this machine: ${detail}. bwrap needs unprivileged user ` +
    'namespaces (check `sysctl kernel.unprivileged_userns_clone`, AppArmor ' +
    "`kernel.apparmor_restrict_unprivileged_userns`, or the container's seccomp profile), or turn the " +
    'sandbox off (setting `tools.sandbox: false`).'
  );
}
