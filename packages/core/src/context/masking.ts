import { join } from 'node:path';
import type { Content, Part } from '../contracts/messages';
import { fsPromises } from '../utils/fs-async';
import { estimatePartTokens } from './tokens';

export interface MaskingOptions {
  /** Newest tool-output tokens that are never masked (50,000). */
  protectedTokens: number;
  /** Mask only when at least this many tokens can be pruned (30,000). */
  minPrunableTokens: number;
  /** Where masked outputs are saved; without one, nothing is masked (nothing may be lost). */
  spillDir: string | undefined;
}

export const DEFAULT_MASKING: Omit<MaskingOptions, 'spillDir'> = {
  protectedTokens: 50_000,
  minPrunableTokens: 30_000,
};

const NEVER_MASKED = new Set(['activate_skill', 'ask_user', 'enter_plan_mode', 'exit_plan_mode']);
const MASK_TAG = '<tool_output_masked>';

export interface MaskingResult {
  history: Content[];
  maskedCount: number;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * Replaces old, large tool outputs in the history with a short preview and the path of a file
 * holding the full response. The newest outputs, and the latest turn, stay whole,
 * so the model keeps what it is working with; older bulk costs tokens on every request.
 */
export async function maskOldToolOutputs(
  history: readonly Content[],
  options: MaskingOptions & { sessionId: string },
): Promise<MaskingResult> {
  const candidates: { entry: number; index: number; part: Part; tokens: number }[] = [];
  let seen = 0;
  let prunable = 0;
  for (let i = history.length - 2; i >= 0; i -= 1) {
    const parts = history[i]!.parts;
    for (let j = parts.length - 1; j >= 0; j -= 1) {
      const part = parts[j]!;
      const response = part.functionResponse;
      if (!response || NEVER_MASKED.has(response.name) || isMasked(part)) continue;
      const tokens = estimatePartTokens(part);
      seen += tokens;
      if (seen > options.protectedTokens) {
        candidates.push({ entry: i, index: j, part, tokens });
        prunable += tokens;
      }
    }
  }
  const unchanged = { history: [...history], maskedCount: 0, tokensBefore: prunable, tokensAfter: prunable };
  if (!options.spillDir || prunable < options.minPrunableTokens) return unchanged;

  // Copy on write: only the entries holding a masked part are new objects; the rest are shared
  // with the input, so a rewrite costs what it changes and observers can tell what that was.
  const out = [...history];
  const dir = join(
    options.spillDir,
    'tool-outputs',
    `session-${options.sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}`,
  );
  const { mkdir, writeFile } = await fsPromises();
  await mkdir(dir, { recursive: true });
  let tokensAfter = 0;
  for (const [n, { entry, index, part }] of candidates.entries()) {
    const response = part.functionResponse!;
    const file = join(dir, `${safe(response.name)}_${safe(response.id ?? 'call')}_${n}.txt`);
    await writeFile(file, JSON.stringify(response.response, null, 2), 'utf8');
    const text =
      typeof response.response.output === 'string'
        ? response.response.output
        : JSON.stringify(response.response);
    const masked: Part = {
      ...part,
      functionResponse: {
        ...response,
        response: {
          output: `${MASK_TAG}\n${preview(response.name, text)}\n\nOutput too large. Full output available at: ${file}\n</tool_output_masked>`,
        },
      },
    };
    const content = out[entry]!;
    const parts = content === history[entry] ? [...content.parts] : content.parts;
    parts[index] = masked;
    out[entry] = content === history[entry] ? { ...content, parts } : content;
    tokensAfter += estimatePartTokens(masked);
  }
  return { history: out, maskedCount: candidates.length, tokensBefore: prunable, tokensAfter };
}

export function isMasked(part: Part): boolean {
  const output = part.functionResponse?.response.output;
  return typeof output === 'string' && output.startsWith(MASK_TAG);
}

/** Shell output keeps its structure (first and last lines of Output, the status lines whole). */
export function preview(toolName: string, text: string): string {
  if (toolName === 'run_shell_command' && text.includes('Output:')) return shellPreview(text);
  if (text.length <= 500) return text;
  return `${text.slice(0, 250)}\n... [TRUNCATED] ...\n${text.slice(-250)}`;
}

function shellPreview(text: string): string {
  const statusLine = /^(Error|Exit Code|Signal|Background PIDs|Process Group PGID): /;
  const lines = text.split('\n');
  const outputLines: string[] = [];
  const status: string[] = [];
  for (const line of lines) {
    if (statusLine.test(line)) status.push(line);
    else outputLines.push(line);
  }
  let body = outputLines;
  if (outputLines.length > 20) {
    body = [
      ...outputLines.slice(0, 10),
      `\n... [${outputLines.length - 20} lines omitted] ...\n`,
      ...outputLines.slice(-10),
    ];
  }
  return [...body, ...status].join('\n');
}

function safe(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/g, '_');
}
