import { join } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceTool } from '../../src/tools/builtin/replace';
import { runTool, text } from './helpers';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => ws.cleanup());

const edit = (args: Record<string, unknown>) =>
  runTool(replaceTool, { instruction: 'test edit', ...args }, ws.ctx);

const SERVICE = [
  'export class Service {',
  '    load(id: string) {',
  '        const row = this.db.get(id);',
  '        if (!row) {',
  "            throw new Error('missing');",
  '        }',
  '        return row;',
  '    }',
  '}',
  '',
].join('\n');

describe('replace: tolerant matching', () => {
  it('applies a block sent with the wrong indentation, in the file’s indentation', async () => {
    ws.write('s.ts', SERVICE);
    const result = await edit({
      file_path: 's.ts',
      old_string: "if (!row) {\n    throw new Error('missing');\n}",
      new_string: "if (!row) {\n    log('missing', id);\n    throw new Error('missing');\n}",
    });
    expect(result.error).toBeUndefined();
    expect(text(result)).toContain('(1 replacements)');
    expect(text(result)).not.toContain('fuzzy');
    expect(ws.read('s.ts')).toBe(
      SERVICE.replace(
        '        if (!row) {\n            throw',
        "        if (!row) {\n            log('missing', id);\n            throw",
      ),
    );
  });

  it('reports a fuzzy match with its line range, and several with "lines"', async () => {
    ws.write('s.ts', SERVICE);
    const result = await edit({
      file_path: 's.ts',
      old_string: '        const row = this.db.gte(id);\n        if (!row) {',
      new_string: '        const row = this.cache.get(id) ?? this.db.get(id);\n        if (!row) {',
    });
    expect(text(result)).toMatch(/ Applied fuzzy match at line 3-4\.$/);
    expect(ws.read('s.ts')).toContain('const row = this.cache.get(id) ?? this.db.get(id);');

    const block = '  total = compute(first, second)\n  check(total)';
    ws.write('m.py', `def a():\n${block}\n\ndef b():\n${block}\n`);
    const both = await edit({
      file_path: 'm.py',
      old_string: '  total = compute(frist, second)\n  check(total)',
      new_string: '  total = compute(first, second, third)\n  check(total)',
      allow_multiple: true,
    });
    expect(text(both)).toMatch(/\(2 replacements\)[\s\S]* Applied fuzzy match at lines 2-3, 6-7\.$/);
  });

  it('refuses an approximate match found in several places, and leaves the file alone', async () => {
    const content = 'a() {\n  x = 1;\n}\nb() {\n      x = 1;\n}\n';
    ws.write('d.ts', content);
    // Not exact (trailing blank): the whitespace-flexible strategy finds both lines.
    const result = await edit({ file_path: 'd.ts', old_string: 'x = 1; \n', new_string: 'x = 2;\n' });
    expect(result.error).toEqual({
      type: 'edit_expected_occurrence_mismatch',
      message:
        "Failed to edit, Expected 1 occurrence but found 2 for old_string in file: d.ts. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
    });
    expect(ws.read('d.ts')).toBe(content);
  });

  it('refuses a block that only resembles code written for another name', async () => {
    const content = 'func GetOrder(id string) (*Order, error) {\n\treturn store.Load(id)\n}\n';
    ws.write('o.go', content);
    const result = await edit({
      file_path: 'o.go',
      old_string: 'func GetUser(id string) (*User, error) {\n\treturn store.Load(id)',
      new_string: 'func GetUser(id string) (*User, error) {\n\treturn store.LoadUser(id)',
    });
    expect(result.error?.type).toBe('edit_no_occurrence_found');
    expect(ws.read('o.go')).toBe(content);
  });

  it('unescapes an over-escaped old_string/new_string pair that is not in the file literally', async () => {
    ws.write('s.ts', SERVICE);
    const result = await edit({
      file_path: 's.ts',
      old_string: "if (!row) {\\n            throw new Error(\\'missing\\');\\n        }",
      new_string: 'if (!row) {\\n            throw new Error(\\"missing \\" + id);\\n        }',
    });
    expect(result.error).toBeUndefined();
    expect(ws.read('s.ts')).toContain(
      '        if (!row) {\n            throw new Error("missing " + id);\n        }\n',
    );
  });

  it('keeps escapes the code needs when the whole call was escaped once too often', async () => {
    ws.write('p.py', 'def greet(name):\n    print("hello\\n" + name)\n');
    const result = await edit({
      file_path: 'p.py',
      old_string: 'print(\\"hello\\\\n\\" + name)',
      new_string: 'print(\\"hi\\\\n\\" + name)',
    });
    expect(result.error).toBeUndefined();
    expect(ws.read('p.py')).toBe('def greet(name):\n    print("hi\\n" + name)\n');
  });

  it('never unescapes for JSON-like files', async () => {
    ws.write('c.json', '{\n  "a": "x"\n}\n');
    const result = await edit({
      file_path: 'c.json',
      old_string: '\\"a\\": \\"x\\"',
      new_string: '\\"a\\": \\"y\\"',
    });
    expect(result.error?.type).toBe('edit_no_occurrence_found');
    expect(ws.read('c.json')).toBe('{\n  "a": "x"\n}\n');
  });

  it('keeps CRLF and a missing final newline through an approximate match', async () => {
    ws.write('w.ts', 'function f() {\r\n\tif (a) {\r\n\t\tb();\r\n\t}\r\n}');
    const result = await edit({
      file_path: 'w.ts',
      old_string: '    if (a) {\n        b();\n    }',
      new_string: '    if (a) {\n        b();\n        c();\n    }',
    });
    expect(result.error).toBeUndefined();
    expect(ws.read('w.ts')).toBe('function f() {\r\n\tif (a) {\r\n\t\tb();\r\n\t\tc();\r\n\t}\r\n}');
  });

  it('shows in the confirmation exactly the edit it then applies', async () => {
    ws.write('s.ts', SERVICE);
    const built = replaceTool.build(
      {
        file_path: 's.ts',
        instruction: 'i',
        old_string: '    const row = this.db.gte(id);',
        new_string: '    const row = await this.db.get(id);',
      },
      ws.ctx,
    );
    if (!built.ok) throw new Error(built.error.message);
    const details = await built.invocation.confirmationDetails(new AbortController().signal);
    if (details.kind !== 'edit') throw new Error('expected edit details');
    expect(details.diff).toContain(
      '-        const row = this.db.get(id);\n+        const row = await this.db.get(id);',
    );
    expect(ws.read('s.ts')).toBe(SERVICE);
    const result = await built.invocation.execute({ signal: new AbortController().signal });
    expect(result.error).toBeUndefined();
    expect(ws.read('s.ts')).toBe(details.newContent);
    expect(join(ws.root, 's.ts')).toBe(details.filePath);
  });
});
