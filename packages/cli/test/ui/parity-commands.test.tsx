// Slash commands a switching user expects: /init, /compress <instructions>, /export, /fork,
// /theme, the /model picker, and the clean last frame after /quit.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelChoices } from '../../src/ui/commands/session-commands';
import { finish, KEYS, renderApp, text } from './helpers';

type Harness = ReturnType<typeof renderApp>;
let app: Harness | undefined;
afterEach(() => {
  app?.cleanup();
  app = undefined;
});
const start = (options: Parameters<typeof renderApp>[0]) => {
  app = renderApp(options);
  return app;
};
const until = (check: () => void, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 20 });
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

async function run(ui: Harness, line: string) {
  await ui.type(line);
  await ui.press(KEYS.enter);
}

describe('/init', () => {
  it('scans the project and asks the model to write KODO.md from what it found', async () => {
    const ui = start({ turns: [{ chunks: [text('Written.'), finish()] }] });
    writeFileSync(
      join(ui.workspace, 'package.json'),
      JSON.stringify({ name: 'widget-kit', scripts: { test: 'vitest run', lint: 'biome check .' } }),
    );
    writeFileSync(join(ui.workspace, 'README.md'), '# Widget kit\n\nRenders widgets on a zorbly canvas.\n');
    mkdirSync(join(ui.workspace, 'src'));
    writeFileSync(join(ui.workspace, 'src', 'widget.ts'), 'export const w = 1;\n');
    await run(ui, '/init');
    await until(() => expect(ui.frame()).toContain('Written.'));
    const sent = ui.generator.lastUserText();
    expect(sent).toContain('Write KODO.md');
    expect(sent).toContain('write_file');
    expect(sent).toContain('test: vitest run');
    expect(sent).toContain('lint: biome check .');
    expect(sent).toContain('zorbly canvas');
    expect(sent).toMatch(/src\/ {2}\(widget\.ts\)/);
    expect(ui.frame()).toContain('> /init');
  });

  it('writes the configured context file name (AGENTS.md) and refuses to replace one that exists', async () => {
    const ui = start({ settings: { context: { fileName: 'AGENTS.md' } } });
    writeFileSync(join(ui.workspace, 'AGENTS.md'), 'hand-written notes\n');
    await run(ui, '/init');
    await until(() =>
      expect(flat(ui.frame())).toContain('AGENTS.md already exists here; nothing was changed'),
    );
    expect(ui.generator.requests).toHaveLength(0);
    expect(readFileSync(join(ui.workspace, 'AGENTS.md'), 'utf8')).toBe('hand-written notes\n');
  });

  it('with --force asks for a rewrite of the existing file', async () => {
    const ui = start({ turns: [{ chunks: [text('Rewritten.'), finish()] }] });
    writeFileSync(join(ui.workspace, 'KODO.md'), 'old\n');
    await run(ui, '/init --force');
    await until(() => expect(ui.frame()).toContain('Rewritten.'));
    expect(ui.generator.lastUserText()).toContain('Write KODO.md');
  });
});

describe('/compress <instructions>', () => {
  it('passes the instructions to the summariser', async () => {
    const long = (n: number) => Array.from({ length: 300 }, (_, i) => `w${n}x${i}`).join(' ');
    const ui = start({
      turns: [1, 2, 3].map((n) => ({ chunks: [text(long(n)), finish()] })),
      oneShots: [
        text('<state_snapshot>draft</state_snapshot>'),
        text('<state_snapshot>checked</state_snapshot>'),
      ],
    });
    for (const prompt of ['one', 'two', 'three']) {
      await run(ui, prompt);
      await until(() => expect(ui.generator.requests.length).toBeGreaterThan(0));
      await until(() => expect(ui.frame()).toContain('Type your message'));
    }
    await until(() => expect(ui.generator.requests).toHaveLength(3));
    await run(ui, '/compress keep the failing test names');
    await until(() => expect(ui.frame()).toContain('Chat history compressed'));
    expect(ui.generator.oneShotRequests.length).toBeGreaterThan(0);
    expect(JSON.stringify(ui.generator.oneShotRequests[0]!.contents)).toContain(
      'keep the failing test names',
    );
  });
});

