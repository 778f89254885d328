import { relative } from 'node:path';
import { createInterface } from 'node:readline';
import { hasProjectAgentFolders, loadExtensionsModule } from '@kodo/core/engine';

/**
 * Before the interactive UI starts: the project's agent files that are new or changed since they
 * were acknowledged are listed, and load only if the person says yes (then they are recorded
 * and not asked about again until edited). No, Enter or the end of input leaves them out of this
 * session and asks again next time. Untrusted folders load no project agents: nothing to ask.
 */
export async function acknowledgeAgentsOnTerminal(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}): Promise<void> {
  const { cwd, env } = options;
  if (!options.trusted || !hasProjectAgentFolders({ cwd, env })) return;
  const module = await loadExtensionsModule();
  const { pending } = await module.projectAgentStatus({ cwd, env });
  if (pending.length === 0) return;
  options.output.write(
    [
      '',
      `This project has ${pending.length === 1 ? 'a new or changed agent file' : 'new or changed agent files'}:`,
      ...pending.map((agent) => `  * ${agent.name} (${relative(cwd, agent.path) || agent.path})`),
      "A subagent follows its file's instructions with the tools it lists when the model delegates to it.",
      'Read the files before you enable them.',
      '',
      '',
    ].join('\n'),
  );
  const answer = await question(options, 'Enable them? [y/N]: ');
  if (answer !== undefined && /^(y|yes)$/i.test(answer.trim())) {
    module.acknowledgeProjectAgents({ cwd, env }, pending);
    options.output.write('Enabled.\n');
  } else {
    options.output.write(
      'Not enabled in this session; kodo asks again next time (or: kodo agents acknowledge).\n',
    );
  }
}

function question(
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  text: string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: streams.input, output: streams.output });
    let answered = false;
    rl.question(text, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    rl.on('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}
