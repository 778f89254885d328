// Interactive UI (issue S): launch → prompt ready to type, then a ~41.7 KB Markdown answer
// streamed fast (~2,500 tok/s) and slow (~250 tok/s) into a real 120×40 pseudo-terminal (util-linux
// `script`) from the testkit's Gemini mock: first token on screen after the mock sent it, key echo
// p50/p95/max while streaming, terminal bytes ÷ answer bytes, CPU during the stream and peak RSS.
// Peers (Claude Code, Codex; bench/ui/peers.ts) are measured the same way in the same run, each
// against the mock of its own wire protocol, interleaved with kodo so load drifts hit all of them.
// kodo's timings are read from the bytes the terminal receives; the peers' renderers write only
// the cells that changed, so theirs are read from a headless xterm fed the same bytes.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { geminiTextReply, startGeminiMock } from '@kodo/testkit';
import { fmt, median, printTable } from './table';
import { ANSWER } from './ui/answer';
import {
  installPeer,
  type Peer,
  peerHome,
  type ServedAnswer,
  selectedPeers,
  servePeerAnswer,
  startPeerMock,
} from './ui/peers';
import {
  childPid,
  lastOutput,
  openTerminal,
  percentile,
  sleep,
  type Terminal,
  treeCpuSeconds,
  treePeakRssMb,
} from './ui/pty-terminal';
import { kodoReader, READY, type Reader, screenReader } from './ui/readers';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const KODO_BIN = join(root, 'packages', 'cli', 'bin', 'kodo.cjs');
const PROMPT = 'stream a long answer';
/** Characters per token, as the rates are quoted (≈ 4 for English prose and code). */
const CHARS_PER_TOKEN = 4;
/** ~2,500 tok/s: 20 tokens every 8 ms; ~250 tok/s: 4 tokens every 16 ms. */
const FAST = { name: 'fast', tokensPerChunk: 20, delayMs: 8, keyEveryMs: 100 };
const SLOW = { name: 'slow', tokensPerChunk: 4, delayMs: 16, keyEveryMs: 400 };
type Rate = typeof FAST;
/** Keys typed per stream at most: they stay on one line of the 120-column input. */
const MAX_KEYS = 100;
/** KODO_BENCH_UI_DUMP=<dir>: the raw terminal bytes of each stream run are written there. */
const DUMP_DIR = process.env.KODO_BENCH_UI_DUMP;
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** kodo or a peer, as the runs start and read it. */
interface Agent {
  id: string;
  name: string;
  command: string;
  /** The command of the stream runs when it runs under a profiler (kodo with KODO_BENCH_NODE_FLAGS). */
  streamCommand?: string;
  env: Record<string, string>;
  emulate: boolean;
  reader: Reader;
  /** What a peer is (undefined for kodo). */
  peer?: Peer;
  /** Scripts the agent's mock so the next prompt streams `pieces`, `delayMs` apart. */
  serve(pieces: string[], delayMs: number): ServedAnswer;
}

const home = mkdtempSync(join(tmpdir(), 'kodo-bench-ui-home-'));
const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-bench-ui-cwd-')));
const baseEnv = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  KODO_HOME: home,
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
  // The folder-trust question comes before the UI; the temp folder is trusted for the benchmark.
  KODO_TRUST_WORKSPACE: 'true',
};
const mock = await startGeminiMock();
const cleanups: (() => unknown)[] = [() => mock.close()];
process.chdir(cwd);

