import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings';
import {
  checkFolderTrust,
  geminiTrustFilePath,
  TrustFileError,
  TrustStore,
  trustFilePath,
} from '../../src/safety/trust';

let base: string;
let kodoFile: string;
let geminiFile: string;
let store: TrustStore;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-trust-')));
  kodoFile = join(base, 'kodo', 'trustedFolders.json');
  geminiFile = join(base, 'gemini', 'trustedFolders.json');
  store = new TrustStore({ path: kodoFile, readOnlyFiles: [geminiFile] });
  for (const dir of ['projects/app/src', 'projects/other', 'work/repo'])
    mkdirSync(join(base, dir), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function rules(file: string, text: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
}
const at = (rel: string) => join(base, rel);

describe('TrustStore', () => {
  it('has no opinion without rules, and trusts a folder and its subfolders', () => {
    expect(store.isTrusted(at('projects/app'))).toBeUndefined();
    store.trust(at('projects/app'), 'TRUST_FOLDER');
    expect(store.isTrusted(at('projects/app'))).toBe(true);
    expect(store.isTrusted(at('projects/app/src'))).toBe(true);
    expect(store.isTrusted(at('projects/other'))).toBeUndefined();
    // A sibling whose name starts the same is not inside.
    mkdirSync(at('projects/app-evil'));
    expect(store.isTrusted(at('projects/app-evil'))).toBeUndefined();
  });

  it('applies TRUST_PARENT to the parent folder', () => {
    store.trust(at('projects/app'), 'TRUST_PARENT');
    expect(store.isTrusted(at('projects/other'))).toBe(true);
    expect(store.isTrusted(at('work/repo'))).toBeUndefined();
  });

  it('lets the longest rule path win, so a subfolder can be distrusted', () => {
    store.trust(at('projects'), 'TRUST_FOLDER');
    store.trust(at('projects/app/src'), 'DO_NOT_TRUST');
    expect(store.isTrusted(at('projects/app'))).toBe(true);
    expect(store.isTrusted(at('projects/app/src'))).toBe(false);
    expect(store.ruleFor(at('projects/app/src'))?.level).toBe('DO_NOT_TRUST');
  });

  it('follows symlinks on both sides', () => {
    symlinkSync(at('projects/app'), at('link-to-app'));
    store.trust(at('link-to-app'), 'TRUST_FOLDER');
    expect(store.isTrusted(at('projects/app/src'))).toBe(true);
    expect(JSON.parse(readFileSync(kodoFile, 'utf8'))).toEqual({ [at('projects/app')]: 'TRUST_FOLDER' });
    symlinkSync(at('projects/app/src'), at('link-to-src'));
    expect(store.isTrusted(at('link-to-src'))).toBe(true);
  });

  it("reads Gemini CLI's rules too; kodo's win for the same folder", () => {
    rules(
      geminiFile,
      `{\n  // written by Gemini CLI\n  "${at('work')}": "TRUST_FOLDER",\n  "${at('projects')}": "TRUST_FOLDER",\n}\n`,
    );
    rules(kodoFile, JSON.stringify({ [at('projects')]: 'DO_NOT_TRUST' }));
    expect(store.isTrusted(at('work/repo'))).toBe(true);
    expect(store.isTrusted(at('projects/app'))).toBe(false);
  });

  it('writes its file atomically, readable by the user only, keeping other rules', () => {
    store.trust(at('projects/app'), 'TRUST_FOLDER');
    store.trust(at('work'), 'DO_NOT_TRUST');
    expect(statSync(kodoFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(kodoFile, 'utf8'))).toEqual({
      [at('projects/app')]: 'TRUST_FOLDER',
      [at('work')]: 'DO_NOT_TRUST',
    });
    expect(store.forget(at('work'))).toBe(true);
    expect(store.forget(at('work'))).toBe(false);
    expect(store.isTrusted(at('work/repo'))).toBeUndefined();
  });

  it('reports a malformed file or an unknown level as a TrustFileError', () => {
    rules(kodoFile, '{ "/a": ');
    expect(() => store.isTrusted(at('projects'))).toThrow(TrustFileError);
    rules(kodoFile, JSON.stringify({ '/a': 'TRUST_EVERYTHING' }));
    expect(() => store.rules()).toThrow(/"\/a" has level "TRUST_EVERYTHING"/);
    rules(kodoFile, '[]');
    expect(() => store.rules()).toThrow(/top level must be an object/);
  });

  it('finds its files in KODO_HOME and GEMINI_CLI_HOME, or where the variables say', () => {
    expect(trustFilePath({ KODO_HOME: '/h/.kodo' })).toBe('/h/.kodo/trustedFolders.json');
    expect(trustFilePath({ KODO_TRUSTED_FOLDERS_PATH: '/etc/kodo-trust.json' })).toBe('/etc/kodo-trust.json');
    expect(geminiTrustFilePath({ GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini/trustedFolders.json');
  });
});

describe('checkFolderTrust', () => {
  const check = (env: NodeJS.ProcessEnv, options: { skipTrust?: boolean; enabled?: boolean } = {}) =>
    checkFolderTrust({ path: at('projects/app'), env, store, enabled: options.enabled ?? true, ...options });

  it('is untrusted with no rule, and follows the rules', () => {
    expect(check({})).toEqual({ trusted: false, source: 'none' });
    store.trust(at('projects/app'), 'DO_NOT_TRUST');
    expect(check({})).toMatchObject({ trusted: false, source: 'rule' });
    store.trust(at('projects/app'), 'TRUST_FOLDER');
    expect(check({})).toMatchObject({ trusted: true, source: 'rule', rule: { level: 'TRUST_FOLDER' } });
  });

  it('puts --skip-trust first, then the environment, then the setting, then the rules', () => {
    store.trust(at('projects/app'), 'DO_NOT_TRUST');
    expect(check({ KODO_TRUST_WORKSPACE: 'false' }, { skipTrust: true })).toEqual({
      trusted: true,
      source: 'flag',
    });
    expect(check({ KODO_TRUST_WORKSPACE: 'true' })).toEqual({ trusted: true, source: 'env' });
    expect(check({ GEMINI_CLI_TRUST_WORKSPACE: 'true' })).toEqual({ trusted: true, source: 'env' });
    expect(check({ KODO_TRUST_WORKSPACE: 'false' }, { enabled: false })).toEqual({
      trusted: false,
      source: 'env',
    });
    expect(check({}, { enabled: false })).toEqual({ trusted: true, source: 'disabled' });
  });
});

describe('loadSettings in an untrusted folder', () => {
  it('reads only the user settings when the project is skipped', () => {
    const home = at('home');
    rules(join(home, 'settings.json'), JSON.stringify({ model: { name: 'user-model' } }));
    rules(
      at('projects/app/.kodo/settings.json'),
      JSON.stringify({
        model: { name: 'project-model' },
        hooks: { SessionStart: [] },
        security: { folderTrust: { enabled: false } },
      }),
    );
    const env = { KODO_HOME: home, GEMINI_CLI_HOME: at('no-gemini') };
    const trusted = loadSettings({ cwd: at('projects/app'), env });
    expect(trusted.merged.model?.name).toBe('project-model');
    const untrusted = loadSettings({ cwd: at('projects/app'), env, skipProject: true });
    expect(untrusted.merged).toEqual({ model: { name: 'user-model' } });
    expect(untrusted.scopes?.map((scope) => scope.scope)).toEqual(['user']);
  });
});
