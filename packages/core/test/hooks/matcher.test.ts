import { describe, expect, it } from 'vitest';
import { matcherSelects } from '../../src/hooks/matcher';

describe('matcherSelects', () => {
  it('tests tool names against an unanchored regex', () => {
    expect(matcherSelects('BeforeTool', 'write_file|replace', 'replace')).toBe(true);
    expect(matcherSelects('BeforeTool', 'file', 'read_file')).toBe(true);
    expect(matcherSelects('AfterTool', '^read_', 'read_file')).toBe(true);
    expect(matcherSelects('AfterTool', '^read_', 'write_file')).toBe(false);
  });

  it('compares an invalid regex exactly', () => {
    expect(matcherSelects('BeforeTool', 'mcp_(x', 'mcp_(x')).toBe(true);
    expect(matcherSelects('BeforeTool', 'mcp_(x', 'mcp_(xy')).toBe(false);
  });

  it('matches everything when empty or *', () => {
    for (const matcher of [undefined, '', '*']) {
      expect(matcherSelects('BeforeTool', matcher, 'anything')).toBe(true);
      expect(matcherSelects('SessionStart', matcher, 'resume')).toBe(true);
    }
  });

  it('compares session sources, end reasons and compress triggers exactly', () => {
    expect(matcherSelects('SessionStart', 'startup', 'startup')).toBe(true);
    expect(matcherSelects('SessionStart', 'start', 'startup')).toBe(false);
    expect(matcherSelects('SessionEnd', 'exit', 'exit')).toBe(true);
    expect(matcherSelects('PreCompress', 'manual', 'auto')).toBe(false);
  });

  it('ignores the matcher of events without a target', () => {
    expect(matcherSelects('BeforeModel', 'whatever', undefined)).toBe(true);
    expect(matcherSelects('AfterAgent', 'x', undefined)).toBe(true);
  });
});
