import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPLY_PATCH_GRAMMAR } from '../../../src/tools/patch/grammar';
import { type PatchOperation, parsePatch } from '../../../src/tools/patch/parse';
import { CORPUS } from './corpus';

const patch = (...lines: string[]) => `${lines.join('\n')}\n`;

function operations(text: string): PatchOperation[] {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.operations;
}

describe('parsePatch on the corpus', () => {
  for (const entry of CORPUS) {
    it(`${entry.valid ? 'accepts' : 'refuses'}: ${entry.name}`, () => {
      const parsed = parsePatch(entry.patch);
      expect(parsed.ok, parsed.ok ? 'accepted' : parsed.message).toBe(entry.valid);
      if (!parsed.ok && entry.error) expect(parsed.message).toMatch(entry.error);
    });
  }

  it('gives every refusal of the corpus a line number and a reason', () => {
    const invalid = CORPUS.filter((entry) => !entry.valid);
    expect(invalid.length).toBeGreaterThan(30);
    for (const entry of invalid) expect(entry.error, entry.name).toBeDefined();
  });
});

describe('the grammar in docs/providers.md', () => {
  it('is the grammar kodo sends, without its comments', () => {
    const docs = readFileSync(new URL('../../../../../docs/providers.md', import.meta.url), 'utf8');
    const shown = /```lark\n([\s\S]*?)```/.exec(docs)?.[1];
    const rules = (grammar: string) =>
      grammar.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('//'));
    expect(rules(shown ?? '')).toEqual(rules(APPLY_PATCH_GRAMMAR));
  });
});

describe('parsePatch results', () => {
  it('reads every kind of operation with its lines and patch line numbers', () => {
    const parsed = operations(
      patch(
        '*** Begin Patch',
        '*** Add File: src/new.ts',
        '+export const a = 1;',
        '+',
        '*** Delete File: old.txt',
        '*** Update File: src/app.ts',
        '*** Move to: src/main.ts',
        '@@ class App',
        '@@   run() {',
        '     start();',
        '-    stop();',
        '+    finish();',
        '@@',
        '+// end',
        '*** End of File',
        '*** End Patch',
      ),
    );
    expect(parsed).toEqual([
      { kind: 'add', path: 'src/new.ts', line: 2, lines: ['export const a = 1;', ''] },
      { kind: 'delete', path: 'old.txt', line: 5 },
      {
        kind: 'update',
        path: 'src/app.ts',
        line: 6,
        moveTo: 'src/main.ts',
        hunks: [
          {
            anchors: ['class App', '  run() {'],
            line: 8,
            endOfFile: false,
            lines: [
              { kind: 'context', text: '    start();' },
              { kind: 'remove', text: '    stop();' },
              { kind: 'add', text: '    finish();' },
            ],
          },
          { anchors: [], line: 13, endOfFile: true, lines: [{ kind: 'add', text: '// end' }] },
        ],
      },
    ]);
  });

  it('drops trailing whitespace from paths and keeps it in content', () => {
    const [add] = operations(patch('*** Begin Patch', '*** Add File: a b.txt \t', '+x  ', '*** End Patch'));
    expect(add).toMatchObject({ path: 'a b.txt', lines: ['x  '] });
  });

  it('names the hunk and the file of an error inside an update', () => {
    const parsed = parsePatch(
      patch(
        '*** Begin Patch',
        '*** Update File: a.ts',
        '@@',
        ' x',
        '-y',
        '@@ f()',
        ' z',
        'w',
        '*** End Patch',
      ),
    );
    expect(parsed).toEqual({
      ok: false,
      message:
        'Invalid patch at line 8 (hunk 2 of "*** Update File: a.ts"): expected a hunk line or the next "*** Add File: ", "*** Delete File: " or "*** Update File: " header, or "*** End Patch"; found "w". Every hunk line starts with " ", "-" or "+".',
    });
  });
});

/**
 * The grammar and the parser must accept the same texts: a model constrained by the grammar must
 * never write a patch the parser refuses, and a patch the parser accepts must be one the grammar
 * describes. Checked with Python's `lark` where it is installed (`KODO_LARK_PYTHON` names a
 * Python that has it; default `python3`): the corpus, and mutants of its valid patches.
 */
const LARK_SCRIPT = `
import json, sys
from lark import Lark
data = json.load(sys.stdin)
parsers = [Lark(data["grammar"], parser="earley", lexer="dynamic"), Lark(data["grammar"], parser="lalr", lexer="contextual")]
def accepts(parser, text):
    try:
        parser.parse(text)
        return True
    except Exception:
        return False
print(json.dumps([[accepts(p, text) for p in parsers] for text in data["texts"]]))
`;

const python = process.env.KODO_LARK_PYTHON ?? 'python3';
const larkAvailable = spawnSync(python, ['-c', 'import lark'], { stdio: 'ignore' }).status === 0;

function larkVerdicts(texts: readonly string[]): boolean[] {
  const run = spawnSync(python, ['-c', LARK_SCRIPT], {
    input: JSON.stringify({ grammar: APPLY_PATCH_GRAMMAR, texts }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  const verdicts = JSON.parse(run.stdout) as [boolean, boolean][];
  // Both of lark's parsers must agree with each other before they can judge kodo's.
  for (const [index, [earley, lalr]] of verdicts.entries()) {
    expect(earley, `lark's parsers disagree on ${JSON.stringify(texts[index])}`).toBe(lalr);
  }
  return verdicts.map(([earley]) => earley);
}

/** Small edits of valid patches, the kind that cross the line between valid and invalid. */
function mutants(count: number): string[] {
  let seed = 0x9e3779b9;
  const random = (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
  const pieces = [
    ' ',
    '-',
    '+',
    '@',
    '@@',
    '@@ ',
    '*',
    '*** ',
    '\n',
    '\t',
    'x',
    '\r',
    ':',
    '*** End of File\n',
  ];
  const valid = CORPUS.filter((entry) => entry.valid).map((entry) => entry.patch);
  const out: string[] = [];
  while (out.length < count) {
    const text = valid[random(valid.length)]!;
    const lines = text.split('\n');
    const at = random(text.length + 1);
    const line = random(lines.length);
    switch (random(5)) {
      case 0:
        out.push(text.slice(0, at) + text.slice(at + 1));
        break;
      case 1:
        out.push(text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at));
        break;
      case 2:
        out.push([...lines.slice(0, line), lines[line]!, ...lines.slice(line)].join('\n'));
        break;
      case 3:
        out.push([...lines.slice(0, line), ...lines.slice(line + 1)].join('\n'));
        break;
      default: {
        const other = random(lines.length);
        const swapped = [...lines];
        [swapped[line], swapped[other]] = [swapped[other]!, swapped[line]!];
        out.push(swapped.join('\n'));
      }
    }
  }
  return out;
}

describe.skipIf(!larkAvailable)('the grammar and the parser agree (lark)', () => {
  it('on every patch of the corpus', () => {
    const verdicts = larkVerdicts(CORPUS.map((entry) => entry.patch));
    for (const [index, entry] of CORPUS.entries()) {
      expect(verdicts[index], `lark on: ${entry.name}`).toBe(entry.valid);
    }
  }, 60_000);

  it('on 600 mutants of the valid patches', () => {
    const texts = mutants(600);
    const verdicts = larkVerdicts(texts);
    const disagreements = texts.filter((text, index) => parsePatch(text).ok !== verdicts[index]);
    expect(disagreements).toEqual([]);
    // The mutants must exercise both sides of the line.
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(50);
    expect(verdicts.filter((verdict) => !verdict).length).toBeGreaterThan(50);
  }, 60_000);
});
