/**
 * `kodo --acp`: the Agent Client Protocol on stdio (newline-delimited JSON-RPC). stdout carries
 * only protocol messages; diagnostics go to stderr. The process ends when the editor closes stdin.
 */
import type { Settings, SettingsScope } from '@kodo/core/engine';
import type { CliArgs } from '../shared/args';
import { ExitCode } from '../shared/exit-codes';
import { AcpAgent } from './agent';
import { acpWire } from './json-lines';

export interface AcpRun {
  args: CliArgs;
  settings: Settings;
  settingsScopes?: SettingsScope[];
  env: NodeJS.ProcessEnv;
}

export async function runAcp(run: AcpRun): Promise<number> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const agent = new AcpAgent({ ...run, log });
  // stdout is the protocol's channel: a closed pipe breaks the connection (exit 1 below), where
  // main.ts treats it as the normal end of `kodo … | head` (exit 0).
  process.stdout.removeAllListeners('error');
  const wire = acpWire({ input: process.stdin, output: process.stdout }, { log });
  const connection = agent.app().connect(wire.stream);
  // A signal ends the connection as closing stdin does: sessions end cleanly, then kodo exits.
  let stopped = false;
  const stop = () => {
    stopped = true;
    connection.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await connection.closed;
  } finally {
    wire.close();
    await agent.dispose();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  // Ended by the editor (its input closed) or a signal: fine. Anything else broke the connection.
  const broken =
    wire.failure() ?? (wire.inputEnded() || stopped ? undefined : 'it closed before the editor ended it');
  if (broken === undefined) return ExitCode.ok;
  log(`[ERROR] The ACP connection broke: ${broken}.`);
  return ExitCode.error;
}
