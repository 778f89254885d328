import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args';

describe('--experimental-acp', () => {
  it("is accepted as Gemini CLI's name for --acp", () => {
    expect(parseCliArgs(['--experimental-acp']).acp).toBe(true);
    expect(parseCliArgs(['--experimental-acp', '-m', 'gemini-2.5-pro'])).toMatchObject({
      acp: true,
      model: 'gemini-2.5-pro',
    });
  });

  it('stays a word after --', () => {
    expect(parseCliArgs(['--', '--experimental-acp']).query).toBe('--experimental-acp');
  });
});
