import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expandImports } from '../../src/context/imports';
import { DEFAULT_CONTEXT_FILE_NAMES, findProjectRoot, ProjectMemory } from '../../src/context/memory-files';
import { FakeContentGenerator } from '../../src/llm/fake';
import { Session } from '../../src/session/session';
import { defineTool } from '../../src/tools/define-tool';
import { ToolRegistry } from '../../src/tools/registry';
import { Workspace } from '../../src/tools/workspace';
import { calls, collect, stream, testTools, text } from '../helpers';

let base: string;
let home: string;
let repo: string;
const write = (path: string, content: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
};

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-memory-')));
  home = join(base, 'home', '.kodo');
  repo = join(base, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
});

const memoryFor = (cwd: string, options: { includeProjectFiles?: boolean } = {}) =>
  new ProjectMemory({
    fileNames: DEFAULT_CONTEXT_FILE_NAMES,
    globalDirs: [home],
    workspaceRoots: [cwd],
    boundaryMarkers: ['.git'],
    includeProjectFiles: options.includeProjectFiles ?? true,
  });

describe('ProjectMemory', () => {
  it('loads global files for the system block and project files root → leaf for the first turn', async () => {
    write(join(home, 'KODO.md'), 'Global: answer in English.');
    write(join(repo, 'AGENTS.md'), 'Repo: use pnpm.');
    write(join(repo, 'pkg', 'GEMINI.md'), 'Package: tests live in test/.');
    write(join(base, 'KODO.md'), 'Above the project root: never read.');
    const memory = memoryFor(join(repo, 'pkg'));
    await memory.load();
    expect(memory.paths()).toEqual([
      join(home, 'KODO.md'),
      join(repo, 'AGENTS.md'),
      join(repo, 'pkg', 'GEMINI.md'),
    ]);
    expect(memory.systemBlock()).toBe(
      `<global_context>\n--- Context from: ${join(home, 'KODO.md')} ---\nGlobal: answer in English.\n--- End of Context from: ${join(home, 'KODO.md')} ---\n</global_context>`,
    );
    expect(memory.firstTurnBlock()).toContain('Repo: use pnpm.');
    expect(memory.firstTurnBlock().indexOf('Repo')).toBeLessThan(memory.firstTurnBlock().indexOf('Package'));
  });

  it('reads CLAUDE.md beside the others, once when another file imports it or it imports one', async () => {
    write(join(repo, 'AGENTS.md'), 'Shared rules.');
    write(join(repo, 'CLAUDE.md'), '@AGENTS.md\nClaude extras.');
    const memory = memoryFor(repo);
    await memory.load();
    expect(memory.paths()).toEqual([join(repo, 'CLAUDE.md')]);
    expect(memory.firstTurnBlock().match(/Shared rules\./g)).toHaveLength(1);
    write(join(repo, 'AGENTS.md'), 'Only agents.');
    write(join(repo, 'GEMINI.md'), 'See @CLAUDE.md');
    write(join(repo, 'CLAUDE.md'), 'Claude only.');
    const second = memoryFor(repo);
    await second.load();
    expect(second.paths()).toEqual([join(repo, 'AGENTS.md'), join(repo, 'GEMINI.md')]);
    expect(second.firstTurnBlock().match(/Claude only\./g)).toHaveLength(1);
  });

  it('reads no project files in an untrusted folder', async () => {
    write(join(repo, 'KODO.md'), 'project');
    const memory = memoryFor(repo, { includeProjectFiles: false });
    await memory.load();
    expect(memory.firstTurnBlock()).toBe('');
  });

  it('discovers subdirectory files once, when a tool touches them', async () => {
    write(join(repo, 'KODO.md'), 'root');
    write(join(repo, 'src', 'deep', 'AGENTS.md'), 'deep rules');
    write(join(repo, 'src', 'deep', 'file.ts'), 'x');
    const memory = memoryFor(repo);
    await memory.load();
    const found = await memory.discoverFor(join(repo, 'src', 'deep', 'file.ts'));
    expect(found).toContain('--- Newly Discovered Project Context ---');
    expect(found).toContain('deep rules');
    expect(found).not.toContain('root');
    expect(await memory.discoverFor(join(repo, 'src', 'deep', 'file.ts'))).toBeUndefined();
  });

  it('finds the project root by its boundary marker', () => {
    mkdirSync(join(repo, 'a', 'b'), { recursive: true });
    expect(findProjectRoot(join(repo, 'a', 'b'), ['.git'])).toBe(repo);
  });
});

