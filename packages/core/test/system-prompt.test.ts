import { describe, expect, it } from 'vitest';
import { environmentContext, formatDate } from '../src/prompts/environment';
import { buildSystemPrompt } from '../src/prompts/system-prompt';

describe('system prompt', () => {
  it('states the workflow, the approval mode and non-interactive limits', () => {
    const prompt = buildSystemPrompt({ approvalMode: 'default', interactive: false });
    expect(prompt).toContain('**Understand.**');
    expect(prompt).toContain('Approval mode: default.');
    expect(prompt).toContain('running non-interactively');
    expect(prompt).not.toContain('# Sandbox');
  });

  it('tells the model about the sandbox and its missing network', () => {
    const prompt = buildSystemPrompt({
      approvalMode: 'yolo',
      interactive: true,
      sandbox: 'bwrap (no network)',
    });
    expect(prompt).toContain('# Sandbox');
    expect(prompt).toContain('no network access');
    const networked = buildSystemPrompt({ approvalMode: 'yolo', interactive: true, sandbox: 'bwrap' });
    expect(networked).not.toContain('no network access');
  });

  it('adds the global memory block when there is one', () => {
    const prompt = buildSystemPrompt({
      approvalMode: 'default',
      interactive: true,
      memory: '<global_context>x</global_context>',
    });
    expect(prompt).toContain("# The user's global instructions and memory");
    expect(prompt).toContain('<global_context>x</global_context>');
  });
});

describe('environment context', () => {
  it('formats the date without ICU and lists the working directory', () => {
    expect(formatDate(new Date(2026, 10, 30))).toBe('Monday, November 30, 2026');
    const text = environmentContext({ cwd: process.cwd(), now: new Date(2026, 0, 1) });
    expect(text).toContain("Today's date is Thursday, January 1, 2026.");
    expect(text).toContain('Working directory:');
  });
});
