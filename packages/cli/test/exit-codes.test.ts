import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeForHttpStatus, processExitCode } from '../src/shared/exit-codes';

describe('exit codes from HTTP statuses', () => {
  it('are the status modulo 256, as in Gemini CLI', () => {
    expect(exitCodeForHttpStatus(400)).toBe(144);
    expect(exitCodeForHttpStatus(401)).toBe(145);
    expect(exitCodeForHttpStatus(404)).toBe(148);
    expect(exitCodeForHttpStatus(429)).toBe(173);
    expect(exitCodeForHttpStatus(503)).toBe(247);
  });

  it('never wrap to success or to a code that means something else', () => {
    for (const status of [256, 512, 768, 0, -1, 1.5, Number.NaN])
      expect(exitCodeForHttpStatus(status)).toBe(1);
    for (const code of Object.values(ExitCode).filter((code) => code !== 0)) {
      expect(exitCodeForHttpStatus(code + 256)).toBe(1);
    }
  });

  it('process codes outside 0-255 become 1', () => {
    expect(processExitCode(55)).toBe(55);
    expect(processExitCode(256)).toBe(1);
    expect(processExitCode(-3)).toBe(1);
  });
});
