/**
 * An ACP client for the e2e tests and the benchmark: the SDK's own client side (`client()` and
 * `ndJsonStream`) connected to a spawned `kodo --acp`. It records every update, answers
 * permission requests with a chosen option and, when asked to, serves the file system methods
 * from the disk (recording each call, as an editor's buffers would see them).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { KODO_BIN } from '@kodo/testkit';
import { FakeEditorTerminals } from './acp-terminals';

export interface AcpHarnessOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  args?: string[];
  /** The option to pick for each permission request (default `proceed_once`); `cancelled` answers so. */
  permission?: string | ((request: acp.RequestPermissionRequest) => string);
  /** Advertise and serve `fs/read_text_file` and `fs/write_text_file`. */
  fileSystem?: boolean;
  /** Advertise and serve `terminal/*` (real processes, see acp-terminals.ts). */
  terminal?: boolean;
}

export interface AcpHarness {
  readonly child: ChildProcessWithoutNullStreams;
  readonly agent: acp.ClientContext;
  readonly updates: acp.SessionNotification[];
  readonly permissions: acp.RequestPermissionRequest[];
  readonly fsCalls: { method: string; path: string }[];
  /** The editor's terminals (used only when `terminal` is set). */
  readonly terminals: FakeEditorTerminals;
  stderr(): string;
  initialize(): Promise<acp.InitializeResponse>;
  /** Resolves once the agent has sent an update matching `test` (or rejects after `timeoutMs`). */
  waitForUpdate(test: (update: acp.SessionUpdate) => boolean, timeoutMs?: number): Promise<acp.SessionUpdate>;
  /** Closes stdin and waits for kodo to exit; returns its exit code. */
  close(): Promise<number | null>;
}

export function startAcpKodo(options: AcpHarnessOptions): AcpHarness {
  const env: Record<string, string> = { KODO_TRUST_WORKSPACE: 'true' };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.env)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, [KODO_BIN, '--acp', ...(options.args ?? [])], {
    cwd: options.cwd,
    env,
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const fsCalls: { method: string; path: string }[] = [];
  const waiters = new Set<() => void>();
  const terminals = new FakeEditorTerminals();
  const app = acp
    .client({ name: 'kodo-e2e' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const wake of waiters) wake();
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      const choice =
        typeof options.permission === 'function'
          ? options.permission(params)
          : (options.permission ?? 'proceed_once');
      return choice === 'cancelled'
        ? { outcome: { outcome: 'cancelled' } }
        : { outcome: { outcome: 'selected', optionId: choice } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      fsCalls.push({ method: 'read', path: params.path });
      try {
        return { content: readFileSync(params.path, 'utf8') };
      } catch {
        throw acp.RequestError.resourceNotFound(params.path);
      }
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      fsCalls.push({ method: 'write', path: params.path });
      mkdirSync(dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', ({ params }) => terminals.create(params))
    .onRequest('terminal/output', ({ params }) => terminals.output(params))
    .onRequest('terminal/wait_for_exit', ({ params }) => terminals.waitForExit(params))
    .onRequest('terminal/kill', ({ params }) => terminals.kill(params))
    .onRequest('terminal/release', ({ params }) => terminals.release(params));
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  return {
    child,
    agent: connection.agent,
    updates,
    permissions,
    fsCalls,
    terminals,
    stderr: () => stderr,
    initialize: () =>
      connection.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          ...(options.fileSystem ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
          ...(options.terminal ? { terminal: true } : {}),
        },
        clientInfo: { name: 'kodo-e2e', version: '0' },
      }),
    waitForUpdate(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = updates.find((notification) => test(notification.update));
          if (!found) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found.update);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No matching update within ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      connection.close();
      return code;
    },
  };
}

/** The text of the agent's message chunks in `updates`, joined. */
export function agentText(updates: readonly acp.SessionNotification[]): string {
  return updates
    .map(({ update }) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? update.content.text
        : '',
    )
    .join('');
}
