import { describe, expect, it } from 'vitest';
import { ArgsError, parseCliArgs } from '../src/shared/args';

describe('session flags', () => {
  it('reads a bare --resume / -r as latest, wherever it stands', () => {
    expect(parseCliArgs(['--resume']).resume).toBe('latest');
    expect(parseCliArgs(['-r', '-p', 'go'])).toMatchObject({ resume: 'latest', prompt: 'go' });
    expect(parseCliArgs(['-p', 'go', '--resume'])).toMatchObject({ resume: 'latest', prompt: 'go' });
  });

  it('takes a value given after the flag or with =', () => {
    expect(parseCliArgs(['--resume', '3', '-p', 'go']).resume).toBe('3');
    expect(parseCliArgs(['-r', 'abc-123']).resume).toBe('abc-123');
    expect(parseCliArgs(['--resume=latest']).resume).toBe('latest');
    // After `--` everything is a positional word.
    expect(parseCliArgs(['--', '--resume']).query).toBe('--resume');
  });

  it('reads --list-sessions, --delete-session and --session-id', () => {
    expect(parseCliArgs(['--list-sessions']).listSessions).toBe(true);
    expect(parseCliArgs(['--delete-session', '2']).deleteSession).toBe('2');
    expect(parseCliArgs(['--session-id', 'mine', '-p', 'x']).sessionId).toBe('mine');
    expect(parseCliArgs(['-p', 'x'])).not.toHaveProperty('resume');
  });

  it('refuses --resume together with --session-id', () => {
    expect(() => parseCliArgs(['--resume', '--session-id', 'a'])).toThrow(
      new ArgsError(
        'The flags --resume, --session-id, and --session-file are mutually exclusive. Please provide only one.',
      ),
    );
  });
});
