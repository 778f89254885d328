import { type TrustLevel, TrustStore } from '@kodo/core/engine';
import { recordTrustedState } from '../../shared/trust-gate';
import { terminalBuiltin } from './terminal-builtin';
import type { SlashCommand } from './types';

const CHANGES: Readonly<Record<string, { level?: TrustLevel; done: string }>> = {
  trust: { level: 'TRUST_FOLDER', done: 'This folder is now trusted' },
  parent: { level: 'TRUST_PARENT', done: 'This folder’s parent (and everything in it) is now trusted' },
  untrust: { level: 'DO_NOT_TRUST', done: 'This folder is now marked as not trusted' },
  reset: { done: 'The decision for this folder is forgotten: kodo asks again' },
};

/**
 * `/permissions` (Gemini CLI's name): the folder trust decision, and changing it. The decision
 * gates what is read at startup (settings, hooks, MCP servers, policies, context files), so a
 * change takes effect the next time kodo starts in this folder.
 */
export const permissionsCommand: SlashCommand = terminalBuiltin('permissions', {
  subcommands: [
    { name: 'trust', description: 'trust this folder' },
    { name: 'parent', description: 'trust the parent folder' },
    { name: 'untrust', description: 'do not trust this folder' },
    { name: 'reset', description: 'forget the decision (kodo asks again)' },
  ],
  whileBusy: true,
  run({ args, cwd, env, addItem }) {
    const store = TrustStore.forEnv(env);
    if (args === '') {
      const rule = store.ruleFor(cwd);
      const state = !rule
        ? 'No trust decision covers this folder'
        : rule.level === 'DO_NOT_TRUST'
          ? `This folder is not trusted (rule for ${rule.path})`
          : `This folder is trusted (${rule.level === 'TRUST_PARENT' ? 'its parent is' : 'rule for'} ${rule.path})`;
      addItem({
        kind: 'info',
        tone: 'info',
        text: `${state}. Decisions are kept in ${store.path}. Change it with /permissions trust, parent, untrust or reset.`,
      });
      return;
    }
    const change = CHANGES[args];
    if (!change) {
      addItem({
        kind: 'info',
        tone: 'error',
        text: `Unknown choice "${args}": use /permissions trust, parent, untrust or reset.`,
      });
      return;
    }
    try {
      if (change.level) store.trust(cwd, change.level);
      else store.forget(cwd);
      // Trust covers what the folder runs as it is now (see trust-fingerprint.ts).
      if (change.level && change.level !== 'DO_NOT_TRUST') recordTrustedState(cwd, env);
    } catch (error) {
      addItem({
        kind: 'info',
        tone: 'error',
        text: `Could not change ${store.path}: ${(error as Error).message}`,
      });
      return;
    }
    addItem({
      kind: 'info',
      tone: 'success',
      text: `${change.done} (${store.path}). It takes effect the next time kodo starts here.`,
    });
  },
});
