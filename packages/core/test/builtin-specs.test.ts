import { describe, expect, it } from 'vitest';
import { jsonSchemaTools } from '../src/llm/providers/freeform';
import { lazyBuiltinTools } from '../src/tools/builtin/declared';
import { builtinTools, specOf } from '../src/tools/builtin/index';
import { BUILTIN_TOOL_SPECS } from '../src/tools/builtin/specs.generated';
import { ToolRegistry } from '../src/tools/registry';

describe('generated built-in tool specs', () => {
  it('match the tools’ zod definitions (run `npm run build` if this fails)', () => {
    const fresh = builtinTools().map(specOf);
    expect(BUILTIN_TOOL_SPECS).toEqual(fresh);
  });

  it('lazy tools declare a freeform tool with its grammar, as loading it would', async () => {
    const registry = new ToolRegistry(lazyBuiltinTools());
    const declared = registry.get('apply_patch')?.declaration();
    expect(declared?.freeform?.syntax).toBe('lark');
    expect(declared).toEqual((await registry.load('apply_patch'))?.declaration());
  });

  it('wires without grammar tools leave out only the freeform ones', () => {
    const all = new ToolRegistry(lazyBuiltinTools()).declarations();
    const kept = jsonSchemaTools(all).map((d) => d.name);
    expect(kept).toEqual(all.map((d) => d.name).filter((name) => name !== 'apply_patch'));
  });

  it('lazy tools declare from the specs and load the real tool on first use', async () => {
    const registry = new ToolRegistry(lazyBuiltinTools());
    expect(registry.declarations().map((d) => d.name)).toEqual(BUILTIN_TOOL_SPECS.map((s) => s.name));
    expect(registry.get('read_file')?.kind).toBe('read');
    const tool = await registry.load('read_file');
    expect(typeof tool?.build).toBe('function');
    expect(await registry.load('search_file_content')).toBe(await registry.load('grep_search'));
    expect(await registry.load('nope')).toBeUndefined();
  });
});