describe('/export', () => {
  it('writes Markdown and JSON of the session, and never replaces a file', async () => {
    const ui = start({ turns: [{ chunks: [text('The answer is **42**.'), finish()] }] });
    await run(ui, 'what is the answer?');
    await until(() => expect(ui.frame()).toContain('The answer is'));
    await run(ui, '/export md notes/session.md');
    // The folder does not exist: the error says so and nothing is lost.
    await until(() => expect(flat(ui.frame())).toContain('Could not export'));
    mkdirSync(join(ui.workspace, 'notes'));
    await run(ui, '/export md notes/session.md');
    await until(() => expect(flat(ui.frame())).toContain('as Markdown to'));
    const markdown = readFileSync(join(ui.workspace, 'notes', 'session.md'), 'utf8');
    expect(markdown).toContain(`# kodo session ${ui.sessions[0]!.id}`);
    expect(markdown).toMatch(/## User\n\nwhat is the answer\?/);
    expect(markdown).toMatch(/## Model\n\nThe answer is \*\*42\*\*\./);

    await run(ui, '/export json');
    await until(() => expect(flat(ui.frame())).toContain('as JSON to'));
    const jsonPath = join(ui.workspace, `kodo-session-${ui.sessions[0]!.id.slice(0, 8)}.json`);
    const data = JSON.parse(readFileSync(jsonPath, 'utf8'));
    expect(data.sessionId).toBe(ui.sessions[0]!.id);
    expect(data.history).toEqual(ui.sessions[0]!.history());

    writeFileSync(jsonPath, 'mine');
    await run(ui, '/export json');
    await until(() => expect(flat(ui.frame())).toContain('already exists'));
    expect(readFileSync(jsonPath, 'utf8')).toBe('mine');
  });
});

describe('/fork', () => {
  it('switches to a new session that continues from here, and says its id; the old one is left', async () => {
    const ui = start({
      turns: [{ chunks: [text('first answer'), finish()] }, { chunks: [text('second answer'), finish()] }],
    });
    await run(ui, 'first');
    await until(() => expect(ui.frame()).toContain('first answer'));
    const parent = ui.sessions[0]!;
    await run(ui, '/fork');
    await until(() => expect(ui.sessions).toHaveLength(2));
    const forked = ui.sessions[1]!;
    await until(() => expect(flat(ui.frame())).toContain(`now in session ${forked.id}`));
    expect(flat(ui.frame())).toContain(`Session ${parent.id} is kept`);
    await run(ui, 'second');
    await until(() => expect(ui.frame()).toContain('second answer'));
    // The request carried the conversation so far; the parent did not take the new turn.
    expect(JSON.stringify(ui.generator.requests[1]!.contents)).toContain('first answer');
    expect(forked.history()).toHaveLength(4);
    expect(parent.history()).toHaveLength(2);
    await ui.press(KEYS.ctrlD);
    await until(() => expect(ui.exits).toEqual([forked.id]));
  });
});

describe('/theme', () => {
  it('switches to the ANSI and no-colour themes and saves the choice as ui.theme', async () => {
    const ui = start({});
    await run(ui, '/theme ansi');
    await until(() => expect(flat(ui.frame())).toContain('Theme: ansi'));
    const file = join(ui.home, 'settings.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).ui.theme).toBe('ansi');
    await run(ui, '/theme no-color');
    await until(() => expect(flat(ui.frame())).toContain('Theme: no-color'));
    expect(JSON.parse(readFileSync(file, 'utf8')).ui.theme).toBe('no-color');
    await run(ui, '/theme sepia');
    await until(() => expect(flat(ui.frame())).toContain('Unknown theme "sepia"'));
    expect(JSON.parse(readFileSync(file, 'utf8')).ui.theme).toBe('no-color');
  });
});

describe('/model without a name', () => {
  it('opens a picker of the model catalogue and the profiles; arrows and Enter switch', async () => {
    const settings = {
      providers: { lab: { type: 'openai', baseUrl: 'http://127.0.0.1:1', models: ['qwen3-8b'] } },
    };
    const choices = modelChoices(settings.providers).map((item) => item.value);
    const current = choices.indexOf('gemini-2.5-pro');
    const next = choices[current + 1]!;
    expect(choices.at(-1)).toBe('lab:qwen3-8b');
    const ui = start({ settings });
    await run(ui, '/model');
    await until(() => expect(ui.frame()).toContain('Model (now gemini-2.5-pro)'));
    expect(ui.frame()).toContain('› gemini-2.5-pro');
    expect(ui.frame()).not.toContain('Type your message');
    await until(() => expect(ui.frame()).toContain('↑/↓ to move'));
    await ui.press(KEYS.down);
    await until(() => expect(ui.frame()).toContain(`› ${next}`));
    await ui.press(KEYS.enter);
    await until(() => expect(ui.frame()).toContain(`Model switched to ${next}.`));
    expect(ui.sessions[0]!.model).toBe(next);

    // The profile's models are offered too (at the end: up from the first wraps there).
    await run(ui, '/model');
    await until(() => expect(ui.frame()).toContain(`Model (now ${next})`));
    await until(() => expect(ui.frame()).toContain('↑/↓ to move'));
    await ui.press(...Array.from({ length: current + 2 }, () => KEYS.up));
    await until(() => expect(ui.frame()).toContain('› lab:qwen3-8b'));
    await ui.press(KEYS.escape);
    await until(() => expect(ui.frame()).toContain('Type your message'));
    expect(ui.sessions[0]!.model).toBe(next);
  });
});

describe('/quit', () => {
  it('leaves a last frame with the transcript only: no input box, spinner or footer', async () => {
    const ui = start({ turns: [{ chunks: [text('bye for now'), finish()] }] });
    await run(ui, 'hello');
    await until(() => expect(ui.frame()).toContain('bye for now'));
    await run(ui, '/quit');
    await until(() => expect(ui.exits).toHaveLength(1));
    await until(() => expect(ui.frame()).not.toContain('Type your message'));
    const last = ui.frame();
    expect(last).not.toContain('context 0%');
    expect(last).not.toContain('· default ·');
    expect(last).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(existsSync(ui.workspace)).toBe(true);
  });
});

describe('images typed in the UI', () => {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]);

  it('@shot.png goes to an image-reading model as an inline part after the text', async () => {
    const ui = start({ turns: [{ chunks: [text('A red square.'), finish()] }] });
    writeFileSync(join(ui.workspace, 'shot.png'), PNG);
    await run(ui, 'what is @shot.png');
    await until(() => expect(ui.frame()).toContain('A red square.'));
    expect(ui.frame()).toContain('Attached shot.png');
    const user = ui.generator.requests[0]!.contents.at(-1)!;
    expect(user.parts[0]).toEqual({ text: 'what is @shot.png' });
    expect(user.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } });
  });

  it('for a model not known to read images, says so and sends the text alone', async () => {
    const ui = start({
      model: 'ollama:qwen3-coder',
      turns: [{ chunks: [text('No image here.'), finish()] }],
    });
    writeFileSync(join(ui.workspace, 'shot.png'), PNG);
    await run(ui, 'what is @shot.png');
    await until(() => expect(ui.frame()).toContain('No image here.'));
    expect(flat(ui.frame())).toContain(
      'Not attached: @shot.png: ollama:qwen3-coder is not known to read images',
    );
    expect(JSON.stringify(ui.generator.requests[0]!.contents)).not.toContain('inlineData');
  });
});
