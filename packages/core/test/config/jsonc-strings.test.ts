import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../src/config/settings';
import { TrustFileError, TrustStore } from '../../src/safety/trust';
import {
  fingerprintMatches,
  projectFingerprint,
  TrustFingerprints,
} from '../../src/safety/trust-fingerprint';
import { parseJsonc } from '../../src/utils/jsonc';

/**
 * Issue N, "Settings strings change while being read": the comment and trailing-comma stripping
 * that ran before JSON.parse did not know where strings end, so `"a{1,}"` was read as `"a{1}"`.
 * Every JSONC file kodo reads (settings, trusted folders, trust fingerprints, the fingerprint's
 * own reading of settings) must give back each string exactly as written.
 */

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-jsonc-')));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(relative: string, text: string): string {
  const path = join(dir, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Strings that a comma-before-bracket or comment stripper outside a real parser changes. */
const TRICKY = ['a{1,}', 'x,]', 'a, }', 'p,\n]', '/* kept */', 'http://kept', 'q\\",}'];

describe('strings in JSONC files are read exactly as written', () => {
  it('settings: a value holding ",}" or ",]" keeps its comma', () => {
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    const values = Object.fromEntries(TRICKY.map((value, index) => [`k${index}`, value]));
    write(
      'project/.kodo/settings.json',
      `{\n  // a comment\n  "model": {"name": "a{1,}",},\n  "ui": ${JSON.stringify({ theme: 'x,]' })},\n  "extra": ${JSON.stringify(values)},\n}`,
    );
    const { merged } = loadSettings({
      cwd: project,
      env: { KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home },
    });
    expect(merged.model?.name).toBe('a{1,}');
    expect(merged.ui?.theme).toBe('x,]');
    expect((merged as Record<string, unknown>).extra).toEqual(values);
  });

  it('settings: a parse error still names the file, line and column', () => {
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    const path = write('project/.kodo/settings.json', '{\n  "model": {"name": "a{1,}"\n  "ui": {}\n}');
    const load = () =>
      loadSettings({ cwd: project, env: { KODO_HOME: join(home, '.kodo'), GEMINI_CLI_HOME: home } });
    expect(load).toThrow(SettingsError);
    expect(load).toThrow(
      `Invalid settings file ${path}: line 3, column 3: unexpected "\\"": expected ',' or '}'`,
    );
  });

  it('trusted folders: a folder whose name holds ",}" is the folder trusted', () => {
    const file = write(
      'trustedFolders.json',
      `{\n  ${JSON.stringify('/work/a,}')}: "TRUST_FOLDER", // mine\n}`,
    );
    const rules = new TrustStore({ path: file }).rules();
    expect(rules.map((rule) => rule.path)).toEqual(['/work/a,}']);
  });

  it('trusted folders: a broken file is refused with its line and column', () => {
    const file = write('trustedFolders.json', '{\n  "/work": "TRUST_FOLDER"\n  "/x": "TRUST_FOLDER"\n}');
    expect(() => new TrustStore({ path: file }).rules()).toThrow(TrustFileError);
    expect(() => new TrustStore({ path: file }).rules()).toThrow(/line 3, column 3/);
  });

  it('trust fingerprints: a folder whose name holds ",]" keeps its stored fingerprint', () => {
    const file = join(dir, 'trustFingerprints.json');
    const folder = join(dir, 'x,]');
    mkdirSync(folder);
    writeFileSync(file, `{\n  ${JSON.stringify(folder)}: "sha256:abc",\n}`);
    expect(new TrustFingerprints(file).get(folder)).toBe('sha256:abc');
  });

  it('the trust fingerprint follows a policy file whose name holds ",]"', () => {
    const project = join(dir, 'project');
    write('project/.kodo/settings.json', `{\n  "policyPaths": ["./rules,]"],\n}`);
    write('project/rules,]', '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\n');
    const before = projectFingerprint(project);
    write('project/rules,]', '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\n');
    expect(fingerprintMatches(before, projectFingerprint(project))).toBe(false);
  });
});

describe('parseJsonc', () => {
  it('reads comments and trailing commas, and strings as written', () => {
    expect(parseJsonc('{"a": "b,}", /* c */ "d": ["e,]", "// f",], // g\n}')).toEqual({
      a: 'b,}',
      d: ['e,]', '// f'],
    });
  });

  it.each([
    ['{"a": 1', 1, 8],
    ['{\n  "a": 1,\n  b: 2\n}', 3, 3],
    ['[1 2]', 1, 4],
    ['{"a": "x\ny"}', 1, 9],
    ['/* open', 1, 1],
    ['', 1, 1],
  ])('%j fails at line %i, column %i', (text, line, column) => {
    expect(() => parseJsonc(text)).toThrow(new RegExp(`^line ${line}, column ${column}: `));
  });
});

describe('plain JSON and JSONC read the same', () => {
  // Plain JSON goes to JSON.parse, JSONC to the JSONC parser (utils/jsonc.ts): the same text, with
  // a comment added so that only the JSONC parser can read it, must give the same value.
  const texts = [
    '{"model": {"name": "gemini-2.5-pro"}, "tools": {"exclude": ["web_fetch"], "allowed": []}}',
    '{"a": 1, "a": 2, "n": -0.5e3, "u": "\\u00e9\\ud83d\\ude00", "nested": [[{"x": null}], true, false]}',
    '{"__proto__": {"polluted": true}, "kept": {"__proto__": {"also": 1}, "ok": 1}, "list": [{"__proto__": 5}]}',
    '[1, "two", {"three": 3}]',
    '"just a string"',
  ];
  for (const text of texts) {
    it(`${text.slice(0, 40)}…`, () => {
      const plain = parseJsonc(text);
      const commented = parseJsonc(`// a comment\n${text}`);
      expect(plain).toEqual(commented);
      expect(JSON.stringify(plain)).toBe(JSON.stringify(commented));
    });
  }

  it('leaves out a key named __proto__, as an own key and as a prototype, in both', () => {
    for (const text of [
      '{"__proto__": {"polluted": true}, "b": 1}',
      '{"__proto__": {"polluted": true}, "b": 1,}',
    ]) {
      const value = parseJsonc(text) as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(['b']);
      expect(value.polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('a byte-order mark and a text JSON.parse rejects still parse, or fail with a line and column', () => {
    expect(parseJsonc('\ufeff{"a": 1}')).toEqual({ a: 1 });
    expect(parseJsonc('{"a": [1, 2,],}')).toEqual({ a: [1, 2] });
    expect(() => parseJsonc('{"a": 1\n "b": 2}')).toThrow(/^line 2, column 2: /);
  });
});
