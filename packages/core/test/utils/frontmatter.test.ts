import { describe, expect, it } from 'vitest';
import { parse as yamlParse } from 'yaml';
import { parseFrontmatter } from '../../src/utils/frontmatter';

// The line reader for plain `key: value` frontmatter must give exactly what YAML gives, or leave
// the file to YAML: each case is read both ways.
const CASES = [
  'name: a\ndescription: b c',
  'description: Helps with task 1 when the user asks for it.',
  'ok: true',
  'ok: True',
  'ok: NO',
  'ok: On',
  'ok: off',
  'v: ~',
  'v: null',
  'v: Null',
  'n: 1',
  'n: -2.5',
  'n: 1e3',
  'n: .5',
  'n: 1_000',
  'n: 0x1F',
  'n: 0o17',
  'n: .inf',
  'n: -.inf',
  'n: .NaN',
  'n: +12',
  'v: 3 items',
  'v: 1.2.3',
  'v: a: b',
  'v: a #comment',
  'v: a#b',
  'v: a\t#comment',
  'v: "quoted"',
  "v: 'single'",
  'v: [a, b]',
  'v: {a: 1}',
  'v: - item',
  'v: &anchor x',
  'v: *alias',
  'v: !tag x',
  'v: %x',
  'v: @x',
  'v: `x`',
  'v: ends with:',
  'v:\ttabbed',
  'v:  two spaces',
  'v:value',
  'v: trailing   ',
  'v: \u00a0leading nbsp',
  'v: falſe',
  'v: ünïcödé',
  'key-with_dash: x',
  'tools: Read, Grep, Glob',
  'model: inherit',
];

describe('frontmatter', () => {
  it.each(CASES)('reads %j as YAML does', async (raw) => {
    let expected: unknown;
    try {
      expected = yamlParse(raw);
    } catch {
      return; // YAML refuses it: the line fallback is tested in skills.test.ts.
    }
    // Not a map (`v:value` is one plain string): not frontmatter either way.
    if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return;
    const parsed = await parseFrontmatter(`---\n${raw}\n---\nbody`);
    expect(parsed?.yamlError).toBeUndefined();
    expect(parsed?.data).toEqual(expected);
  });
});
