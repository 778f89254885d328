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
