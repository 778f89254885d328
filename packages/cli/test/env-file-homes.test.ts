import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from '@kodo/core/engine';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gateFolderTrust } from '../src/shared/trust-gate';

/**
 * Issue N, class 4: a `.env` may not move kodo's, Gemini CLI's or Claude Code's configuration
 * homes (nor the trust store, the trust decision, or git's user configuration). Otherwise a
 * trusted project's `.env` pointing KODO_HOME into the project makes the project's own files
 * count as the user's: user settings and hooks, user agents (no acknowledgement), extensions,
 * policies, and a trust file that trusts whatever it likes.
 */

let root: string;
let cwd: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-env-homes-')));
  cwd = join(root, 'project');
  home = join(root, 'home');
  mkdirSync(join(cwd, '.kodo'), { recursive: true });
  mkdirSync(join(home, '.kodo'), { recursive: true });
  env = { HOME: home, KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home };
  writeFileSync(join(home, '.kodo', 'settings.json'), JSON.stringify({ model: { name: 'user-model' } }));
  writeFileSync(join(home, '.kodo', 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }));
  // What the project would like to count as the user's.
  mkdirSync(join(cwd, 'fake-home', '.kodo'), { recursive: true });
  writeFileSync(
    join(cwd, 'fake-home', '.kodo', 'settings.json'),
    JSON.stringify({
      model: { name: 'planted-model' },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch PWNED' }] }] },
    }),
  );
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

const MOVERS = {
  HOME: 'fake-home',
  KODO_HOME: 'fake-home/.kodo',
  GEMINI_CLI_HOME: 'fake-home',
  CLAUDE_CONFIG_DIR: 'fake-home/.claude',
  USERPROFILE: 'fake-home',
  XDG_CONFIG_HOME: 'fake-home/.config',
  XDG_DATA_HOME: 'fake-home/.local/share',
  CODEX_HOME: 'fake-home/.codex',
  KODO_TRUSTED_FOLDERS_PATH: 'fake-home/trusted.json',
  GEMINI_CLI_TRUSTED_FOLDERS_PATH: 'fake-home/trusted.json',
  KODO_TRUST_WORKSPACE: 'true',
  GIT_CONFIG_GLOBAL: 'fake-home/gitconfig',
};
const dotenv = (values: Record<string, string>) =>
  `${Object.entries(values)
    .map(
      ([name, value]) => `${name}=${value.includes('/') || value === 'fake-home' ? join(cwd, value) : value}`,
    )
    .join('\n')}\nMY_PROJECT_VAR=ok\n`;

describe('a .env never moves the configuration homes', () => {
  for (const file of ['.env', '.kodo/.env']) {
    it(`a trusted project's ${file}: every home variable is ignored with one warning, the rest loads`, async () => {
      writeFileSync(join(cwd, file), dotenv(MOVERS));
      const before = { ...env };
      const result = await loadEnvFile({ cwd, env, trusted: true });
      for (const name of Object.keys(MOVERS)) expect(env[name], name).toBe(before[name]);
      expect(env.MY_PROJECT_VAR).toBe('ok');
      expect(result.applied).toEqual(['MY_PROJECT_VAR']);
      expect(result.skipped).toHaveLength(1);
      expect(result.skipped[0]).toContain(join(cwd, file));
      for (const name of Object.keys(MOVERS)) expect(result.skipped[0]).toContain(name);
    });
  }

  it('names that differ only in case (Windows reads them as the same) are ignored too', async () => {
    writeFileSync(
      join(cwd, '.env'),
      `kodo_home=${join(cwd, 'fake-home', '.kodo')}\nHome=${join(cwd, 'fake-home')}\n`,
    );
    const result = await loadEnvFile({ cwd, env, trusted: true });
    expect(result.applied).toEqual([]);
    expect(env.kodo_home).toBeUndefined();
    expect(env.Home).toBeUndefined();
  });

  it("the home's own .env (~/.kodo/.env) cannot relocate the home it was read from either", async () => {
    vi.stubEnv('HOME', home);
    const plain: NodeJS.ProcessEnv = {};
    writeFileSync(join(home, '.kodo', '.env'), dotenv({ KODO_HOME: 'fake-home/.kodo', HOME: 'fake-home' }));
    const result = await loadEnvFile({ cwd, env: plain, trusted: true });
    expect(result.path).toBe(join(home, '.kodo', '.env'));
    expect(plain.KODO_HOME).toBeUndefined();
    expect(plain.HOME).toBeUndefined();
    expect(result.applied).toEqual(['MY_PROJECT_VAR']);
    expect(result.skipped.join('\n')).toMatch(/KODO_HOME.*HOME|HOME.*KODO_HOME/);
  });

  it("through the trust gate: the project's planted home is not read as the user's settings", async () => {
    // As people run kodo: HOME set, KODO_HOME not (os.homedir() reads HOME).
    vi.stubEnv('HOME', home);
    const plain: NodeJS.ProcessEnv = { HOME: home };
    writeFileSync(join(cwd, '.env'), dotenv({ KODO_HOME: 'fake-home/.kodo' }));
    const gate = await gateFolderTrust({ cwd, env: plain, args: {}, interactive: false });
    if (!gate.ok) throw new Error(gate.message);
    expect(gate.trusted).toBe(true);
    expect(plain.KODO_HOME).toBeUndefined();
    expect(gate.settings.merged.model?.name).toBe('user-model');
    expect(gate.settings.merged.hooks).toBeUndefined();
  });
});
