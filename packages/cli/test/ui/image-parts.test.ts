// Images in a prompt — `@shot.png` and a pasted image path — become inline image parts for
// models the model table says read images, and reach each provider in its own wire format;
// for any other model they are left out with a note.

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  acceptsImages,
  buildGenerator,
  loadInputFiles,
  MAX_IMAGE_BYTES,
  Session,
  ToolRegistry,
  Workspace,
} from '@kodo/core/engine';
import {
  anthropicTextReply,
  geminiTextReply,
  openaiTextReply,
  startAnthropicMock,
  startGeminiMock,
  startOpenAIMock,
} from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const { expandAtReferences, findPastedImagePaths } = await loadInputFiles();

/** The PNG signature and a little more: providers are mocks, the bytes only have to match. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3, 4]);
const PNG_BASE64 = PNG.toString('base64');

let root: string;
let workspace: string;
let outside: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-images-')));
  workspace = join(root, 'project');
  outside = join(root, 'Screenshots');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(join(workspace, 'shot.png'), PNG);
  writeFileSync(join(outside, 'my shot.png'), PNG);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const expand = (text: string, model: string) =>
  expandAtReferences(text, {
    workspace: new Workspace({ roots: [workspace] }),
    listFiles: async () => ['shot.png'],
    images: { model, accepted: acceptsImages(model) },
  });

describe('images in the prompt', () => {
  it('@image.png becomes an inline image part, the text stays as typed', async () => {
    const expanded = await expand('what is wrong in @shot.png', 'gemini-2.5-pro');
    expect(expanded.images).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }]);
    expect(expanded.text).toBe('what is wrong in @shot.png');
    expect(expanded.attached).toEqual(['shot.png']);
    expect(expanded.skipped).toEqual([]);
  });

  it('a pasted image path (quoted, escaped or a file URL) is attached even outside the workspace', async () => {
    const path = join(outside, 'my shot.png');
    for (const pasted of [`'${path}'`, path.replace(/ /g, '\\ '), pathToFileURL(path).href]) {
      expect(findPastedImagePaths(`look at ${pasted} please`)).toEqual([path]);
      const expanded = await expand(`look at ${pasted} please`, 'openai:gpt-5');
      expect(expanded.images).toHaveLength(1);
      expect(expanded.images[0]!.inlineData?.data).toBe(PNG_BASE64);
    }
    expect(findPastedImagePaths('the logo is in src/logo.png and @shot.png')).toEqual([]);
  });

  it('a model that is not known to read images gets a note instead', async () => {
    const expanded = await expand('what is in @shot.png', 'ollama:qwen3-coder');
    expect(expanded.images).toEqual([]);
    expect(expanded.skipped).toEqual([
      "@shot.png: ollama:qwen3-coder is not known to read images (kodo's model table does not list it), so the image was not sent",
    ]);
  });

  it('an image over the providers’ limit is refused with its size', async () => {
    writeFileSync(join(workspace, 'big.png'), Buffer.alloc(MAX_IMAGE_BYTES + 1));
    const expanded = await expand('see @big.png', 'gemini-2.5-pro');
    expect(expanded.images).toEqual([]);
    expect(expanded.skipped[0]).toMatch(/^@big\.png: image too large to attach \(5\.0 MiB, at most 5 MiB\)$/);
  });

  it('every model of the table reads images (the table says so per model)', () => {
    for (const model of ['gemini-2.5-flash', 'openai:gpt-4.1', 'anthropic:claude-sonnet-4-5']) {
      expect(acceptsImages(model)).toBe(true);
    }
    expect(acceptsImages('ollama:qwen3-coder')).toBeUndefined();
  });
});

/** Sends `@shot.png` through the provider client kodo builds for `model`, to its mock. */
async function sendThrough(model: string, env: NodeJS.ProcessEnv): Promise<void> {
  const built = await buildGenerator({
    fakeResponses: undefined,
    fakeResponsesStrict: false,
    recordResponses: undefined,
    debug: false,
    sessionId: 'image-test',
    env,
    model,
  });
  const session = new Session({
    generator: built.generator,
    model: built.model,
    tools: new ToolRegistry([]),
    toolContext: {
      workspace: new Workspace({ roots: [workspace] }),
      env: {},
      shellInactivityTimeoutMs: 10_000,
    },
    includeEnvironmentContext: false,
    retry: { initialDelayMs: 0, streamInitialDelayMs: 0, maxAttempts: 1, streamMaxAttempts: 1 },
  });
  const expanded = await expand('describe @shot.png', built.model);
  expect(expanded.images).toHaveLength(1);
  const events = session.sendMessage(
    [{ text: expanded.text }, ...expanded.images],
    new AbortController().signal,
  );
  let next = await events.next();
  while (!next.done) next = await events.next();
  expect(next.value.kind).toBe('completed');
}

describe('the request each provider sends for an image', () => {
  it('Gemini: an inlineData part after the text', async () => {
    const mock = await startGeminiMock({ script: [{ chunks: geminiTextReply('A cat.') }] });
    try {
      await sendThrough('gemini-2.5-flash', { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: mock.url });
      const body = mock.requests[0]!.body as {
        contents: { role: string; parts: Record<string, unknown>[] }[];
      };
      const user = body.contents.at(-1)!;
      expect(user.role).toBe('user');
      expect(user.parts).toContainEqual({ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } });
      expect(user.parts[0]).toEqual({ text: 'describe @shot.png' });
    } finally {
      await mock.close();
    }
  });

  it('OpenAI: an image_url content part with a data URL', async () => {
    const mock = await startOpenAIMock({ script: [{ chunks: openaiTextReply('A cat.') }] });
    try {
      await sendThrough('openai:gpt-4.1', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: mock.url });
      const body = mock.requests[0]!.body as { messages: { role: string; content: unknown }[] };
      const user = body.messages.filter((message) => message.role === 'user').at(-1)!;
      expect(user.content).toContainEqual({
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${PNG_BASE64}` },
      });
    } finally {
      await mock.close();
    }
  });

  it('Anthropic: an image block with a base64 source', async () => {
    const mock = await startAnthropicMock({ script: [{ chunks: anthropicTextReply('A cat.') }] });
    try {
      await sendThrough('anthropic:claude-sonnet-4-5', {
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: mock.url,
      });
      const body = mock.requests[0]!.body as { messages: { role: string; content: unknown }[] };
      const user = body.messages.filter((message) => message.role === 'user').at(-1)!;
      // (The last block also carries the prompt-cache marker.)
      expect(user.content).toContainEqual(
        expect.objectContaining({
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
        }),
      );
    } finally {
      await mock.close();
    }
  });
});
