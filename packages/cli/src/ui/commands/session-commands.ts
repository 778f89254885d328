import {
  catalogueEntries,
  ProviderConfigError,
  ProviderResolver,
  type Settings,
  UnknownProviderError,
} from '@kodo/core/engine';
import { settingsFileFor, writeSetting } from '../../shared/settings-edit';
import type { SelectItem } from '../components/select-list';
import { isThemeName, THEME_NAMES, type ThemeName } from '../theme';
import { terminalBuiltin } from './terminal-builtin';
import type { CommandContext, SlashCommand } from './types';

export const clearCommand: SlashCommand = terminalBuiltin('clear', {
  async run({ newSession }) {
    await newSession();
  },
});

export const quitCommand: SlashCommand = terminalBuiltin('quit', {
  whileBusy: true,
  run({ exit }) {
    exit();
  },
});

export const copyCommand: SlashCommand = terminalBuiltin('copy', {
  whileBusy: true,
  run({ lastAnswer, copyToClipboard, addItem }) {
    const text = lastAnswer();
    if (!text) {
      addItem({ kind: 'info', tone: 'warning', text: 'There is no answer to copy yet.' });
      return;
    }
    copyToClipboard(text);
    addItem({
      kind: 'info',
      tone: 'success',
      text: `Copied the last answer (${text.length} characters) to the clipboard. (Needs a terminal with OSC 52 support.)`,
    });
  },
});

/** Why a model spec cannot be switched to (an unknown provider, a broken profile), if it cannot. */
function modelRefusal(
  spec: string,
  profiles: Settings['providers'],
  env: NodeJS.ProcessEnv,
): string | undefined {
  try {
    new ProviderResolver({ profiles, env }).resolve(spec);
    return undefined;
  } catch (error) {
    if (error instanceof UnknownProviderError || error instanceof ProviderConfigError) return error.message;
    throw error;
  }
}

/** Gemini first (kodo's default provider), then OpenAI and Anthropic; by id within each. */
const PICKER_ORDER = ['gemini', 'openai', 'anthropic'];

/** What `/model` offers: the catalogue (Gemini models bare, others with their provider), then profiles' models. */
export function modelChoices(profiles: Settings['providers']): SelectItem[] {
  const entries = catalogueEntries().sort(
    (a, b) => PICKER_ORDER.indexOf(a.provider) - PICKER_ORDER.indexOf(b.provider),
  );
  const items: SelectItem[] = entries.map((info) => ({
    value: info.provider === 'gemini' ? info.id : `${info.provider}:${info.id}`,
    label: info.provider === 'gemini' ? info.id : `${info.provider}:${info.id}`,
    description: `${info.provider} · ${Math.round((info.contextWindow ?? 0) / 1000)}k context${info.reasoning ? ' · thinking' : ''}`,
  }));
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    for (const model of profile.models ?? []) {
      const spec = `${name}:${model}`;
      items.push({
        value: spec,
        label: spec,
        description: `profile ${name}${profile.baseUrl ? ` · ${profile.baseUrl}` : ''}`,
      });
    }
  }
  return items;
}

/** Switches after checking the provider is known and its profile usable; says what happened. */
function switchModel(context: CommandContext, spec: string): void {
  const { session, settings, env, addItem } = context;
  const refusal = modelRefusal(spec, settings.merged.providers, env);
  if (refusal) {
    addItem({ kind: 'info', tone: 'error', text: `${refusal} The model stays ${session.model}.` });
    return;
  }
  session.setModel(spec);
  addItem({ kind: 'info', tone: 'success', text: `Model switched to ${spec}.` });
}

export const modelCommand: SlashCommand = terminalBuiltin('model', {
  async run(context) {
    const { args, session, settings, addItem } = context;
    if (args === '') {
      const items = modelChoices(settings.merged.providers);
      if (!items.some((item) => item.value === session.model)) {
        items.unshift({ value: session.model, label: session.model, description: 'in use' });
      }
      const picked = await context.choose({
        title: `Model (now ${session.model})`,
        items,
        initial: session.model,
      });
      if (picked === undefined || picked === session.model) {
        addItem({ kind: 'info', tone: 'info', text: `Model: ${session.model}.` });
        return;
      }
      switchModel(context, picked);
      return;
    }
    if (!/^[\w.\-/:]+$/.test(args)) {
      addItem({ kind: 'info', tone: 'error', text: `"${args}" is not a model name.` });
      return;
    }
    switchModel(context, args);
  },
});

export const forkCommand: SlashCommand = terminalBuiltin('fork', {
  async run({ session, forkSession, addItem }) {
    const from = session.id;
    const forked = await forkSession();
    if (forked === undefined) {
      addItem({ kind: 'info', tone: 'warning', text: 'Forking is not available here.' });
      return;
    }
    addItem({
      kind: 'info',
      tone: 'success',
      text: `Forked: now in session ${forked}. Session ${from} is kept (kodo --resume ${from}).`,
    });
  },
});

const THEME_DESCRIPTIONS: Record<ThemeName, string> = {
  dark: 'for dark backgrounds',
  light: 'for light backgrounds',
  ansi: "the terminal's own 16 colours",
  'no-color': 'no colours (as NO_COLOR)',
};

/**
 * `/theme [name]`: the built-in themes and the custom ones (Gemini CLI theme objects in
 * `ui.customThemes`, a theme file); without a name, a menu of them all.
 */
export const themeCommand: SlashCommand = terminalBuiltin('theme', {
  subcommands: THEME_NAMES.map((name) => ({ name, description: THEME_DESCRIPTIONS[name] })),
  whileBusy: true,
  async run(context) {
    const { args, themeNames, setTheme, addItem, env, cwd, settings } = context;
    const wanted =
      args !== ''
        ? args
        : await context.choose({
            title: 'Theme',
            items: themeNames.map((name) => ({
              value: name,
              label: name,
              description: isThemeName(name) ? THEME_DESCRIPTIONS[name] : 'custom (Gemini CLI theme)',
            })),
            initial: context.themeName,
          });
    if (wanted === undefined) return;
    const next =
      themeNames.find((name) => name === wanted) ??
      themeNames.find((name) => name.toLowerCase() === wanted.toLowerCase());
    if (next === undefined) {
      addItem({
        kind: 'info',
        tone: 'error',
        text: `Unknown theme "${args}". Themes: ${themeNames.join(', ')}.`,
      });
      return;
    }
    setTheme(next);
    const note = env.NO_COLOR ? ' (NO_COLOR is set, so colours stay off.)' : '';
    // The user's file: a theme is a matter of the terminal, not of the project.
    const file = settingsFileFor(settings, 'user', { cwd, env });
    try {
      await writeSetting(file, ['ui', 'theme'], next);
    } catch (error) {
      addItem({
        kind: 'info',
        tone: 'warning',
        text: `Theme: ${next} for this session; not saved: ${(error as Error).message}`,
      });
      return;
    }
    addItem({ kind: 'info', tone: 'success', text: `Theme: ${next} (saved in ${file}).${note}` });
  },
});
