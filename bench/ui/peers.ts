// The peer agents the UI benchmark measures beside kodo: each installed from npm at a pinned version
// into a cache folder outside the repository (on first use), given a temporary home whose config
// skips every first-run screen (onboarding, trust, login, theme, API-key approval, updates), and
// pointed at the testkit's mock for its own wire protocol.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  anthropicTextReply,
  responsesTextReply,
  type ScriptedMock,
  startAnthropicMock,
  startOpenAIResponsesMock,
} from '@kodo/testkit';

type WireObject = Record<string, unknown>;
type MockRequest = ScriptedMock['requests'][number];

export type PeerProtocol = 'anthropic' | 'openai-responses';

export interface Peer {
  id: string;
  /** The folder it installs into, when several variants share one install. */
  installId?: string;
  name: string;
  /** The npm package and the version measured (pinned, so runs compare). */
  pkg: string;
  version: string;
  protocol: PeerProtocol;
  /** The first character of the input row (the last row of the screen that starts with it). */
  promptMark: string;
  /** How the peer was set up, for the report. */
  setup: string;
  /** The command that starts the peer installed in `dir`, and the installed file it runs. */
  launch(dir: string): { command: string; file: string };
  /** Writes the config that skips the first-run screens into `home`; returns the environment. */
  prepare(options: { home: string; cwd: string; mockUrl: string }): Record<string, string>;
}

const ANTHROPIC_KEY = 'sk-ant-kodo-bench-0123456789abcdefghij';

/**
 * Claude Code draws full-screen (alternate screen, its default on a fresh install) or inline (its
 * "classic" renderer). It falls back to classic by itself after launches that were killed while the
 * full-screen renderer was starting, as the launch rounds do, so each variant is pinned by the
 * environment variable Claude Code documents for it.
 */
function claudeCode(renderer: 'fullscreen' | 'classic'): Peer {
  const rendererEnv: Record<string, string> =
    renderer === 'fullscreen'
      ? { CLAUDE_CODE_NO_FLICKER: '1' }
      : { CLAUDE_CODE_DISABLE_ALTERNATE_SCREEN: '1' };
  return {
    id: renderer === 'fullscreen' ? 'claude-code' : 'claude-code-classic',
    installId: 'claude-code',
    name: renderer === 'fullscreen' ? 'Claude Code' : 'Claude Code (classic)',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.332',
    protocol: 'anthropic',
    promptMark: '❯',
    setup:
      'ANTHROPIC_BASE_URL → the Anthropic mock; ~/.claude.json with onboarding done, the folder trusted, the key ' +
      `approved; ${Object.keys(rendererEnv)[0]}=1 (${renderer} renderer)`,
    launch(dir) {
      // The package's postinstall copies the platform binary over bin/claude.exe; run the platform
      // binary itself so an install that skipped scripts works too.
      const scope = join(dir, 'node_modules', '@anthropic-ai');
      const native = [`${process.platform}-${process.arch}`, `${process.platform}-${process.arch}-musl`]
        .map((target) => join(scope, `claude-code-${target}`, 'claude'))
        .find((path) => existsSync(path));
      const file = native ?? join(scope, 'claude-code', 'bin', 'claude.exe');
      return { command: file, file };
    },
    prepare({ home, cwd, mockUrl }) {
      const config = {
        hasCompletedOnboarding: true,
        lastOnboardingVersion: this.version,
        lastReleaseNotesSeen: this.version,
        theme: 'dark',
        numStartups: 1,
        hasSeenAutoDefaultNotice: true,
        officialMarketplaceAutoInstallAttempted: true,
        // Claude Code asks once whether to use an API key from the environment; it remembers the answer
        // by the key's last 20 characters.
        customApiKeyResponses: { approved: [ANTHROPIC_KEY.slice(-20)], rejected: [] },
        projects: {
          [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] },
        },
      };
      writeFileSync(join(home, '.claude.json'), JSON.stringify(config, null, 2));
      return {
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: mockUrl,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...rendererEnv,
      };
    },
  };
}

