import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { type DiscoveryFs, nodeDiscoveryFs } from '../utils/discovery-fs';
import { readTextIfExists } from '../utils/fs-read';

export const ENABLEMENT_FILE = 'extension-enablement.json';

type EnablementData = Record<string, { overrides?: string[] }>;

/**
 * Which extensions are on where: `{"<ext>": {"overrides": ["/abs/dir/*", "!/abs/other/*"]}}`
 * (Gemini CLI's format). `!` disables, a trailing `*` covers subfolders too, the last matching
 * rule wins, no match = enabled. Gemini CLI's file is read before kodo's, so kodo's rules win;
 * kodo writes only its own.
 */
export class ExtensionEnablement {
  constructor(
    private readonly files: { own: string; readOnly?: readonly string[] },
    /** What isEnabled reads through (discovery records it); writes go to the disk directly. */
    private readonly fs: DiscoveryFs = nodeDiscoveryFs,
  ) {}

  static inDirs(
    ownDir: string,
    otherDirs: readonly string[] = [],
    fs: DiscoveryFs = nodeDiscoveryFs,
  ): ExtensionEnablement {
    return new ExtensionEnablement(
      { own: join(ownDir, ENABLEMENT_FILE), readOnly: otherDirs.map((dir) => join(dir, ENABLEMENT_FILE)) },
      fs,
    );
  }

  isEnabled(name: string, cwd: string): boolean {
    const rules = [...(this.files.readOnly ?? []), this.files.own].flatMap(
      (file) => readData(file, this.fs)[name]?.overrides ?? [],
    );
    const target = withSlashes(resolve(cwd));
    let enabled = true;
    for (const rule of rules) {
      const negated = rule.startsWith('!');
      const body = negated ? rule.slice(1) : rule;
      const recursive = body.endsWith('*');
      const path = withSlashes(resolve(recursive ? body.slice(0, -1) : body));
      if (recursive ? target.startsWith(path) : target === path) enabled = !negated;
    }
    return enabled;
  }

  /** Adds a rule for `dir` (and below) to kodo's file, replacing an earlier rule for it. */
  set(name: string, dir: string, enabled: boolean): void {
    const data = readData(this.files.own);
    const path = `${resolve(dir)}${sep}*`;
    const overrides = (data[name]?.overrides ?? []).filter((rule) => rule.replace(/^!/, '') !== path);
    overrides.push(enabled ? path : `!${path}`);
    data[name] = { overrides };
    mkdirSync(dirname(this.files.own), { recursive: true });
    const temp = `${this.files.own}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`);
    renameSync(temp, this.files.own);
  }

  /** Forgets every rule for `name` in kodo's file (uninstall). */
  remove(name: string): void {
    const data = readData(this.files.own);
    if (!(name in data)) return;
    delete data[name];
    writeFileSync(this.files.own, `${JSON.stringify(data, null, 2)}\n`);
  }
}

function withSlashes(path: string): string {
  const normal = path.split(sep).join('/');
  return `${normal.startsWith('/') ? '' : '/'}${normal}${normal.endsWith('/') ? '' : '/'}`;
}

function readData(file: string, fs: DiscoveryFs = nodeDiscoveryFs): EnablementData {
  const text = readTextIfExists(file, fs);
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as EnablementData)
      : {};
  } catch {
    return {};
  }
}
