import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResponse } from '../../src/contracts/messages';
import { createWebFetchTool } from '../../src/tools/builtin/web-fetch';
import type { Tool, ToolContext, ToolModelClient } from '../../src/tools/tool';
import type { HostLookup } from '../../src/tools/web/guarded-lookup';
import { runTool, text } from './helpers';

// web_fetch on a Gemini model: the URL-context call first, fetching directly only as the fallback.
type Request = Omit<GenerateRequest, 'model'>;

let ws: TempWorkspace;
let server: Server;
let port: number;
let hits: string[];
let tool: Tool;
beforeEach(async () => {
  ws = createTempWorkspace();
  hits = [];
  server = createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Fetched directly.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // `docs.test` is a public-looking name; the fake DNS sends the fallback fetch to the local server.
  const lookup: HostLookup = async () => [{ address: '127.0.0.1', family: 4 }];
  tool = createWebFetchTool({ lookup });
});
afterEach(async () => {
  ws.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

const reply = (value: string, extra: Record<string, unknown> = {}): GenerateResponse => ({
  candidates: [{ content: { role: 'model', parts: [{ text: value }] }, finishReason: 'STOP', ...extra }],
});

function model(provider: string, answers: ((request: Request) => GenerateResponse)[]) {
  const requests: Request[] = [];
  const client: ToolModelClient = {
    provider,
    model: 'm',
    async generateContent(request) {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next(request);
    },
  };
  return { client, requests };
}

const context = (client: ToolModelClient): ToolContext => ({
  ...ws.ctx,
  // Needed for the fallback's socket to 127.0.0.1; the URL-context path never connects here.
  allowPrivateNetworkFetch: true,
  model: client,
});

describe('web_fetch through the URL context', () => {
  it('asks the model once with the urlContext tool and returns its cited answer; nothing is fetched here', async () => {
    const url = `http://docs.test:${port}/guide`;
    const { client, requests } = model('gemini', [
      () =>
        reply('The guide says hello.', {
          groundingMetadata: {
            groundingChunks: [{ web: { uri: url, title: 'Guide' } }],
            groundingSupports: [{ segment: { endIndex: 21 }, groundingChunkIndices: [0] }],
          },
          urlContextMetadata: {
            urlMetadata: [{ retrievedUrl: url, urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }],
          },
        }),
    ]);
    const result = await runTool(tool, { prompt: `Summarise ${url}` }, context(client));
    expect(requests).toEqual([
      { contents: [{ role: 'user', parts: [{ text: `Summarise ${url}` }] }], builtinTools: ['urlContext'] },
    ]);
    expect(text(result)).toBe(
      `<untrusted_context>\nThe guide says hello.[1]\n\nSources:\n[1] Guide (${url})\n</untrusted_context>`,
    );
    expect(result.returnDisplay).toBe('Content processed from prompt.');
    expect(hits).toEqual([]);
  });

  const fallbacks: [string, (request: Request) => GenerateResponse][] = [
    ['an empty answer without sources', () => reply('')],
    [
      'every URL failing to load',
      () =>
        reply('I could not open it.', {
          urlContextMetadata: { urlMetadata: [{ urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_ERROR' }] },
        }),
    ],
    [
      'a failed call',
      () => {
        throw new Error('400 url_context is not supported');
      },
    ],
  ];
  for (const [what, first] of fallbacks) {
    it(`fetches directly after ${what}`, async () => {
      const url = `http://docs.test:${port}/guide`;
      const { client, requests } = model('gemini', [first, () => reply('From the fetched page.')]);
      const result = await runTool(tool, { prompt: `Summarise ${url}` }, context(client));
      expect(result.error).toBeUndefined();
      expect(hits).toEqual([`docs.test:${port} /guide`]);
      expect(requests).toHaveLength(2);
      expect(requests[0]!.builtinTools).toEqual(['urlContext']);
      // The fallback's call carries the page and no server-side tool.
      expect(requests[1]!.builtinTools).toBeUndefined();
      expect(requests[1]!.contents[0]!.parts[0]!.text).toContain('Fetched directly.');
      expect(text(result)).toBe('<untrusted_context>\nFrom the fetched page.\n</untrusted_context>');
    });
  }

  it('other providers fetch directly, without a URL-context call', async () => {
    const { client, requests } = model('openai', [() => reply('Direct.')]);
    await runTool(tool, { prompt: `Read http://docs.test:${port}/a` }, context(client));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.builtinTools).toBeUndefined();
    expect(hits).toHaveLength(1);
  });

  it('a private address (allowed by settings) is out of Google’s reach: fetched here', async () => {
    const { client, requests } = model('gemini', [() => reply('Local.')]);
    await runTool(tool, { prompt: `Read http://127.0.0.1:${port}/local` }, context(client));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.builtinTools).toBeUndefined();
    expect(hits).toEqual([`127.0.0.1:${port} /local`]);
  });

  it('the per-host rate limit applies before the URL-context call, with Gemini CLI’s wording', async () => {
    const urls = Array.from({ length: 11 }, (_, i) => `http://docs.test:${port}/p${i}`);
    const { client } = model('gemini', [() => reply('Eleven pages.'), () => reply('again')]);
    const first = await runTool(tool, { prompt: urls.join(' ') }, context(client));
    expect(text(first)).toBe(
      `[Warning] The following URLs were skipped:\n[Rate limit exceeded] ${urls[10]}\n\n<untrusted_context>\nEleven pages.\n</untrusted_context>`,
    );
    const second = await runTool(tool, { prompt: urls[0]! }, context(client));
    expect(second.error).toEqual({
      type: 'web_fetch_processing_error',
      message: `All requested URLs were skipped: [Rate limit exceeded] ${urls[0]}`,
    });
    expect(hits).toEqual([]);
  });
});
