import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'write-file.jsonl');
const dirs = e2eDirs();

function settings(telemetry: Record<string, unknown>) {
  mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
  writeFileSync(join(dirs.workspace, '.kodo', 'settings.json'), JSON.stringify({ telemetry }));
}

/** The outfile holds pretty JSON objects back to back. */
function readItems(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, 'utf8').trim();
  return JSON.parse(`[${text.replace(/\n\}\n\{/g, '\n},\n{')}]`);
}

const eventNames = (items: Record<string, unknown>[]) =>
  items.flatMap((item) => {
    const name = (item.attributes as Record<string, unknown> | undefined)?.['event.name'];
    return typeof name === 'string' ? [name] : [];
  });

describe('telemetry', () => {
  it('is off by default: nothing is written', async () => {
    const run = await runKodo(['-p', 'make it', '-y', '--fake-responses', fixture], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'secret-key-value' },
    });
    expect(run.code).toBe(0);
    expect(() => readFileSync(join(dirs.home, 'telemetry.json'))).toThrow();
  });

  it('writes logs and metrics to a local file, without prompts or keys unless asked', async () => {
    const outfile = join(dirs.home, 'telemetry.json');
    settings({ enabled: true, outfile });
    const run = await runKodo(['-p', 'make the notes file', '-y', '--fake-responses', fixture], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'secret-key-value' },
    });
    expect(run.code).toBe(0);
    const items = readItems(outfile);
    const names = eventNames(items);
    expect(names).toEqual(
      expect.arrayContaining(['kodo.user_prompt', 'kodo.api_response', 'kodo.tool_call']),
    );
    const raw = readFileSync(outfile, 'utf8');
    expect(raw).not.toContain('make the notes file');
    expect(raw).not.toContain('secret-key-value');
    expect(raw).not.toContain('hello\\nworld');
    const tool = items.find(
      (item) => (item.attributes as Record<string, unknown> | undefined)?.['event.name'] === 'kodo.tool_call',
    );
    expect(tool?.attributes).toMatchObject({
      function_name: 'write_file',
      success: true,
      decision: 'accept',
    });
    const metricNames = items.flatMap((item) =>
      ((item.scopeMetrics as { metrics: { descriptor: { name: string } }[] }[] | undefined) ?? []).flatMap(
        (scope) => scope.metrics.map((metric) => metric.descriptor.name),
      ),
    );
    expect(metricNames).toEqual(
      expect.arrayContaining(['kodo.tool.call.count', 'kodo.api.request.count', 'kodo.token.usage']),
    );
  });

  it('includes prompt text and tool arguments with logPrompts', async () => {
    const outfile = join(dirs.home, 'telemetry.json');
    settings({ enabled: true, outfile, logPrompts: true });
    await runKodo(['-p', 'make the notes file', '-y', '--fake-responses', fixture], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'secret-key-value' },
    });
    const raw = readFileSync(outfile, 'utf8');
    expect(raw).toContain('make the notes file');
    expect(raw).toContain('notes/hello.txt');
    expect(raw).not.toContain('secret-key-value');
  });

  it('exports to an OTLP/HTTP endpoint', async () => {
    const paths: string[] = [];
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        paths.push(req.url ?? '');
        bodies.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      settings({ enabled: true, otlpEndpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const run = await runKodo(['-p', 'x', '-y', '--fake-responses', fixture], {
        cwd: dirs.workspace,
        env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'k' },
      });
      expect(run.code).toBe(0);
      expect(paths).toEqual(expect.arrayContaining(['/v1/logs', '/v1/metrics']));
      expect(bodies.join('\n')).toContain('kodo.tool_call');
    } finally {
      server.close();
    }
  });
  it('reports each hook run as a hook_call event and metric', async () => {
    const outfile = join(dirs.home, 'telemetry.json');
    mkdirSync(join(dirs.workspace, '.kodo'), { recursive: true });
    writeFileSync(
      join(dirs.workspace, '.kodo', 'settings.json'),
      JSON.stringify({
        telemetry: { enabled: true, outfile },
        hooks: {
          BeforeAgent: [{ hooks: [{ type: 'command', name: 'greeter', command: 'echo {}' }] }],
          AfterAgent: [{ hooks: [{ type: 'command', name: 'failing', command: 'exit 1' }] }],
        },
      }),
    );
    const run = await runKodo(['-p', 'make it', '-y', '--fake-responses', fixture], {
      cwd: dirs.workspace,
      env: { KODO_HOME: dirs.home, GEMINI_API_KEY: 'secret-key-value' },
    });
    expect(run.code, run.stderr).toBe(0);
    const hookCalls = readItems(outfile)
      .map((item) => item.attributes as Record<string, unknown> | undefined)
      .filter((attributes) => attributes?.['event.name'] === 'kodo.hook_call');
    expect(hookCalls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ hook_event_name: 'BeforeAgent', success: true, exit_code: 0 }),
        expect.objectContaining({ hook_event_name: 'AfterAgent', success: false, exit_code: 1 }),
      ]),
    );
  });
});
