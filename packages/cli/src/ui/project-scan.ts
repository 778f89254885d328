import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What `/init` tells the model about a project before it writes the context file: the layout
 * (two levels), the package manifests and their scripts, the README and any other agents'
 * context files. Bounded everywhere: a huge tree or README costs a few KB, not the context.
 */
export interface ProjectScan {
  /** Top-level entries, directories with a trailing `/` and a few of their entries. */
  layout: string[];
  manifests: { path: string; text: string }[];
  /** `npm run` scripts from package.json, as `name: command`. */
  scripts: string[];
  readme?: { path: string; text: string };
  otherContextFiles: { path: string; text: string }[];
}

const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  'dist',
  'build',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.next',
  'coverage',
]);
const MANIFESTS = [
  'package.json',
  'pyproject.toml',
  'setup.py',
  'requirements.txt',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Gemfile',
  'composer.json',
  'deno.json',
  'Makefile',
  'CMakeLists.txt',
  'tsconfig.json',
];
const CONTEXT_FILES = ['KODO.md', 'AGENTS.md', 'GEMINI.md', 'CLAUDE.md', '.cursorrules', 'CONTRIBUTING.md'];
const MAX_TOP_ENTRIES = 80;
const MAX_CHILD_ENTRIES = 12;
const MANIFEST_CHARS = 3_000;
const README_CHARS = 4_000;
const CONTEXT_CHARS = 2_000;

async function entries(dir: string): Promise<{ name: string; dir: boolean }[]> {
  try {
    const found = await readdir(dir, { withFileTypes: true });
    return found
      .map((entry) => ({ name: entry.name, dir: entry.isDirectory() }))
      .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
  } catch {
    return [];
  }
}

async function head(path: string, chars: number): Promise<string | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    return text.length > chars ? `${text.slice(0, chars)}\n… (${text.length - chars} more characters)` : text;
  } catch {
    return undefined;
  }
}

export async function scanProject(root: string, options: { skip: readonly string[] }): Promise<ProjectScan> {
  const top = await entries(root);
  const layout: string[] = [];
  for (const entry of top.slice(0, MAX_TOP_ENTRIES)) {
    if (!entry.dir) {
      layout.push(entry.name);
      continue;
    }
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const children = await entries(join(root, entry.name));
    const shown = children.slice(0, MAX_CHILD_ENTRIES).map((child) => `${child.name}${child.dir ? '/' : ''}`);
    const more = children.length > shown.length ? `, … (${children.length - shown.length} more)` : '';
    layout.push(`${entry.name}/  (${shown.join(', ')}${more})`);
  }
  if (top.length > MAX_TOP_ENTRIES) layout.push(`… (${top.length - MAX_TOP_ENTRIES} more entries)`);

  const names = new Set(top.map((entry) => entry.name));
  const manifests: ProjectScan['manifests'] = [];
  for (const name of MANIFESTS) {
    if (!names.has(name)) continue;
    const text = await head(join(root, name), MANIFEST_CHARS);
    if (text !== undefined) manifests.push({ path: name, text });
  }
  const scripts = await packageScripts(join(root, 'package.json'));
  const readmeName = top.find((entry) => !entry.dir && /^readme(\.\w+)?$/i.test(entry.name))?.name;
  const readmeText = readmeName ? await head(join(root, readmeName), README_CHARS) : undefined;
  const otherContextFiles: ProjectScan['otherContextFiles'] = [];
  for (const name of CONTEXT_FILES) {
    if (!names.has(name) || options.skip.includes(name)) continue;
    const text = await head(join(root, name), CONTEXT_CHARS);
    if (text !== undefined) otherContextFiles.push({ path: name, text });
  }
  return {
    layout,
    manifests,
    scripts,
    ...(readmeName && readmeText !== undefined ? { readme: { path: readmeName, text: readmeText } } : {}),
    otherContextFiles,
  };
}

async function packageScripts(path: string): Promise<string[]> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    const scripts = (parsed as { scripts?: unknown }).scripts;
    if (!scripts || typeof scripts !== 'object') return [];
    return Object.entries(scripts)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, command]) => `${name}: ${command}`);
  } catch {
    return [];
  }
}

/** The scan as the text of a prompt section. */
export function describeScan(scan: ProjectScan): string {
  const fence = (text: string) => `\`\`\`\`\n${text}\n\`\`\`\``;
  const sections = [`## Layout\n${scan.layout.map((line) => `- ${line}`).join('\n') || '(empty)'}`];
  if (scan.scripts.length > 0)
    sections.push(`## npm scripts\n${scan.scripts.map((line) => `- ${line}`).join('\n')}`);
  for (const manifest of scan.manifests) sections.push(`## ${manifest.path}\n${fence(manifest.text)}`);
  if (scan.readme) sections.push(`## ${scan.readme.path}\n${fence(scan.readme.text)}`);
  for (const file of scan.otherContextFiles)
    sections.push(`## ${file.path} (another context file)\n${fence(file.text)}`);
  return sections.join('\n\n');
}
