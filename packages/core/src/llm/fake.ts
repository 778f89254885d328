import { readFileSync } from 'node:fs';
import type { ContentGenerator, GeneratorMethod } from '../contracts/content-generator';
import { abortError } from '../contracts/errors';
import type { CountTokensResponse, GenerateRequest, GenerateResponse } from '../contracts/messages';
import { locateJsonError } from '../utils/json-location';
import { boundFunctionCallArgs } from './args-depth';
import { checkGenerateResponse, expectKind, readShape } from './response-shape';

/** One line of a `--fake-responses` / `--record-responses` file. */
export type RecordedCall =
  | { method: 'generateContentStream'; response: GenerateResponse[] }
  | { method: 'generateContent'; response: GenerateResponse }
  | { method: 'countTokens'; response: CountTokensResponse };

const KNOWN_METHODS = new Set(['generateContentStream', 'generateContent', 'countTokens', 'embedContent']);

/** Parses JSONL (blank lines skipped). A bad line is reported with its number. */
export function parseRecordedCalls(text: string, source = 'fake responses'): RecordedCall[] {
  return recordedLines(text, source).map((entry) => entry.value);
}

/** Each valid line with its parsed value, checked as `parseRecordedCalls` documents. */
function recordedLines(text: string, source: string): { line: string; value: RecordedCall }[] {
  const calls: { line: string; value: RecordedCall }[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const problem = locateJsonError(line, { jsonc: false });
      const where = problem
        ? `, column ${problem.column}: ${problem.message}`
        : ` (${(error as Error).message})`;
      throw new Error(`${source}: line ${index + 1} is not valid JSON${where}.`);
    }
    const method = (value as { method?: unknown } | null)?.method;
    if (typeof method !== 'string' || !KNOWN_METHODS.has(method) || !('response' in (value as object))) {
      throw new Error(`${source}: line ${index + 1} needs {"method": …, "response": …} with a known method.`);
    }
    if (method === 'generateContentStream' && !Array.isArray((value as { response: unknown }).response)) {
      throw new Error(
        `${source}: line ${index + 1}: a generateContentStream response must be an array of chunks.`,
      );
    }
    calls.push({ line, value: value as RecordedCall });
  }
  return calls;
}

/** A recorded response, checked as a provider's would be (a hand-written file may be wrong). */
function recordedResponse(value: unknown): GenerateResponse {
  return readShape('the recorded responses', () => checkGenerateResponse(value));
}

/**
 * A call still to be handed out: given as an object (copied when taken), or read from a file and
 * kept as its line (parsed when taken, so a long replay holds text, not N parsed responses).
 */
type Entry = { method: RecordedCall['method'] } & ({ call: RecordedCall } | { line: string });

/**
 * Replays recorded model responses instead of calling a model. Strict mode hands out entries in
 * file order whatever the method; non-strict mode takes the first remaining entry of the called
 * method. Only the model is faked: tools, policies and files all run for real.
 */
export class FakeContentGenerator implements ContentGenerator {
  readonly provider = 'fake';
  /** In file order; a taken entry's slot is emptied, and `next` is the first slot not taken. */
  private readonly entries: (Entry | undefined)[];
  private next = 0;
  private left: number;
  private readonly strict: boolean;

  /** `strict` (the default): calls must come in file order, whatever their method. */
  constructor(calls: RecordedCall[], options: { strict?: boolean } = {}) {
    this.entries = calls.map((call) => ({ method: call.method, call }));
    this.left = this.entries.length;
    this.strict = options.strict ?? true;
  }

  static fromFile(path: string, options: { strict: boolean }): FakeContentGenerator {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`Cannot read fake responses file ${path}: ${(error as Error).message}`);
    }
    const generator = new FakeContentGenerator([], options);
    for (const { line, value } of recordedLines(text, path))
      generator.entries.push({ method: value.method, line });
    generator.left = generator.entries.length;
    return generator;
  }

  async generateContent(request: GenerateRequest, signal: AbortSignal): Promise<GenerateResponse> {
    // Bounded first, as a provider does: a recorded call may carry over-deep arguments.
    const { call, fresh } = this.take('generateContent', request, signal);
    const bounded = boundFunctionCallArgs(recordedResponse(call.response));
    return fresh ? bounded : structuredClone(bounded);
  }

  async *generateContentStream(
    request: GenerateRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateResponse> {
    const { call, fresh } = this.take('generateContentStream', request, signal);
    for (const chunk of call.response as GenerateResponse[]) {
      if (signal.aborted) throw abortError();
      const bounded = boundFunctionCallArgs(recordedResponse(chunk));
      yield fresh ? bounded : structuredClone(bounded);
    }
  }

  async countTokens(request: GenerateRequest, signal: AbortSignal): Promise<CountTokensResponse> {
    const { response } = this.take('countTokens', request, signal).call;
    readShape('the recorded responses', () => {
      expectKind(response, 'object', 'a countTokens response');
      expectKind((response as { totalTokens?: unknown }).totalTokens, 'number', 'totalTokens');
    });
    return { ...(response as CountTokensResponse) };
  }

  /** Entries not yet consumed (for tests and diagnostics). */
  get unconsumed(): number {
    return this.left;
  }

  /**
   * The next entry for `method`. `fresh`: parsed just now, the caller's to keep; otherwise the
   * object given to the constructor, which the caller copies (after bounding over-deep arguments,
   * which a copy could not walk).
   */
  private take(
    method: GeneratorMethod,
    request: GenerateRequest,
    signal: AbortSignal,
  ): { call: RecordedCall; fresh: boolean } {
    if (signal.aborted) throw abortError();
    const index = this.strict
      ? this.next
      : this.entries.findIndex((entry, at) => at >= this.next && entry?.method === method);
    const next = index >= 0 ? this.entries[index] : undefined;
    if (!next) {
      throw new Error(
        `No more mock responses for ${method}, got request:\n${JSON.stringify(request.contents)}`,
      );
    }
    if (next.method !== method) {
      throw new Error(
        `Unexpected response type, next response was for ${next.method} but expected ${method}`,
      );
    }
    this.entries[index] = undefined;
    this.left -= 1;
    while (this.next < this.entries.length && this.entries[this.next] === undefined) this.next += 1;
    return 'line' in next
      ? { call: JSON.parse(next.line) as RecordedCall, fresh: true }
      : { call: next.call, fresh: false };
  }
}
