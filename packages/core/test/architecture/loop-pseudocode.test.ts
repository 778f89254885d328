import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md gives the agent loop as pseudocode, one block per function of
// agent/loop.ts (`runAgentLoop`, `settleHistory`). Each line's note on the right
// (`# text`) is text that function's body contains; `# fn:text` is text of a helper the line sums
// up (`beforeAgent`, `beforeRequest`, `afterAgent`). A newcomer checks the prose against the code
// through those notes, so they must be there, in the code's order, and every call the loop makes
// on its dependencies (`deps.…`) must have its line.
const root = resolve(__dirname, '../../../..');
const architecture = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
const loop = readFileSync(resolve(root, 'packages/core/src/agent/loop.ts'), 'utf8');

function pseudocode(doc: string): string {
  const start = doc.indexOf('```\nrunAgentLoop(');
  expect(start, 'docs/architecture.md has the loop pseudocode').toBeGreaterThan(-1);
  const end = doc.indexOf('```', start + 3);
  return doc.slice(start + 4, end);
}

/** The body of a function of loop.ts: from its signature's opening brace to its closing one. */
function body(name: string): string | undefined {
  const start = loop.search(new RegExp(`function\\*? ${name}\\(`));
  if (start < 0) return undefined;
  const open = loop.indexOf(' {\n', start);
  return loop.slice(open, loop.indexOf('\n}\n', open));
}

interface Note {
  /** The function whose body holds the text. */
  scope: string;
  text: string;
  line: string;
}

/**
 * The notes in order. A line at the block's left edge (`settleHistory(…):  # settleHistory`) starts
 * the block of that function; a note `fn:text` belongs to the helper `fn`.
 */
function notes(code: string): Note[] {
  const found: Note[] = [];
  let block = '';
  for (const line of code.split('\n')) {
    const note = /#\s*(?:(\w+):)?([\w.?]+)\s*$/.exec(line);
    if (!note) continue;
    const header = /^(\w+)\(/.exec(line)?.[1];
    if (header !== undefined) {
      block = header;
      continue;
    }
    found.push({ scope: note[1] ?? block, text: note[2]!, line: line.trim() });
  }
  return found;
}

/** Notes missing from their function, or found only before the previous note of that function. */
function problems(code: string): string[] {
  const cursor = new Map<string, number>();
  const found: string[] = [];
  for (const note of notes(code)) {
    const text = body(note.scope);
    if (text === undefined) {
      found.push(`${note.scope} is no function of loop.ts (${note.line})`);
      continue;
    }
    const at = text.indexOf(note.text, cursor.get(note.scope) ?? 0);
    if (at < 0) {
      const where = text.includes(note.text) ? 'out of order in' : 'not in';
      found.push(`${note.text} ${where} ${note.scope} (${note.line})`);
      continue;
    }
    cursor.set(note.scope, at + note.text.length);
  }
  return found;
}

/** The statements of a function that call the loop's dependencies: `deps.x(`, `deps.x?.y(`, … */
function depsCalls(name: string): string[] {
  const statement =
    /^\s*(?:if \(.*\) )?(?:const \w+ = (?:await |yield\* )?|for \(const \w+ of )?(deps\.[\w.?]+?)\??\.?\(/;
  return [
    ...new Set(
      (body(name) ?? '').split('\n').flatMap((line) => {
        const call = statement.exec(line)?.[1];
        return call === undefined ? [] : [call];
      }),
    ),
  ];
}

describe('the loop pseudocode in docs/architecture.md', () => {
  it("has one block per function of the loop, and its notes are in that function's body in the code's order", () => {
    const code = pseudocode(architecture);
    const blocks = code.split('\n').flatMap((line) => /^(\w+)\(/.exec(line)?.[1] ?? []);
    expect(blocks).toEqual(['runAgentLoop', 'settleHistory']);
    expect(notes(code).length).toBeGreaterThan(30);
    expect(problems(code)).toEqual([]);
  });

  it('has a line for every call the loop makes on its dependencies', () => {
    const noted = new Set(notes(pseudocode(architecture)).map((note) => `${note.scope} ${note.text}`));
    for (const scope of ['runAgentLoop', 'settleHistory']) {
      const missing = depsCalls(scope).filter((call) => !noted.has(`${scope} ${call}`));
      expect(missing, `deps calls of ${scope} with no pseudocode line`).toEqual([]);
    }
    // The calls the review found missing, among others.
    expect(depsCalls('runAgentLoop')).toEqual(
      expect.arrayContaining([
        'deps.loops.reset',
        'deps.promptHooks?.recordTurn',
        'deps.budget?.recordToolCalls',
      ]),
    );
  });

  it('fails on a note that is gone, out of order, or in the wrong function (the check can fail)', () => {
    const code = pseudocode(architecture);
    const swapped = code
      .replace('# deps.budget?.recordToolCalls', '# PLACEHOLDER')
      .replace('# deps.runTools', '# deps.budget?.recordToolCalls')
      .replace('# PLACEHOLDER', '# deps.runTools');
    expect(problems(swapped)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^deps\.runTools out of order in runAgentLoop/)]),
    );
    expect(problems(code.replace('# afterAgent:clearContext', '# afterAgent:noSuchStep'))).toEqual([
      expect.stringMatching(/^noSuchStep not in afterAgent/),
    ]);
    expect(problems(code.replace('# afterAgent:clearContext', '# settleHistory:clearContext'))).toEqual([
      expect.stringMatching(/^clearContext not in settleHistory/),
    ]);
  });
});
