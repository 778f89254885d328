import { EFFORTS, type Effort, isEffort } from '@kodo/core/engine';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

const EFFORT_DESCRIPTIONS: Record<Effort, string> = {
  off: 'no thinking where the model allows it',
  low: 'a little thinking',
  medium: 'thinking (Codex and Gemini 2.5 CLI default)',
  high: 'more thinking (Claude Code and Gemini 3 CLI default)',
  max: 'as much thinking as the model takes',
};

/** `/effort [off|low|medium|high|max|default]`: how hard the model thinks from the next request. */
export const effortCommand: SlashCommand = terminalBuiltin('effort', {
  async run(context) {
    const { session, addItem } = context;
    let choice = context.args.trim().toLowerCase();
    if (choice === '') {
      const now = session.effort ?? 'default';
      const picked = await context.choose({
        title: `Effort (now ${now})`,
        items: [
          ...EFFORTS.map((effort) => ({
            value: effort,
            label: effort,
            description: EFFORT_DESCRIPTIONS[effort],
          })),
          {
            value: 'default',
            label: 'default',
            description: 'the configured effort, else the vendor agent’s',
          },
        ],
        initial: now,
      });
      if (picked === undefined || picked === now) {
        addItem({ kind: 'info', tone: 'info', text: `Effort: ${now}.` });
        return;
      }
      choice = picked;
    }
    if (choice === 'default') {
      session.setEffort(undefined);
      addItem({ kind: 'info', tone: 'success', text: 'Effort back to the configured one.' });
      return;
    }
    if (!isEffort(choice)) {
      addItem({
        kind: 'info',
        tone: 'error',
        text: `"${choice}" is not an effort (choices: ${EFFORTS.join(', ')}, default).`,
      });
      return;
    }
    session.setEffort(choice);
    addItem({ kind: 'info', tone: 'success', text: `Effort set to ${choice} from the next request.` });
  },
});
