import { parseArgs } from 'node:util';
import type { ApprovalMode } from '@kodo/core/engine';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface CliArgs {
  prompt: string | undefined;
  query: string | undefined;
  promptInteractive: string | undefined;
  model: string | undefined;
  approvalMode: ApprovalMode | undefined;
  outputFormat: OutputFormat | undefined;
  debug: boolean;
  fakeResponses: string | undefined;
  fakeResponsesStrict: boolean;
  recordResponses: string | undefined;
  version: boolean;
  help: boolean;
  /** `kodo demo` and later subcommands. */
  command: string | undefined;
}

/** A usage error: printed with the help text, exit code 1 (as Gemini CLI does). */
export class ArgsError extends Error {
  override readonly name = 'ArgsError';
}

const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];
const CLI_APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'auto_edit', 'yolo', 'plan'];
const SUBCOMMANDS = new Set(['demo']);

const OPTIONS = {
  prompt: { type: 'string', short: 'p' },
  'prompt-interactive': { type: 'string', short: 'i' },
  model: { type: 'string', short: 'm' },
  yolo: { type: 'boolean', short: 'y' },
  'approval-mode': { type: 'string' },
  'output-format': { type: 'string', short: 'o' },
  debug: { type: 'boolean', short: 'd' },
  'fake-responses': { type: 'string' },
  'fake-responses-non-strict': { type: 'string' },
  'record-responses': { type: 'string' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses argv (without node and script). Accepts both `--flag value` and `--flag=value`. */
export function parseCliArgs(argv: string[]): CliArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ArgsError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  const { values, positionals } = parsed;
  const command =
    positionals[0] !== undefined && SUBCOMMANDS.has(positionals[0]) ? positionals[0] : undefined;
  const queryWords = command ? positionals.slice(1) : positionals;
  const query = queryWords.length > 0 ? queryWords.join(' ') : undefined;

  if (values.prompt !== undefined && query !== undefined) {
    throw new ArgsError('Cannot use both a positional prompt and the --prompt (-p) flag together');
  }
  if (values.prompt !== undefined && values['prompt-interactive'] !== undefined) {
    throw new ArgsError('Cannot use both --prompt (-p) and --prompt-interactive (-i) together');
  }
  if (values.yolo && values['approval-mode'] !== undefined) {
    throw new ArgsError(
      'Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.',
    );
  }
  const outputFormat = values['output-format'];
  if (outputFormat !== undefined && !OUTPUT_FORMATS.includes(outputFormat as OutputFormat)) {
    throw new ArgsError(
      `Invalid values:\n  Argument: output-format, Given: "${outputFormat}", Choices: ${OUTPUT_FORMATS.map((f) => `"${f}"`).join(', ')}`,
    );
  }
  const approvalMode = values.yolo ? 'yolo' : values['approval-mode'];
  if (approvalMode !== undefined && !CLI_APPROVAL_MODES.includes(approvalMode as ApprovalMode)) {
    throw new ArgsError(
      `Invalid values:\n  Argument: approval-mode, Given: "${approvalMode}", Choices: ${CLI_APPROVAL_MODES.map((m) => `"${m}"`).join(', ')}`,
    );
  }
  const nonStrict = values['fake-responses-non-strict'];
  return {
    prompt: values.prompt,
    query,
    promptInteractive: values['prompt-interactive'],
    model: values.model,
    approvalMode: approvalMode as ApprovalMode | undefined,
    outputFormat: outputFormat as OutputFormat | undefined,
    debug: values.debug ?? false,
    // The non-strict flag wins when both are given.
    fakeResponses: nonStrict ?? values['fake-responses'],
    fakeResponsesStrict: nonStrict === undefined,
    recordResponses: values['record-responses'],
    version: values.version ?? false,
    help: values.help ?? false,
    command,
  };
}