try {
  // KODO_BENCH_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the streaming kodo.
  const flags = process.env.KODO_BENCH_NODE_FLAGS ?? '';
  const kodo: Agent = {
    id: 'kodo',
    name: 'kodo',
    command: `${process.execPath} ${KODO_BIN}`,
    streamCommand: flags ? `${process.execPath} ${flags} ${KODO_BIN}` : undefined,
    env: { ...baseEnv, GEMINI_API_KEY: 'bench', GOOGLE_GEMINI_BASE_URL: mock.url },
    emulate: false,
    reader: kodoReader,
    serve(pieces, delayMs) {
      mock.setScript([{ chunks: geminiTextReply(pieces), delayMs }]);
      const requestIndex = mock.requests.length;
      return { request: () => mock.requests[requestIndex], firstText: 0, lastText: pieces.length - 1 };
    },
  };
  const { peers, skipped } = await preparePeers(selectedPeers());
  /** Why a peer stopped being measured, by name. */
  const failed = new Map<string, string>(skipped);
  const fail = (agent: Agent, error: unknown) => {
    const reason = (error as Error).message.split('\n')[0]!.slice(0, 400);
    failed.set(agent.name, reason);
    console.log(`${agent.name}: skipped from here on: ${reason}`);
  };

  // 1. Launch → prompt ready, against the floor (node printing the marker in the same pty); kodo
  //    and the peers alternate within each round.
  const floor: Agent = { ...kodo, id: 'floor', name: 'floor: node in the same pty' };
  floor.command = `${process.execPath} -e "process.stdout.write('T${READY}')"`;
  const launches = new Map<string, { ms: number[]; rss: number[] }>();
  for (let round = 0; round < RUNS + 2; round += 1) {
    for (const agent of [floor, kodo, ...peers]) {
      if (failed.has(agent.name)) continue;
      const started = performance.now();
      const terminal = openTerminal(agent.command, agent.env, { emulate: agent.emulate, cwd });
      try {
        const { at } = await agent.reader.ready(terminal);
        const rss = agent === floor ? undefined : treePeakRssMb(childPid(terminal.child.pid!));
        if (round < 2) continue;
        const figures = launches.get(agent.id) ?? { ms: [], rss: [] };
        figures.ms.push(at - started);
        if (rss !== undefined) figures.rss.push(rss);
        launches.set(agent.id, figures);
      } catch (error) {
        if (agent === kodo || agent === floor) throw error;
        fail(agent, error);
      } finally {
        await terminal.close();
      }
    }
  }

  // 2. A long Markdown answer streamed fast, then slow, into a 120×40 terminal, agent after agent.
  const streams: StreamResult[] = [];
  for (const rate of [FAST, SLOW]) {
    for (const agent of [kodo, ...peers]) {
      if (failed.has(agent.name)) continue;
      try {
        streams.push(await streamRun(agent, rate));
      } catch (error) {
        if (agent === kodo) throw error;
        fail(agent, error);
      }
    }
  }

  console.log(
    `${RUNS} launches each (medians, 2 warm-up rounds, 100×30); then one session per rate and agent ` +
      `streaming a ${(ANSWER.length / 1024).toFixed(1)} KB Markdown answer into a 120×40 terminal with a key ` +
      `typed every ~100 ms (fast) or ~400 ms (slow), at most ${MAX_KEYS}, meanwhile. Load average at the ` +
      `start: ${loadAverage}.`,
  );
  for (const { peer } of peers) if (peer) console.log(`Peer ${peer.name} ${peer.version}: ${peer.setup}.`);
  for (const [name, reason] of failed) console.log(`Peer ${name} not measured (or not fully): ${reason}`);
  console.log('');
  const launchMs = (id: string) => median(launches.get(id)?.ms ?? [Number.NaN]);
  const launchFloor = launchMs('floor');
  printTable(
    [
      'agent',
      'launch → prompt ready (ms, median)',
      'over the floor (ms)',
      'peak RSS at prompt ready (MB, median)',
    ],
    [floor, kodo, ...peers]
      .filter((agent) => launches.has(agent.id))
      .map((agent) => {
        const rss = launches.get(agent.id)!.rss;
        return [
          agent.name,
          fmt(launchMs(agent.id)),
          agent === floor ? '-' : fmt(launchMs(agent.id) - launchFloor),
          rss.length ? fmt(median(rss)) : '-',
        ];
      }),
  );
  console.log('');
  const notShown = 'end not shown';
  printTable(
    [
      'agent',
      'stream',
      'tok/s (sent)',
      'first token on screen (ms)',
      'key echo p50 / p95 / max (ms)',
      'keys',
      'terminal ÷ answer bytes',
      'CPU during stream (s)',
      'peak RSS (MB)',
    ],
    streams.map((r) => [
      r.agent,
      r.name,
      fmt(r.tokensPerSecond),
      fmt(r.firstToken),
      r.echoes.length
        ? `${fmt(median(r.echoes))} / ${fmt(percentile(r.echoes, 95))} / ${fmt(Math.max(...r.echoes))}`
        : '-',
      `${r.echoes.length}${r.allKeysArrived ? '' : ' (LOST/REORDERED)'}`,
      r.endShown ? fmt(r.bytesRatio) : notShown,
      r.endShown ? fmt(r.cpuSeconds) : notShown,
      r.peakRss !== undefined ? fmt(r.peakRss) : '-',
    ]),
  );
  console.log('');
  const ofKodo = streams.filter((r) => r.agent === kodo.name);
  const fast = ofKodo.find((r) => r.name === FAST.name)!;
  const slow = ofKodo.find((r) => r.name === SLOW.name)!;
  const bestPeer = streams
    .filter((r) => r.agent !== kodo.name && r.name === FAST.name && r.endShown)
    .sort((a, b) => a.cpuSeconds - b.cpuSeconds)[0];
  const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
  printTable(
    ['budget', 'met'],
    [
      ['launch → prompt ready ≤ 500 ms', yes(launchMs(kodo.id) <= 500)],
      ['fast: key echo p95 ≤ 16 ms', yes(percentile(fast.echoes, 95) <= 16)],
      ['fast: key echo max ≤ 33 ms', yes(Math.max(...fast.echoes) <= 33)],
      ['fast: first token on screen ≤ 50 ms', yes(fast.firstToken <= 50)],
      ['fast: terminal bytes ≤ 3× the answer', yes(fast.endShown && fast.bytesRatio <= 3)],
      [
        "fast: CPU during the stream ≤ the best peer's in this run",
        bestPeer
          ? `${yes(fast.endShown && fast.cpuSeconds <= bestPeer.cpuSeconds)} (kodo ${fmt(fast.cpuSeconds)} s, ${bestPeer.agent} ${fmt(bestPeer.cpuSeconds)} s)`
          : 'no peer measured',
      ],
      ['slow: key echo p95 ≤ 16 ms', yes(percentile(slow.echoes, 95) <= 16)],
      ['peak RSS ≤ 120 MB', yes(ofKodo.every((r) => r.peakRss !== undefined && r.peakRss <= 120))],
      ["the answer's end on screen after each stream", yes(ofKodo.every((r) => r.endShown))],
      ['every key typed while streaming arrived, in order', yes(ofKodo.every((r) => r.allKeysArrived))],
    ],
  );
} catch (error) {
  // Show what the terminal had received, to tell a kodo failure from a harness one.
  console.error(`${(error as Error).message}\n${JSON.stringify(lastOutput().slice(-1500))}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}

/** Installs the peers (first use) and gives each a home and a mock; a peer that cannot is skipped. */
async function preparePeers(wanted: Peer[]) {
  const peers: Agent[] = [];
  const skipped: [string, string][] = [];
  for (const peer of wanted) {
    try {
      const command = installPeer(peer);
      const peerMock = await startPeerMock(peer.protocol);
      const { home: peerHomeDir, remove } = peerHome(peer);
      cleanups.push(() => peerMock.close(), remove);
      const env = {
        PATH: baseEnv.PATH,
        HOME: peerHomeDir,
        TERM: baseEnv.TERM,
        LANG: baseEnv.LANG,
        ...peer.prepare({ home: peerHomeDir, cwd, mockUrl: peerMock.url }),
      };
      peers.push({
        id: peer.id,
        name: peer.name,
        command,
        env,
        emulate: true,
        reader: screenReader(peer.promptMark),
        peer,
        serve: (pieces, delayMs) => servePeerAnswer(peerMock, peer.protocol, PROMPT, pieces, delayMs),
      });
    } catch (error) {
      const reason = (error as Error).message.split('\n')[0]!;
      console.log(`Peer ${peer.name} skipped: ${reason}`);
      skipped.push([peer.name, reason]);
    }
  }
  return { peers, skipped };
}

interface StreamResult {
  agent: string;
  name: string;
  tokensPerSecond: number;
  firstToken: number;
  echoes: number[];
  allKeysArrived: boolean;
  /** Whether the answer's end marker reached the screen (else bytes and CPU mean nothing). */
  endShown: boolean;
  bytesRatio: number;
  cpuSeconds: number;
  peakRss: number | undefined;
}

/** One session: the answer streamed at `rate` into a 120×40 terminal while keys are typed. */
async function streamRun(agent: Agent, rate: Rate): Promise<StreamResult> {
  const chunkChars = rate.tokensPerChunk * CHARS_PER_TOKEN;
  const pieces: string[] = [];
  for (let at = 0; at < ANSWER.length; at += chunkChars) pieces.push(ANSWER.slice(at, at + chunkChars));
  const served = agent.serve(pieces, rate.delayMs);
  const terminal = openTerminal(agent.streamCommand ?? agent.command, agent.env, {
    columns: 120,
    rows: 40,
    cwd,
    emulate: agent.emulate,
  });
  let offsets: Record<string, unknown> = { failed: true };
  try {
    const { reader } = agent;
    await reader.ready(terminal);
    await sleep(300);
    // The program under `script`; CPU and memory are its whole process tree's.
    const pid = childPid(terminal.child.pid!);
    terminal.type(PROMPT);
    await reader.typed(terminal, PROMPT);
    const submittedAt = terminal.output().length;
    terminal.type('\r');
    const shown = await reader.firstToken(terminal, submittedAt);
    const request = served.request();
    if (!request) throw new Error(`the answer is on screen, but the mock never streamed it`);
    const firstToken = shown.at - request.chunkSentAt[served.firstText]!;
    const cpuStart = treeCpuSeconds(pid);
    const echoes: number[] = [];
    // Keys nobody's answer contains (kodo draws each followed by its inverse-video cursor).
    const alphabet = 'zqxjkvwyZQXJKVWY';
    let typed = '';
    let settled = false;
    void request.settled.then(() => {
      settled = true;
    });
    while (!settled && typed.length < MAX_KEYS) {
      await sleep(rate.keyEveryMs * (0.8 + Math.random() * 0.4));
      if (settled) break;
      const key = alphabet[typed.length % alphabet.length]!;
      typed += key;
      const from = terminal.output().length;
      const sent = performance.now();
      terminal.type(key);
      const { at } = await reader.keyEcho(terminal, typed, from);
      echoes.push(at - sent);
    }
    const endShown = await reader.end(terminal, shown.offset).then(
      () => true,
      () => false,
    );
    const streamSeconds =
      (request.chunkSentAt[served.lastText]! - request.chunkSentAt[served.firstText]!) / 1000;
    // Let the last repaint land, then count what the terminal received for the answer.
    await sleep(500);
    const cpu = treeCpuSeconds(pid) - cpuStart;
    const bytes = Buffer.byteLength(terminal.output().slice(submittedAt));
    const allKeysArrived = reader.keysArrived(terminal, typed, shown.offset);
    const peakRss = treePeakRssMb(pid);
    offsets = { submittedAt, firstTokenAt: shown.offset, endShown };
    if (agent.streamCommand) {
      // A profiler writes its file only on a clean exit: Ctrl+C clears the typed keys, twice more quits.
      for (let press = 0; press < 3; press += 1) {
        terminal.type('\u0003');
        await sleep(300);
      }
      await sleep(3_000);
    }
    return {
      agent: agent.name,
      name: rate.name,
      tokensPerSecond: ANSWER.length / CHARS_PER_TOKEN / streamSeconds,
      firstToken,
      echoes,
      allKeysArrived,
      endShown,
      bytesRatio: bytes / Buffer.byteLength(ANSWER),
      cpuSeconds: cpu,
      peakRss,
    };
  } finally {
    if (DUMP_DIR) dump(agent, rate, terminal, offsets);
    await terminal.close();
  }
}

/** The raw bytes of a stream run (`<agent>-<rate>.ansi`) and where in them things happened. */
function dump(agent: Agent, rate: Rate, terminal: Terminal, offsets: Record<string, unknown>): void {
  mkdirSync(DUMP_DIR!, { recursive: true });
  const base = join(DUMP_DIR!, `${agent.id}-${rate.name}`);
  writeFileSync(`${base}.ansi`, terminal.output());
  const meta = { agent: agent.name, command: agent.streamCommand ?? agent.command, columns: 120, rows: 40 };
  writeFileSync(`${base}.json`, `${JSON.stringify({ ...meta, ...offsets }, null, 2)}\n`);
}
