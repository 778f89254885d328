import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SHELL_OUTPUT_CHARS, shellTool } from '../../src/tools/builtin/shell';
import { capToolOutput, type OutputLimit } from '../../src/tools/output-limit';
import { BackgroundJobs } from '../../src/tools/shell/background-jobs';
import { LiveOutput } from '../../src/tools/shell/live-output';
import { OutputCollector, TailBuffer } from '../../src/tools/shell/output-collector';
import { AnsiStripper } from '../../src/utils/terminal-text';
import { runTool, text } from './helpers';

let ws: TempWorkspace;
let spillDir: string;
beforeEach(() => {
  ws = createTempWorkspace();
  spillDir = join(ws.root, '.tmp');
});
afterEach(() => ws.cleanup());

/** Session services with this cap; `dir` null = no temp dir to save to. */
function withLimit(thresholdChars: number, dir: string | null = spillDir): OutputLimit {
  const outputLimit = { thresholdChars, spillDir: dir ?? undefined };
  ws.ctx.shell = { jobs: new BackgroundJobs({ logDir: undefined }), outputLimit };
  return outputLimit;
}

const shell = (args: Record<string, unknown>, onOutput?: (chunk: string) => void) =>
  runTool(shellTool, args, ws.ctx, onOutput ? { onOutput } : {});

/** `Output too large. Showing first H and last T characters. For full output see: <file>` */
const NOTICE =
  /^<untrusted_context>\nOutput: Output too large\. Showing first ([\d,]+) and last ([\d,]+) characters\. For full output see: (\S+)\n/;
const num = (grouped: string) => Number(grouped.replace(/,/g, ''));

describe('run_shell_command output size', () => {
  it('gives the model head + tail + the saved file, under the cap, so the scheduler leaves it alone', async () => {
    const limit = withLimit(2000);
    const result = await shell({ command: 'seq 1 100000; echo "exit soon" >&2; exit 4' });
    const content = text(result);
    expect(content.length).toBeLessThanOrEqual(2000);
    const match = NOTICE.exec(content);
    expect(match).not.toBeNull();
    const [headChars, tailChars, file] = [num(match![1]!), num(match![2]!), match![3]!];
    expect(headChars).toBeGreaterThan(300);
    expect(tailChars).toBeGreaterThan(4 * headChars - 4);
    expect(file.startsWith(join(spillDir, 'tool-outputs', 'run_shell_command_'))).toBe(true);
    // The file holds everything, in order.
    const full = readFileSync(file, 'utf8');
    expect(full).toBe(`${Array.from({ length: 100000 }, (_, i) => i + 1).join('\n')}\nexit soon\n`);
    expect(content).toContain('\n1\n2\n3\n');
    expect(content).toContain('\n99999\n100000\nexit soon\nExit Code: 4\nProcess Group PGID: ');
    expect(content).toMatch(/\n\.\.\. \[[\d,]+ characters omitted\] \.\.\.\n/);
    const omitted = num(/\[([\d,]+) characters omitted\]/.exec(content)![1]!);
    expect(omitted + headChars + tailChars).toBe(full.length - 1); // the final newline is trimmed, not omitted
    expect(await capToolOutput(content, { limit, callId: 'c', promptId: 'p' })).toBe(content);
    expect(result.returnDisplay).toMatch(/^Output too large\./);
  });

  it('keeps a result that fits whole, and cuts one that only the wrapper pushes over the cap', async () => {
    withLimit(1000);
    const fits = text(await shell({ command: 'printf "%0900d" 0' }));
    expect(fits).toContain(`Output: ${'0'.repeat(900)}\nProcess Group PGID:`);
    const almost = text(await shell({ command: 'printf "%0990d" 0' }));
    expect(almost.length).toBeLessThanOrEqual(1000);
    const file = NOTICE.exec(almost)![3]!;
    expect(readFileSync(file, 'utf8')).toBe('0'.repeat(990));
  });

  it('says where the output would be when there is no temp dir to save it', async () => {
    withLimit(1000, null);
    const content = text(await shell({ command: 'seq 1 10000' }));
    expect(content).toMatch(/For full output see: \(not saved: no project temp directory\)\n/);
    expect(content.length).toBeLessThanOrEqual(1000);
  });

  it('reports a spill file that could not be written instead of failing the call', async () => {
    writeFileSync(join(ws.root, 'blocker'), '');
    withLimit(1000, join(ws.root, 'blocker')); // a file where the directory should be
    const result = await shell({ command: 'seq 1 10000' });
    expect(result.error).toBeUndefined();
    expect(text(result)).toMatch(/For full output see: \(not saved: .*ENOTDIR.*\)\n/);
    expect(text(result)).toContain('\n10000\nProcess Group PGID');
  });

  it("uses the scheduler's default cap (40,000) without session services", async () => {
    const content = text(await shell({ command: 'seq 1 100000' }));
    expect(content.length).toBeLessThanOrEqual(40_000);
    expect(content).toMatch(/\(not saved: no project temp directory\)/);
  });

  it('still bounds the output when the cap is disabled (threshold 0)', async () => {
    withLimit(0);
    const content = text(await shell({ command: 'seq 1 400000' })); // ~2.7 MB
    expect(content.length).toBeLessThanOrEqual(MAX_SHELL_OUTPUT_CHARS);
    expect(content.length).toBeGreaterThan(MAX_SHELL_OUTPUT_CHARS - 1000);
    expect(readdirSync(join(spillDir, 'tool-outputs'))).toHaveLength(1);
  });

  it('cuts cancelled output the same way', async () => {
    withLimit(1000);
    ws.ctx.shellInactivityTimeoutMs = 300;
    const content = text(await shell({ command: 'seq 1 10000; sleep 30' }));
    expect(content).toMatch(
      /^Command was automatically cancelled because it exceeded the timeout of 0\.0 minutes without output\. Below is the output before it was cancelled:\nOutput too large\. /,
    );
    expect(content.length).toBeLessThanOrEqual(1000);
    expect(content.endsWith('\n10000')).toBe(true);
  });

  it('strips escape sequences for the model even when they straddle chunks', async () => {
    withLimit(100_000);
    const command =
      "printf '\\033[3'; sleep 0.1; printf '1mred\\033]0;title'; sleep 0.1; printf '\\007 done\\n'";
    const chunks: string[] = [];
    const result = await shell({ command }, (chunk) => chunks.push(chunk));
    expect(text(result)).toContain('Output: red done\n');
    expect(chunks.join('')).toBe('\x1b[31mred\x1b]0;title\x07 done\n');
  });

  it('coalesces live output instead of passing on every chunk', async () => {
    withLimit(100_000);
    const chunks: string[] = [];
    const started = Date.now();
    await shell({ command: 'for i in $(seq 1 60); do echo line$i; sleep 0.005; done' }, (chunk) =>
      chunks.push(chunk),
    );
    const elapsed = Date.now() - started;
    expect(chunks.join('')).toBe(Array.from({ length: 60 }, (_, i) => `line${i + 1}\n`).join(''));
    // One chunk per 50 ms at most (plus the first and the final flush). The bound is relative to
    // the time the command took: on a loaded machine each `sleep` runs long, so an absolute count
    // would measure the machine, not the coalescing.
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 2);
  });
});

