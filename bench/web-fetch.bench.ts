// web_fetch: what a call costs on kodo's side (the model's answer not included). HTML → Markdown
// is the expensive step (turndown and its DOM parser), so it is measured cold (module load + first
// page), on a typical page, and on the worst case the caps allow; then whole tool calls of 1 and
// 20 URLs against a local server with an instant fake model.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createWebFetchTool } from '../packages/core/src/tools/builtin/web-fetch';
import type { ToolContext } from '../packages/core/src/tools/tool';
import { htmlToMarkdown } from '../packages/core/src/tools/web/page-text';
import { Workspace } from '../packages/core/src/tools/workspace';
import { fmt, median, printTable } from './table';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

/** A page shaped like a documentation site: chrome, inline scripts and styles, then prose. */
function typicalPage(sections: number): string {
  const script = `<script>${'window.__data={"k":"v","list":[1,2,3]};'.repeat(400)}</script>`;
  const style = `<style>${'.c{color:red;margin:0 auto;padding:4px}'.repeat(300)}</style>`;
  const section = (i: number) =>
    `<h2>Section ${i}</h2><p>Some <b>text</b> with <a href="/x/${i}">a link</a> and <code>code()</code> ` +
    'explaining how the thing works in more words than strictly necessary.</p>' +
    '<ul><li>first point</li><li>second point</li></ul><pre><code>const x = 1;\nconst y = 2;\n</code></pre>';
  const body = Array.from({ length: sections }, (_, i) => section(i)).join('');
  return `<!doctype html><html><head><title>Docs</title>${style}${script}</head><body><nav>${'<a href="/">Home</a>'.repeat(50)}</nav>${script}<main>${body}</main>${script}</body></html>`;
}

async function time<T>(fn: () => Promise<T>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function samples(fn: () => Promise<unknown>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < RUNS; i++) values.push(await time(fn));
  return median(values);
}

const typical = typicalPage(300);
const worst = `<html><body>${'<p>Plain prose with <b>some</b> markup and a <a href="/l">link</a>.</p>'.repeat(140_000)}</body></html>`;

const rows: (string | number)[][] = [];
const kb = (text: string) => `${fmt(Buffer.byteLength(text) / 1024, 0)} KB`;

const coldMs = await time(() => htmlToMarkdown(typical));
rows.push([
  `first HTML page, cold (turndown load + ${kb(typical)})`,
  fmt(coldMs),
  '< 1000',
  coldMs < 1000 ? 'yes' : 'NO',
]);
const typicalMs = await samples(() => htmlToMarkdown(typical));
rows.push([
  `typical page ${kb(typical)} → Markdown`,
  fmt(typicalMs),
  '< 300',
  typicalMs < 300 ? 'yes' : 'NO',
]);
const worstMs = await samples(() => htmlToMarkdown(worst));
rows.push([
  `worst case ${kb(worst)} of prose (capped at 1M chars)`,
  fmt(worstMs),
  '< 3000',
  worstMs < 3000 ? 'yes' : 'NO',
]);

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(typical);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const ctx: ToolContext = {
  workspace: new Workspace({ roots: [tmpdir()] }),
  env: {},
  shellInactivityTimeoutMs: 1000,
  allowPrivateNetworkFetch: true,
  model: {
    provider: 'gemini',
    model: 'bench',
    generateContent: async () => ({
      candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
    }),
  },
};
let counter = 0;
async function callTool(urls: number): Promise<void> {
  // A fresh tool per call: the per-host rate limit would otherwise skip URLs after the first runs.
  const tool = createWebFetchTool();
  const prompt = Array.from({ length: urls }, () => `${base}/p${counter++}`).join(' ');
  const built = tool.build({ prompt: `summarize ${prompt}` }, ctx);
  if (!built.ok) throw new Error(built.error.message);
  const result = await built.invocation.execute({ signal: new AbortController().signal });
  if (result.error) throw new Error(result.error.message);
}
const oneMs = await samples(() => callTool(1));
rows.push([
  'web_fetch call, 1 URL (local server, instant model)',
  fmt(oneMs),
  '< 300',
  oneMs < 300 ? 'yes' : 'NO',
]);
const twentyMs = await samples(() => callTool(20));
rows.push(['web_fetch call, 20 URLs', fmt(twentyMs), '< 3000', twentyMs < 3000 ? 'yes' : 'NO']);
server.close();

printTable(['case', 'median ms', 'budget ms', 'met'], rows);
