import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs } from './helpers';

const dirs = e2eDirs();

/** A home with Gemini CLI and Claude Code set up, and a project with files of both. */
function mixedSetup(): void {
  const home = dirs.home;
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), '{"model":{"name":"gemini-2.5-pro"}}');
  writeFileSync(join(home, '.gemini', 'GEMINI.md'), '# mine\n');
  mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
  mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(home, '.claude', 'settings.json'), '{"permissions":{}}');
  writeFileSync(
    join(home, '.claude', 'commands', 'review.md'),
    '---\ndescription: review\n---\nReview $ARGUMENTS\n',
  );
  writeFileSync(
    join(home, '.claude', 'agents', 'helper.md'),
    '---\nname: helper\ndescription: helps\n---\nYou help.\n',
  );
  writeFileSync(join(dirs.workspace, 'AGENTS.md'), '# project\n');
  writeFileSync(join(dirs.workspace, 'CLAUDE.md'), '# project for Claude\n');
  writeFileSync(join(dirs.workspace, '.mcp.json'), '{"mcpServers":{"x":{"command":"true"}}}');
}

const env = () => ({
  HOME: dirs.home,
  KODO_HOME: join(dirs.home, '.kodo'),
  GEMINI_API_KEY: 'do-not-print-me',
  HTTPS_PROXY: 'http://proxy.corp.example:3128',
  no_proxy: '.corp.example',
});

describe('kodo doctor', () => {
  it('says which files of a mixed Gemini CLI / Claude Code setup it honours, maps or ignores', async () => {
    mixedSetup();
    const run = await runKodo(['doctor'], { cwd: dirs.workspace, env: env(), timeoutMs: 30_000 });
    const out = run.stdout;
    expect(out).toContain(`honoured ${join(dirs.workspace, 'AGENTS.md')}: context file`);
    expect(out).toContain(`honoured ${join(dirs.workspace, 'CLAUDE.md')}: context file`);
    // Each file has one verdict: the project's CLAUDE.md is not also listed as ignored.
    const verdicts = out
      .split('\n')
      .filter(
        (line) =>
          line.endsWith(` ${join(dirs.workspace, 'CLAUDE.md')}`) ||
          line.includes(` ${join(dirs.workspace, 'CLAUDE.md')}:`),
      );
    expect(verdicts).toHaveLength(1);
    expect(out).toContain(
      `honoured ${join(dirs.workspace, '.mcp.json')}: Claude Code's project MCP servers (trusted folders`,
    );
    expect(out).toContain(
      `honoured ${join(dirs.home, '.gemini', 'settings.json')}: Gemini CLI user settings`,
    );
    expect(out).toMatch(/mapped {3}\S+\.claude\/commands: Claude Code commands/);
    expect(out).toMatch(/ignored {2}\S+\.claude\/settings\.json/);
    expect(out).toContain('commands: review');
    expect(out).toContain('agents: helper');
    expect(out).toMatch(/ok {3}shell parser/);
    expect(out).toMatch(/ok {3}ripgrep: ripgrep \d+/);
    expect(out).toContain('proxy: https http://proxy.corp.example:3128, http -, no_proxy .corp.example');
    expect(out).toContain('API keys set: GEMINI_API_KEY');
    expect(out).not.toContain('do-not-print-me');
  });

  it('--json carries the same report, key names only', async () => {
    mixedSetup();
    const run = await runKodo(['doctor', '--json'], { cwd: dirs.workspace, env: env(), timeoutMs: 30_000 });
    const report = JSON.parse(run.stdout);
    expect(report.node).toBe(process.version);
    expect(report.apiKeys).toEqual(['GEMINI_API_KEY']);
    expect(report.proxy).toMatchObject({ https: 'http://proxy.corp.example:3128', noProxy: '.corp.example' });
    expect(report.found.commands).toContain('review');
    expect(report.checks.map((check: { name: string }) => check.name)).toEqual([
      'shell parser',
      'ripgrep',
      'pty',
      'sandbox',
    ]);
    expect(report.files.map((file: { path: string }) => file.path)).toContain(
      join(dirs.workspace, '.mcp.json'),
    );
    expect(run.stdout).not.toContain('do-not-print-me');
  });
});