describe('OutputCollector', () => {
  it('keeps at most the limit in memory however much arrives', async () => {
    const collector = new OutputCollector({ limitChars: 1000, spillPath: () => undefined });
    const line = `${'x'.repeat(99)}\n`;
    for (let i = 0; i < 100_000; i++) collector.append(line);
    expect(collector.totalChars).toBe(10_000_000);
    expect(collector.retainedChars).toBeLessThanOrEqual(200 + 2 * 800 + line.length);
    const rendered = await collector.render(1000);
    expect(rendered.length).toBeLessThanOrEqual(1000);
  });

  it('asks the source to pause while the spill file is behind, and resumes it', async () => {
    const path = join(ws.root, 'spill.txt');
    const collector = new OutputCollector({ limitChars: 100, spillPath: () => path });
    const big = 'y'.repeat(2 * 1024 * 1024);
    expect(collector.append(big)).toBe(false);
    await new Promise<void>((resolve) => collector.onDrain(resolve));
    expect(collector.append('tail\n')).toBe(true);
    const rendered = await collector.render(500);
    expect(rendered).toContain(`For full output see: ${path}`);
    expect(readFileSync(path, 'utf8')).toBe(`${big}tail\n`);
  });

  it('never drops a character up to the limit, whatever the rounding', async () => {
    const collector = new OutputCollector({ limitChars: 7, spillPath: () => undefined });
    for (const chunk of ['ab', 'cde', 'fg']) collector.append(chunk);
    expect(await collector.render(7)).toBe('abcdefg');
  });
});

describe('AnsiStripper', () => {
  it('holds back a sequence cut by a chunk boundary', () => {
    const stripper = new AnsiStripper();
    const out = ['a\x1b', '[1;3', '1mb\x1b]8;;http://x', '\x1b\\c\x1b'].map((chunk) => stripper.push(chunk));
    expect(out).toEqual(['a', '', 'b', 'c']);
    expect(stripper.end()).toBe('\x1b');
  });

  it('holds back and strips 8-bit (C1) sequences cut by a chunk boundary too', () => {
    const stripper = new AnsiStripper();
    const out = ['a\u009b', '2Jb\u009d0;ti', 'tle\u0007c\u009d8;;x\u001b', '\\d'].map((chunk) =>
      stripper.push(chunk),
    );
    expect(out).toEqual(['a', 'b', 'c', 'd']);
    expect(stripper.end()).toBe('');
  });
});

describe('LiveOutput', () => {
  it('sends the first chunk at once and the rest coalesced per interval', async () => {
    const sent: string[] = [];
    const live = new LiveOutput((chunk) => sent.push(chunk), { intervalMs: 40, maxPendingChars: 1000 });
    for (let i = 0; i < 10; i++) live.push(`${i}`);
    expect(sent).toEqual(['0']);
    await sleep(80);
    expect(sent).toEqual(['0', '123456789']);
    live.push('x');
    live.flush();
    expect(sent.join('')).toBe('0123456789x');
  });

  it('keeps only the newest text when too much arrives within one interval', () => {
    const sent: string[] = [];
    const live = new LiveOutput((chunk) => sent.push(chunk), { intervalMs: 1000, maxPendingChars: 10 });
    live.push('first');
    for (let i = 0; i < 100; i++) live.push('abcdefghij');
    live.push('0123456789');
    live.flush();
    expect(sent).toEqual(['first', '0123456789']);
  });
});

describe('TailBuffer', () => {
  it('keeps the last characters and counts the rest', () => {
    const buffer = new TailBuffer(5);
    for (const chunk of ['abc', 'defg', 'hij', 'k']) buffer.append(chunk);
    expect(buffer.text()).toBe('ghijk');
    expect(buffer.omitted).toBe(6);
  });
});
