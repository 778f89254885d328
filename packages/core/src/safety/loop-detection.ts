/**
 * Detects a model stuck in a loop within one prompt: the same tool call (or cycle of calls)
 * repeated, or the same sentence chanted in its text. False positives on legitimate batch work
 * are the most common complaint about such detectors, so only exact repeats count (different
 * arguments never do), polling tools are exempt, and every threshold is configurable.
 */

export interface LoopDetectionOptions {
  enabled: boolean;
  /** How many times a call or cycle must repeat back to back (default 5). */
  toolCallRepeats: number;
  /** Longest cycle of calls looked for (default 5: A-B-C-D-E repeated). */
  maxCycleLength: number;
  /** How often one 50-character window of text must recur close together (default 10). */
  contentRepeats: number;
  /** Tools whose identical repeats are normal (polling). */
  exemptTools: readonly string[];
}

export const DEFAULT_LOOP_DETECTION: LoopDetectionOptions = {
  enabled: true,
  toolCallRepeats: 5,
  maxCycleLength: 5,
  contentRepeats: 10,
  exemptTools: ['read_background_output', 'list_background_processes', 'write_todos'],
};

export type LoopKind = 'consecutive_identical_tool_calls' | 'chanting_identical_sentences';

export interface LoopDetection {
  kind: LoopKind;
  /** For the nudge sent to the model. */
  detail: string;
}

const KEY_HISTORY = 25;
const WINDOW = 50;
const BUFFER_LIMIT = 5_000;
const MAX_AVERAGE_DISTANCE = 250;
const MAX_DISTINCT_GAPS = 5;

export class LoopDetector {
  private keys: string[] = [];
  private buffer = '';
  /** Start offset of each occurrence of a window text, in absolute stream positions. */
  private occurrences = new Map<string, number[]>();
  private consumed = 0;
  private inCodeFence = false;

  constructor(private readonly options: LoopDetectionOptions = DEFAULT_LOOP_DETECTION) {}

  /** Forget everything (a new prompt). */
  reset(): void {
    this.keys = [];
    this.resetContent();
  }

  onToolCall(name: string, args: Record<string, unknown>): LoopDetection | undefined {
    if (!this.options.enabled) return undefined;
    // A tool call ends any chanting run: the model is acting, not repeating itself.
    this.resetContent();
    if (this.options.exemptTools.includes(name)) return undefined;
    const key = `${name}:${stableJson(args)}`;
    this.keys.push(key);
    if (this.keys.length > KEY_HISTORY) this.keys.shift();
    const repeats = this.options.toolCallRepeats;
    for (let cycle = 1; cycle <= this.options.maxCycleLength; cycle += 1) {
      if (this.keys.length < cycle * repeats) break;
      if (isRepeatedCycle(this.keys, cycle, repeats)) {
        const detail =
          cycle === 1
            ? `Repeated tool call: ${name} with arguments ${stableJson(args)}`
            : `Repeated cycle of ${cycle} tool calls ending with: ${name} with arguments ${stableJson(args)}`;
        return { kind: 'consecutive_identical_tool_calls', detail };
      }
    }
    return undefined;
  }

  onContent(text: string): LoopDetection | undefined {
    if (!this.options.enabled || text === '') return undefined;
    if (/(^|\n)\s*(```|~~~)/.test(text)) {
      // Code is often legitimately repetitive: reset and skip what is inside fences.
      const fences = text.match(/(^|\n)\s*(```|~~~)/g)?.length ?? 0;
      if (fences % 2 === 1) this.inCodeFence = !this.inCodeFence;
      this.resetContent();
      return undefined;
    }
    if (this.inCodeFence) return undefined;
    // Structured text (tables, lists, headings, quotes) repeats by design.
    if (/(^|\n)\s*(\||[-*+] |\d+[.)] |#{1,6} |> )/.test(text) || /^[\s=\-_*]+$/.test(text)) {
      this.resetContent();
      return undefined;
    }
    return this.appendText(text);
  }

  private appendText(text: string): LoopDetection | undefined {
    const previousLength = this.buffer.length;
    this.buffer += text;
    // Hash every new 50-char window (step 1) that ends inside the new text.
    for (let end = Math.max(WINDOW, previousLength + 1); end <= this.buffer.length; end += 1) {
      const start = end - WINDOW;
      const window = this.buffer.slice(start, end);
      const positions = this.occurrences.get(window) ?? [];
      positions.push(this.consumed + start);
      if (positions.length > this.options.contentRepeats) positions.shift();
      this.occurrences.set(window, positions);
      if (positions.length >= this.options.contentRepeats && this.isChant(positions)) {
        return {
          kind: 'chanting_identical_sentences',
          detail: `Repeating content detected: "${window.trim()}..."`,
        };
      }
    }
    this.trimBuffer();
    return undefined;
  }

  /** Close together, and what lies between the repeats is (nearly) always the same. */
  private isChant(positions: number[]): boolean {
    const span = positions.at(-1)! - positions[0]!;
    const averageDistance = span / (positions.length - 1);
    if (averageDistance > MAX_AVERAGE_DISTANCE) return false;
    const gaps = new Set<string>();
    for (let i = 1; i < positions.length; i += 1) {
      const from = positions[i - 1]! - this.consumed + WINDOW;
      const to = positions[i]! - this.consumed;
      gaps.add(from <= to ? this.buffer.slice(Math.max(0, from), Math.max(0, to)) : '');
    }
    return gaps.size <= MAX_DISTINCT_GAPS;
  }

  /**
   * Drops text older than BUFFER_LIMIT and the occurrences that started in it. Only the windows
   * that start in the dropped text are touched (they are read back from the buffer before it is
   * cut): visiting every window on each chunk allocated a new array per window and made a long
   * answer churn through gigabytes of garbage.
   */
  private trimBuffer(): void {
    if (this.buffer.length <= BUFFER_LIMIT) return;
    const drop = this.buffer.length - BUFFER_LIMIT;
    for (let start = 0; start < drop; start += 1) {
      const window = this.buffer.slice(start, start + WINDOW);
      const positions = this.occurrences.get(window);
      // Positions grow, so an occurrence that is still recorded is the oldest one.
      if (positions?.[0] !== this.consumed + start) continue;
      positions.shift();
      if (positions.length === 0) this.occurrences.delete(window);
    }
    this.buffer = this.buffer.slice(drop);
    this.consumed += drop;
  }

  private resetContent(): void {
    this.buffer = '';
    this.occurrences = new Map();
    this.consumed = 0;
  }
}

function isRepeatedCycle(keys: string[], cycle: number, repeats: number): boolean {
  const tail = keys.slice(-cycle * repeats);
  for (let i = cycle; i < tail.length; i += 1) {
    if (tail[i] !== tail[i - cycle]) return false;
  }
  return true;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same call. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${stableJson(child)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const LOOP_NUDGE = (detail: string) =>
  `System: Potential loop detected. Details: ${detail}. Please take a step back and confirm you're making forward progress. If not, take a step back, analyze your previous actions and rethink how you're approaching the problem. Avoid repeating the same tool calls or responses without new results.`;