export const PEERS: Peer[] = [
  claudeCode('fullscreen'),
  claudeCode('classic'),
  {
    id: 'codex',
    name: 'Codex',
    pkg: '@openai/codex',
    version: '0.171.0',
    protocol: 'openai-responses',
    promptMark: '›',
    setup:
      'CODEX_HOME/config.toml: a model provider with base_url → the Responses mock, the folder trusted, no update check; --no-daemon',
    launch(dir) {
      // The npm launcher (node) starts the native binary as its child: both are measured. Without
      // --no-daemon the TUI talks to a background app-server that outlives the run.
      const file = join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
      return { command: `${process.execPath} ${file} --no-daemon`, file };
    },
    prepare({ home, cwd, mockUrl }) {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      // A model Codex knows (its metadata), so no "model not found" warning or migration prompt.
      const toml = [
        'model = "gpt-6-sol"',
        'model_provider = "kodo-bench-mock"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.kodo-bench-mock]',
        'name = "kodo bench mock"',
        `base_url = ${JSON.stringify(mockUrl)}`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        '',
        `[projects.${JSON.stringify(cwd)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n');
      writeFileSync(join(codexHome, 'config.toml'), toml);
      return { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-kodo-bench' };
    },
  },
];

/** Where a peer is installed: `$KODO_BENCH_PEERS_DIR/<id>`, default `~/.cache/kodo-bench-peers/<id>`. */
export function peerDir(peer: Peer): string {
  const root = process.env.KODO_BENCH_PEERS_DIR ?? join(homedir(), '.cache', 'kodo-bench-peers');
  return join(root, peer.installId ?? peer.id);
}

/** The peers asked for by `KODO_BENCH_PEERS` (ids, comma-separated; `none` for none), default all. */
export function selectedPeers(): Peer[] {
  const wanted = process.env.KODO_BENCH_PEERS;
  if (wanted === undefined || wanted === '') return PEERS;
  const ids = wanted.split(',').map((id) => id.trim());
  return PEERS.filter((peer) => ids.includes(peer.id));
}

/** Installs the pinned version on first use; returns the command, or throws saying why not. */
export function installPeer(peer: Peer): string {
  const dir = peerDir(peer);
  const manifest = join(dir, 'node_modules', ...peer.pkg.split('/'), 'package.json');
  const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
  if (installed !== peer.version) {
    console.log(`Installing ${peer.pkg}@${peer.version} into ${dir} (first use)…`);
    mkdirSync(dir, { recursive: true });
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${peer.pkg}@${peer.version}`,
      ],
      { encoding: 'utf8', timeout: 600_000, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    if (npm.status !== 0) {
      // npm's first lines say what failed (`code E404`, `FetchError: …`); the last, where its log is.
      const lines = (npm.stderr ?? '').split('\n').map((line) => line.replace(/^npm error\s*/, '').trim());
      const said = lines.filter((line) => /^code |Error/.test(line)).slice(0, 2);
      const reason = npm.error?.message ?? (said.length ? said.join('; ') : `exit ${npm.status}`);
      throw new Error(`npm install failed: ${reason}`);
    }
  }
  const { command, file } = peer.launch(dir);
  if (!existsSync(file)) throw new Error(`installed, but ${file} is missing`);
  return command;
}

/** A temporary home for a peer, in its cache folder (Codex refuses some setup under /tmp). */
export function peerHome(peer: Peer): { home: string; remove(): void } {
  const home = mkdtempSync(join(peerDir(peer), 'home-'));
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

export function startPeerMock(protocol: PeerProtocol): Promise<ScriptedMock> {
  return protocol === 'anthropic' ? startAnthropicMock() : startOpenAIResponsesMock();
}

/** What a served answer was: the request that got it and where its text events are. */
export interface ServedAnswer {
  /** The request answered with the stream: when each event left, and when the exchange ended. */
  request(): { chunkSentAt: number[]; settled: Promise<unknown> } | undefined;
  /** Indexes of the first and last text events among the stream's events (for chunkSentAt). */
  firstText: number;
  lastText: number;
}

/**
 * Scripts `mock` so the request whose last user message holds exactly `prompt` streams `pieces`, one text
 * event each, `delayMs` apart; any other request (Codex asks for a title meanwhile) gets a short
 * answer at once.
 */
export function servePeerAnswer(
  mock: ScriptedMock,
  protocol: PeerProtocol,
  prompt: string,
  pieces: string[],
  delayMs: number,
): ServedAnswer {
  const events =
    protocol === 'anthropic'
      ? anthropicTextReply(pieces)
      : responsesTextReply(pieces, { model: 'gpt-6-sol' });
  const textType = protocol === 'anthropic' ? 'content_block_delta' : 'response.output_text.delta';
  const isText = (event: WireObject) => event.type === textType;
  let main: MockRequest | undefined;
  const entry = (request: MockRequest) => {
    const body = (request.body ?? {}) as { messages?: { role?: string }[]; input?: { role?: string }[] };
    // The last user message (Claude Code sends a system message after it).
    const asked = (body.messages ?? body.input ?? []).filter((item) => item.role === 'user').at(-1);
    if (!main && request.stream && JSON.stringify(asked ?? '').includes(JSON.stringify(prompt))) {
      main = request;
      return { chunks: events, delayMs };
    }
    return request.stream ? { chunks: shortReply(protocol) } : { response: shortResponse(protocol) };
  };
  mock.setScript(Array.from({ length: 50 }, () => entry));
  return {
    request: () => main,
    firstText: events.findIndex(isText),
    lastText: events.length - 1 - [...events].reverse().findIndex(isText),
  };
}

function shortReply(protocol: PeerProtocol): WireObject[] {
  return protocol === 'anthropic' ? anthropicTextReply('Bench title') : responsesTextReply('Bench title');
}

function shortResponse(protocol: PeerProtocol): WireObject {
  if (protocol === 'anthropic') {
    return {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'claude-mock',
      content: [{ type: 'text', text: 'Bench title' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 2 },
    };
  }
  return {
    id: 'resp_bench',
    object: 'response',
    status: 'completed',
    model: 'gpt-6-sol',
    output: [
      {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Bench title', annotations: [] }],
      },
    ],
    usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
  };
}