describe('@imports', () => {
  it('expands nested imports, refuses cycles, escapes and code spans', async () => {
    write(join(repo, 'KODO.md'), 'Main @./docs/style.md and `@./not-imported.md`\n```\n@./also-not.md\n```');
    write(join(repo, 'docs', 'style.md'), 'Style rules. See @../KODO.md');
    const text = await expandImports('Main @./docs/style.md and `@./x.md`', join(repo, 'KODO.md'), {
      allowedRoots: [repo],
    });
    expect(text).toContain(
      '<!-- Imported from: ./docs/style.md -->\nStyle rules. See <!-- File already processed: ../KODO.md -->',
    );
    expect(text).toContain('`@./x.md`');
    const outside = await expandImports('see @/etc/passwd', join(repo, 'KODO.md'), { allowedRoots: [repo] });
    expect(outside).toBe('see <!-- Import failed: /etc/passwd - Path traversal attempt -->');
    const missing = await expandImports('see @./nope.md.', join(repo, 'KODO.md'), { allowedRoots: [repo] });
    expect(missing).toBe('see <!-- Import failed: ./nope.md - ENOENT -->');
  });

  it('stops at depth 5', async () => {
    for (let i = 0; i < 8; i += 1) write(join(repo, `f${i}.md`), `level ${i} @./f${i + 1}.md`);
    const text = await expandImports('@./f0.md', join(repo, 'KODO.md'), { allowedRoots: [repo] });
    expect(text).toContain('level 4');
    expect(text).toContain('Maximum import depth');
    expect(text).not.toContain('level 6');
  });
});

describe('Session with memory', () => {
  it('puts global memory in the system instruction, project memory in the first turn, and JIT files in tool results', async () => {
    write(join(home, 'KODO.md'), 'GLOBAL-FACT');
    write(join(repo, 'KODO.md'), 'PROJECT-FACT');
    write(join(repo, 'sub', 'KODO.md'), 'SUB-FACT');
    const memory = memoryFor(repo);
    await memory.load();
    const generator = new FakeContentGenerator(
      [stream(calls({ name: 'read_file', args: { file_path: 'sub/a.ts' } })), stream(text('ok'))],
      { strict: true },
    );
    const requests: unknown[] = [];
    const recording = {
      ...generator,
      provider: 'fake',
      generateContent: generator.generateContent.bind(generator),
      countTokens: generator.countTokens.bind(generator),
      generateContentStream(
        request: Parameters<FakeContentGenerator['generateContentStream']>[0],
        signal: AbortSignal,
      ) {
        requests.push(structuredClone(request));
        return generator.generateContentStream(request, signal);
      },
    };
    const readFile = defineTool({
      name: 'read_file',
      displayName: 'ReadFile',
      kind: 'read',
      description: 'reads',
      parameters: z.object({ file_path: z.string() }),
      describe: (p) => p.file_path,
      execute: async () => ({ llmContent: 'file text', returnDisplay: '' }),
    });
    const tools = [...testTools(), readFile];
    const session = new Session({
      generator: recording,
      model: 'm',
      tools: new ToolRegistry(tools),
      toolContext: { workspace: new Workspace({ roots: [repo] }), env: {}, shellInactivityTimeoutMs: 1000 },
      memory,
    });
    await collect(session.sendMessage('go', new AbortController().signal));
    const first = requests[0] as { systemInstruction: string; contents: { parts: { text?: string }[] }[] };
    expect(first.systemInstruction).toContain('GLOBAL-FACT');
    expect(first.contents[0]!.parts[0]!.text).toContain('PROJECT-FACT');
    expect(first.contents[0]!.parts[0]!.text).not.toContain('SUB-FACT');
    const second = requests[1] as {
      contents: { parts: { functionResponse?: { response: { output: string } } }[] }[];
    };
    const output = second.contents[2]!.parts[0]!.functionResponse!.response.output;
    expect(output).toMatch(
      /^file text\n\n--- Newly Discovered Project Context ---\n--- Context from: .*sub\/KODO\.md ---\nSUB-FACT/,
    );
  });
});
