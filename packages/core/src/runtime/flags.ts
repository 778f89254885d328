import type { ConfigArgs } from '../session/resolve-config';

/**
 * The command-line choices that bear on assembling the engine (the CLI's parsed arguments fit
 * this shape; the SDK passes none).
 */
export interface RuntimeFlags extends ConfigArgs {
  /** `--fake-responses`: replay model answers from a file instead of calling a provider. */
  fakeResponses?: string | undefined;
  fakeResponsesStrict?: boolean | undefined;
  /** `--record-responses`: write the model's answers to a file. */
  recordResponses?: string | undefined;
  /** `-d`: log every request and response to `~/.kodo/logs/debug-<session>.jsonl`. */
  debug?: boolean | undefined;
  /** `-e`: only these extensions (`none`: none). */
  extensions?: string[] | undefined;
  /** `-s`: shell commands must run in the sandbox. */
  sandbox?: boolean | undefined;
  /** `--include-directories`: more workspace roots. */
  includeDirectories?: string[] | undefined;
  /** `--allowed-tools`: added to `tools.allowed`. */
  allowedTools?: string[] | undefined;
  /** `--allowed-mcp-server-names`: replaces `mcp.allowed`. */
  allowedMcpServerNames?: string[] | undefined;
  /** `--policy`, `--admin-policy`: policy files. */
  policyPaths?: string[] | undefined;
  adminPolicyPaths?: string[] | undefined;
}
