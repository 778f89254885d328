// Piped text and a prompt as one line (`cat log | kodo -p "why did it fail?"`): core's meaning, the CLI reads the pipe.
import { describe, expect, it } from 'vitest';
import { combinePipedInput } from '../../src/input/piped-input';

describe('combinePipedInput', () => {
  it('puts the piped text first and the prompt after it, as one line', () => {
    expect(combinePipedInput('error: disk full\n\n', 'why did it fail?')).toBe(
      'error: disk full\n\nwhy did it fail?',
    );
  });

  it('is whichever of the two there is, a blank one counting as none', () => {
    expect(combinePipedInput('just the log\n', undefined)).toBe('just the log');
    expect(combinePipedInput(' \n\t', '  keep my spacing ')).toBe('  keep my spacing ');
    expect(combinePipedInput(undefined, '!ls')).toBe('!ls');
  });

  it('is undefined when there is no input at all (the front end says how to give some)', () => {
    expect(combinePipedInput(undefined, undefined)).toBeUndefined();
    expect(combinePipedInput('\n', '   ')).toBeUndefined();
  });
});
