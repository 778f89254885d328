// biome-ignore-all lint/suspicious/noTemplateCurlyInString: settings values are written with literal ${VAR} references on purpose.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, type Settings, SettingsError } from '../../src/config/settings';

let home: string;
let project: string;
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kodo-settings-home-'));
  project = mkdtempSync(join(tmpdir(), 'kodo-settings-project-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

const env = () => ({ KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home });

describe('loadSettings', () => {
  it('merges user then project, deeply, and ignores unknown keys', () => {
    write(
      join(home, '.kodo', 'settings.json'),
      '{"model": {"name": "user-model", "maxSessionTurns": 5}, "ui": {"x": 1}}',
    );
    write(join(project, '.kodo', 'settings.json'), '{"model": {"name": "project-model"}}');
    const { merged, sources } = loadSettings({ cwd: project, env: env() });
    expect(merged.model).toEqual({ name: 'project-model', maxSessionTurns: 5 });
    expect(sources).toHaveLength(2);
  });

  it("reads Gemini CLI's settings where kodo's are absent", () => {
    write(join(home, '.gemini', 'settings.json'), '{"model": {"name": "from-gemini"}}');
    write(join(project, '.gemini', 'settings.json'), '{"output": {"format": "json"}}');
    const { merged } = loadSettings({ cwd: project, env: env() });
    expect(merged).toEqual({ model: { name: 'from-gemini' }, output: { format: 'json' } });
  });

  it("prefers kodo's file over Gemini CLI's in the same scope", () => {
    write(join(project, '.gemini', 'settings.json'), '{"model": {"name": "gemini"}}');
    write(join(project, '.kodo', 'settings.json'), '{"model": {"name": "kodo"}}');
    expect(loadSettings({ cwd: project, env: env() }).merged.model?.name).toBe('kodo');
  });

  it('accepts comments and trailing commas, keeps // inside strings', () => {
    write(
      join(project, '.kodo', 'settings.json'),
      '{\n  // a comment\n  "model": {"name": "a//b", /* inline */ "maxSessionTurns": 3,},\n}',
    );
    expect(loadSettings({ cwd: project, env: env() }).merged.model).toEqual({
      name: 'a//b',
      maxSessionTurns: 3,
    });
  });

  it('reports a broken file with its path', () => {
    write(join(project, '.kodo', 'settings.json'), '{"model": ');
    expect(() => loadSettings({ cwd: project, env: env() })).toThrow(SettingsError);
    expect(() => loadSettings({ cwd: project, env: env() })).toThrow(/settings\.json/);
  });
});

describe('environment variables in settings', () => {
  it('expands $VAR, ${VAR} and ${VAR:-default} in every string, leaving unknown ones as written', () => {
    write(
      join(home, '.kodo', 'settings.json'),
      JSON.stringify({
        model: { name: '${MODEL:-gemini-2.5-flash}' },
        context: { fileName: ['$DOC_NAME', '${UNSET_NAME}', '${EMPTY:-fallback}'] },
        mcpServers: { s: { command: '$TOOLS/bin/server', args: ['--key=${KEY}'], env: { X: '$$ and $' } } },
      }),
    );
    const settings = loadSettings({
      cwd: project,
      env: { ...env(), DOC_NAME: 'NOTES.md', EMPTY: '', TOOLS: '/opt/tools', KEY: 'k1' },
    }).merged;
    expect(settings.model?.name).toBe('gemini-2.5-flash');
    expect(settings.context?.fileName).toEqual(['NOTES.md', '${UNSET_NAME}', 'fallback']);
    expect(settings.mcpServers?.s?.command).toBe('/opt/tools/bin/server');
    expect(settings.mcpServers?.s?.args).toEqual(['--key=k1']);
    expect(settings.mcpServers?.s?.env).toEqual({ X: '$$ and $' });
  });
});

describe('lists merged as unions', () => {
  it('adds up tools.exclude, customIgnoreFilePaths and excludedEnvVars across scopes', () => {
    write(
      join(home, '.kodo', 'settings.json'),
      JSON.stringify({
        tools: { exclude: ['web_fetch'] },
        context: { fileFiltering: { customIgnoreFilePaths: ['/home/ignores'] } },
        advanced: { excludedEnvVars: ['A'] },
        context2: ['replaced'],
      }),
    );
    write(
      join(project, '.kodo', 'settings.json'),
      JSON.stringify({
        tools: { exclude: ['web_fetch', 'run_shell_command'] },
        context: { fileFiltering: { customIgnoreFilePaths: ['project-ignores'] } },
        advanced: { excludedEnvVars: ['B'] },
        context2: ['project'],
      }),
    );
    const merged = loadSettings({ cwd: project, env: env() }).merged as Settings & { context2?: unknown };
    expect(merged.tools?.exclude).toEqual(['web_fetch', 'run_shell_command']);
    expect(merged.context?.fileFiltering?.customIgnoreFilePaths).toEqual([
      '/home/ignores',
      'project-ignores',
    ]);
    expect(merged.advanced?.excludedEnvVars).toEqual(['A', 'B']);
    // Other arrays are replaced by the later scope.
    expect(merged.context2).toEqual(['project']);
  });
});
