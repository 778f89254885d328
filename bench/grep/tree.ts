// A synthetic source tree for the grep benchmark: 50,000 source-like files in a monorepo layout
// plus ignored directories (node_modules, a gitignored dist/), generated once from a fixed seed
// and reused by later runs. Planted tokens give queries with known match counts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Bump when the layout or content changes, so an old tree is regenerated. */
const TREE_VERSION = 1;
export const SOURCE_FILES = 50_000;
const PACKAGES = 50;
const MODULES_PER_PACKAGE = 20;
const FILES_PER_MODULE = SOURCE_FILES / (PACKAGES * MODULES_PER_PACKAGE);
const NODE_MODULES_FILES = 5_000;
const DIST_FILES = 2_000;

/** In exactly two source files (and in ignored files, which must not count). */
export const RARE_TOKEN = 'ZEPHYR_QUARTZ_7781';
/** `function <name>Handler(`: in every 800th source file, below the default cap of 100. */
export const HANDLER_EVERY = 800;

export interface GrepTree {
  root: string;
  files: number;
  reused: boolean;
  generateMs: number;
}

const WORDS = (
  'user account order item cart price total session token cache queue event stream buffer parser ' +
  'config option value result error status request response client server router worker ' +
  'job task batch record index query filter mapper reducer store state action payload message ' +
  'channel socket packet frame header body schema model entity repository service manager factory'
).split(' ');
const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'py', 'go', 'md', 'json'];

/** Deterministic PRNG (mulberry32): the same tree on every machine. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function ensureGrepTree(baseDir: string): GrepTree {
  const root = join(baseDir, 'grep-tree');
  const marker = join(root, '.kodo-bench-tree');
  const expected = `v${TREE_VERSION} ${SOURCE_FILES}`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === expected) {
    return { root, files: SOURCE_FILES + NODE_MODULES_FILES + DIST_FILES, reused: true, generateMs: 0 };
  }
  const started = performance.now();
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  writeFileSync(join(root, '.gitignore'), 'dist/\ncoverage/\n*.min.js\n');
  const random = prng(0x5eed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const name = () => `${pick(WORDS)}${capitalise(pick(WORDS))}`;
  let index = 0;
  for (let p = 0; p < PACKAGES; p++) {
    for (let m = 0; m < MODULES_PER_PACKAGE; m++) {
      const dir = join(root, 'packages', `pkg-${pad(p)}`, 'src', `mod-${pad(m)}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < FILES_PER_MODULE; f++, index++) {
        const ext = pick(EXTENSIONS);
        const planted: string[] = [];
        if (index === 12_345 || index === 43_210) planted.push(`const marker = '${RARE_TOKEN}';`);
        if (index % HANDLER_EVERY === 7)
          planted.push(`function ${name()}Handler(request) {`, '  return request;', '}');
        writeFileSync(join(dir, `${name()}-${f}.${ext}`), sourceText(ext, { random, pick, name, planted }));
      }
    }
  }
  // Ignored trees: the same kinds of text, including the planted tokens.
  for (let i = 0; i < NODE_MODULES_FILES; i++) {
    const dir = join(root, 'node_modules', `dep-${pad(i % 100)}`, 'lib');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file-${i}.js`), sourceText('js', { random, pick, name, planted: [RARE_TOKEN] }));
  }
  for (let i = 0; i < DIST_FILES; i++) {
    const dir = join(root, 'dist', `chunk-${pad(i % 40)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `out-${i}.js`), sourceText('js', { random, pick, name, planted: [RARE_TOKEN] }));
  }
  writeFileSync(marker, expected);
  const generateMs = performance.now() - started;
  return { root, files: SOURCE_FILES + NODE_MODULES_FILES + DIST_FILES, reused: false, generateMs };
}

interface TextParts {
  random: () => number;
  pick: <T>(items: readonly T[]) => T;
  name: () => string;
  planted: string[];
}

/** 20-60 lines of code-like text for the extension; planted lines go in the middle. */
function sourceText(ext: string, { random, pick, name, planted }: TextParts): string {
  const lines: string[] = [];
  const count = 20 + Math.floor(random() * 40);
  for (let i = 0; i < count; i++) {
    if (i === Math.floor(count / 2)) lines.push(...planted);
    lines.push(codeLine(ext, { random, pick, name }));
  }
  return `${lines.join('\n')}\n`;
}

function codeLine(ext: string, { random, pick, name }: Omit<TextParts, 'planted'>): string {
  const roll = random();
  switch (ext) {
    case 'py':
      if (roll < 0.1) return `import ${pick(WORDS)}`;
      if (roll < 0.2) return `class ${capitalise(name())}Service:`;
      if (roll < 0.4) return `    def ${name()}(self, ${pick(WORDS)}):`;
      return `        ${name()} = self.${name()}(${pick(WORDS)}, ${Math.floor(random() * 1000)})`;
    case 'go':
      if (roll < 0.1) return `import "${pick(WORDS)}/${pick(WORDS)}"`;
      if (roll < 0.3) return `func ${capitalise(name())}(${pick(WORDS)} int) error {`;
      return `\t${name()} := ${name()}(${pick(WORDS)}) // ${pick(WORDS)} ${pick(WORDS)}`;
    case 'md':
      return roll < 0.2
        ? `## ${capitalise(pick(WORDS))} ${pick(WORDS)}`
        : `The ${pick(WORDS)} ${pick(WORDS)} keeps the ${pick(WORDS)} ${pick(WORDS)}.`;
    case 'json':
      return `  "${name()}": ${roll < 0.5 ? `"${pick(WORDS)}"` : Math.floor(random() * 10_000)},`;
    default:
      if (roll < 0.15) return `import { ${name()} } from './${pick(WORDS)}';`;
      if (roll < 0.25) return `export function ${name()}(${pick(WORDS)}: ${capitalise(pick(WORDS))}) {`;
      if (roll < 0.35) return `  // TODO: ${pick(WORDS)} the ${pick(WORDS)} before ${pick(WORDS)}`;
      if (roll < 0.45)
        return `  await handleRequest(${pick(WORDS)}, { ${pick(WORDS)}: ${Math.floor(random() * 100)} });`;
      return `  const ${name()} = ${name()}.${pick(WORDS)}(${pick(WORDS)});`;
  }
}

function capitalise(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
