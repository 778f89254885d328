/**
 * Shell commands in the editor's terminal (`terminal/*`) when the client offers it: the editor
 * spawns and shows the command, kodo watches, stops and releases it (see
 * packages/core/src/tools/shell/terminal.ts). Approval has already happened by the time a command
 * gets here. The tool call shows the terminal: whoever owns the turn learns each new terminal
 * through `onCreated` and puts it in the call's content.
 */
import type * as acp from '@agentclientprotocol/sdk';
import {
  type ExternalTerminal,
  type ExternalTerminals,
  kindOf,
  type TerminalCommand,
  type TerminalExit,
} from '@kodo/core/engine';

export class EditorTerminals implements ExternalTerminals {
  /** Set by the running turn: a call's terminal exists (before the command's output is read). */
  onCreated: ((callId: string, terminalId: string) => void) | undefined;

  constructor(
    private readonly client: acp.AgentContext,
    private readonly sessionId: string,
  ) {}

  async create(command: TerminalCommand, signal: AbortSignal): Promise<ExternalTerminal> {
    const handle = await this.client.createTerminal(
      {
        sessionId: this.sessionId,
        command: command.file,
        args: command.args,
        cwd: command.cwd,
        env: Object.entries(command.env).map(([name, value]) => ({ name, value })),
        outputByteLimit: command.outputByteLimit,
      },
      { cancellationSignal: signal },
    );
    if (command.callId !== undefined) this.onCreated?.(command.callId, handle.id);
    return {
      async output() {
        const answer = await handle.currentOutput();
        // The editor's answer is checked, not trusted: a wrong shape is named for the model.
        if (typeof answer?.output !== 'string') {
          throw new Error(
            `the editor's answer to terminal/output has no text (output must be a string, got ${kindOf(answer?.output)})`,
          );
        }
        return {
          output: answer.output,
          truncated: answer.truncated === true,
          ...(answer.exitStatus ? { exit: exitOf(answer.exitStatus) } : {}),
        };
      },
      waitForExit: async () => exitOf(await handle.waitForExit()),
      kill: async () => {
        await handle.kill();
      },
      release: async () => {
        await handle.release();
      },
    };
  }
}

function exitOf(status: { exitCode?: unknown; signal?: unknown } | null | undefined): TerminalExit {
  const exitCode = status?.exitCode;
  const signal = status?.signal;
  return {
    exitCode: typeof exitCode === 'number' ? exitCode : null,
    signal: typeof signal === 'string' ? signal : null,
  };
}
