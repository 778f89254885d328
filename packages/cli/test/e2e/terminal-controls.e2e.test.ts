import { geminiFunctionCallReply, geminiTextReply, runKodo } from '@kodo/testkit';
import { describe, expect, it } from 'vitest';
import { e2eDirs, geminiMockEnv, geminiMockPerTest } from './helpers';

/**
 * Issue N, "Terminal output passes C1 control characters", on the plain-text headless path:
 * the answer on stdout and the tool errors on stderr are printed without escape sequences in
 * their 7-bit or 8-bit (C1) forms, and without bare C1 controls.
 */
const dirs = e2eDirs();
const gemini = geminiMockPerTest();

const C1_ATTACK =
  '\u009b2J\u009d0;pwned\u0007\u009d8;;https://evil.example\u009c\u0085\u0090dcs\u009c\u001b[1;31m';
const CONTROLS = /[\u0080-\u009f\u001b\u0007]/;

describe('headless text output', () => {
  it('strips C1 controls from the answer and from tool errors', async () => {
    await gemini.start({
      script: [
        { chunks: geminiFunctionCallReply('read_file', { file_path: `missing${C1_ATTACK}.txt` }) },
        { chunks: geminiTextReply(['Answer ', `${C1_ATTACK}with tab\there\n`, 'end']) },
      ],
    });
    const run = await runKodo(['-p', 'go'], {
      cwd: dirs.workspace,
      env: geminiMockEnv(dirs.home, gemini.url),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROLS);
    expect(run.stdout).toContain('Answer ');
    expect(run.stdout).toContain('with tab\there\nend');
    expect(run.stdout).not.toContain('pwned');
    expect(run.stderr).toContain('Error executing tool read_file');
    expect(run.stderr).not.toMatch(CONTROLS);
  });
});
