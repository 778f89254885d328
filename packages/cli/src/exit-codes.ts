/** Process exit codes (compatible with Gemini CLI's). */
export const ExitCode = {
  ok: 0,
  error: 1,
  auth: 41,
  input: 42,
  sandbox: 44,
  config: 52,
  turnLimit: 53,
  fatalTool: 54,
  untrusted: 55,
  /** A budget (--max-budget-usd, --max-tokens, --max-tool-calls, --max-time) ran out: kodo's own code. */
  budget: 45,
  /** A dollar budget was given and the model has no known price: refused before anything is sent. */
  unpricedBudget: 46,
  /** `--json-schema`: the answer still did not match the schema after one retry: kodo's own code. */
  structuredOutput: 47,
  cancelled: 130,
} as const;

/** An error that ends the run with a chosen exit code and a one-line message. */
export class FatalError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    override readonly name: string = 'FatalError',
  ) {
    super(message);
  }
}

/** The codes above that mean something: an HTTP status must never be mistaken for one. */
const MEANINGFUL: ReadonlySet<number> = new Set(Object.values(ExitCode));

/**
 * The process exit code for an API error's HTTP status in `json`/`stream-json` mode. Like Gemini
 * CLI, kodo exits with the status itself, and a process exit code is one byte, so the shell sees
 * the status modulo 256 (400 → 144, 401 → 145, 429 → 173, 500 → 244, 503 → 247): scripts
 * written for Gemini CLI keep working. A status whose remainder is 0 (256, 512) or lands on one
 * of the codes above (41, 42, 44–46, 52–55, 130: no real HTTP status does) would mean something
 * unrelated, so it exits 1 instead, as does anything that is not a positive integer. See
 * docs/security.md ("Bad input and resources").
 */
export function exitCodeForHttpStatus(status: number): number {
  if (!Number.isInteger(status) || status <= 0) return ExitCode.error;
  const code = status % 256;
  return code === 0 || MEANINGFUL.has(code) ? ExitCode.error : code;
}

/** An exit code as the process can report it (0–255); anything else becomes 1, never a wrap to 0. */
export function processExitCode(code: number): number {
  return Number.isInteger(code) && code >= 0 && code <= 255 ? code : ExitCode.error;
}
