import { describe, expect, it } from 'vitest';
import { checkSettings } from '../../src/config/settings-check';
import type { Settings } from '../../src/config/settings-types';
import { DEFAULT_LOOP_DETECTION } from '../../src/safety/loop-detection';
import { DEFAULT_DEFER_TOOLS_ABOVE } from '../../src/session/deferred-tools';
import { DEFAULT_MODEL, resolveConfig } from '../../src/session/resolve-config';
import { DEFAULT_OUTPUT_THRESHOLD_CHARS } from '../../src/tools/output-limit';

const trusted = { trusted: true };

describe('resolveConfig', () => {
  it('gives the defaults for no flags, no environment and no settings', () => {
    const config = resolveConfig({}, {}, {}, trusted);
    expect(config.model).toBe(DEFAULT_MODEL);
    expect(config.memory).toEqual({
      fileNames: ['KODO.md', 'AGENTS.md', 'GEMINI.md', 'CLAUDE.md'],
      boundaryMarkers: ['.git'],
    });
    expect(config.toolPolicy).toEqual({});
    expect(config.toolContext).toEqual({
      llmEditCorrection: false,
      allowPrivateNetworkFetch: false,
      fileFiltering: {},
    });
    expect(config.session).toEqual({
      approvalMode: 'default',
      approvalModeSource: 'settings',
      approvalLockdown: {},
      maxSessionTurns: -1,
      loopDetection: DEFAULT_LOOP_DETECTION,
      retry: {},
      outputThresholdChars: DEFAULT_OUTPUT_THRESHOLD_CHARS,
      deferToolsAbove: DEFAULT_DEFER_TOOLS_ABOVE,
    });
    expect(config.budgets).toEqual({});
    expect(config.telemetry).toBeUndefined();
    expect(config.checkpointing).toBeUndefined();
  });

  it('takes the model from -m, then KODO_MODEL, then GEMINI_MODEL, then model.name', () => {
    const settings: Settings = { model: { name: 'from-settings' } };
    const env = { KODO_MODEL: 'kodo-env', GEMINI_MODEL: 'gemini-env' };
    expect(resolveConfig({ model: 'flag' }, env, settings, trusted).model).toBe('flag');
    expect(resolveConfig({}, env, settings, trusted).model).toBe('kodo-env');
    expect(resolveConfig({}, { GEMINI_MODEL: 'gemini-env' }, settings, trusted).model).toBe('gemini-env');
    expect(resolveConfig({}, {}, settings, trusted).model).toBe('from-settings');
  });

  it('takes the approval mode from the flag, then settings; an untrusted folder always gets default', () => {
    const settings: Settings = { general: { defaultApprovalMode: 'auto_edit' } };
    expect(resolveConfig({}, {}, settings, trusted).session.approvalMode).toBe('auto_edit');
    expect(resolveConfig({ approvalMode: 'plan' }, {}, settings, trusted).session.approvalMode).toBe('plan');
    expect(
      resolveConfig({ approvalMode: 'yolo' }, {}, settings, { trusted: false }).session.approvalMode,
    ).toBe('default');
    // yolo written in a settings file never gets this far: the check drops it.
    const checked = checkSettings({ general: { defaultApprovalMode: 'yolo' } });
    expect(resolveConfig({}, {}, checked.settings, trusted).session.approvalMode).toBe('default');
  });

  it('lets each --max-* flag win over its budgets setting, and reads durations', () => {
    const settings: Settings = { budgets: { maxBudgetUsd: 5, maxToolCalls: 10, maxTime: '2m' } };
    expect(resolveConfig({ budgets: { maxToolCalls: 3 } }, {}, settings, trusted).budgets).toEqual({
      maxCostUsd: 5,
      maxToolCalls: 3,
      maxTimeMs: 120_000,
    });
    expect(resolveConfig({}, {}, { budgets: { maxTime: 90 } }, trusted).budgets).toEqual({
      maxTimeMs: 90_000,
    });
  });

  it('tunes the session from model and general settings, retries capped at 10', () => {
    const settings: Settings = {
      model: {
        maxSessionTurns: 7,
        compressionThreshold: 0.7,
        fallback: 'gemini-2.5-flash',
        maxTurnsPerPrompt: 12,
        disableLoopDetection: true,
        loopDetection: { toolCallRepeats: 3, exemptTools: ['glob'] },
      },
      general: { maxAttempts: 25 },
      tools: { truncateToolOutputThreshold: 1000 },
    };
    const { session } = resolveConfig({}, { KODO_RETRY_BASE_MS: '2' }, settings, trusted);
    expect(session).toEqual({
      approvalMode: 'default',
      approvalModeSource: 'settings',
      approvalLockdown: {},
      maxSessionTurns: 7,
      compressionThreshold: 0.7,
      fallbackModel: 'gemini-2.5-flash',
      maxTurnsPerPrompt: 12,
      loopDetection: {
        ...DEFAULT_LOOP_DETECTION,
        enabled: false,
        toolCallRepeats: 3,
        exemptTools: [...DEFAULT_LOOP_DETECTION.exemptTools, 'glob'],
      },
      retry: { maxAttempts: 10, initialDelayMs: 10, maxDelayMs: 60, streamInitialDelayMs: 2 },
      outputThresholdChars: 1000,
      deferToolsAbove: DEFAULT_DEFER_TOOLS_ABOVE,
    });
  });

  it('defers MCP tools past tools.toolSearch.threshold, or never when it is off', () => {
    const session = (tools: Record<string, unknown>) =>
      resolveConfig({}, {}, { tools } as Settings, trusted).session.deferToolsAbove;
    expect(session({ toolSearch: { threshold: 12 } })).toBe(12);
    expect(session({ toolSearch: { enabled: false, threshold: 12 } })).toBeUndefined();
  });

  it('builds the tools’ options: edit correction either spelling, private fetch, file filtering, ripgrep', () => {
    const config = resolveConfig(
      {},
      {},
      {
        tools: { disableLLMCorrection: false, useRipgrep: false, exclude: ['web_fetch'], core: ['glob'] },
        webFetch: { allowPrivateAddresses: true },
        context: {
          fileName: 'NOTES.md',
          fileFiltering: { respectGitIgnore: false, customIgnoreFilePaths: ['', '.myignore'] },
        },
      },
      trusted,
    );
    expect(config.toolContext).toEqual({
      llmEditCorrection: true,
      allowPrivateNetworkFetch: true,
      fileFiltering: { respectGitIgnore: false, customIgnoreFilePaths: ['.myignore'] },
      useRipgrep: false,
    });
    expect(config.toolPolicy).toEqual({ exclude: ['web_fetch'], core: ['glob'] });
    expect(config.memory.fileNames).toEqual(['NOTES.md', 'KODO.md', 'AGENTS.md', 'GEMINI.md', 'CLAUDE.md']);
  });

  it('turns telemetry on from settings or the environment, the environment winning', () => {
    const settings: Settings = { telemetry: { enabled: true, outfile: '/tmp/a.jsonl', logPrompts: true } };
    expect(resolveConfig({}, {}, settings, trusted).telemetry).toEqual({
      logPrompts: true,
      outfile: '/tmp/a.jsonl',
    });
    expect(
      resolveConfig({}, { KODO_TELEMETRY_ENABLED: 'false' }, settings, trusted).telemetry,
    ).toBeUndefined();
    expect(
      resolveConfig(
        {},
        { KODO_TELEMETRY_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://o:4318' },
        {},
        trusted,
      ).telemetry,
    ).toEqual({ logPrompts: false, otlpEndpoint: 'http://o:4318' });
  });

  it('collects the sampling settings that are set, and tools.profile', () => {
    const settings: Settings = {
      model: { temperature: 0.2, topK: 30, maxOutputTokens: 2048 },
      tools: { profile: 'compact' },
    };
    const config = resolveConfig({}, {}, settings, trusted);
    expect(config.sampling).toEqual({ temperature: 0.2, topK: 30, maxOutputTokens: 2048 });
    expect(config.session.toolProfile).toBe('compact');
    const plain = resolveConfig({}, {}, { model: { name: 'x' } }, trusted);
    expect(plain).not.toHaveProperty('sampling');
    expect(plain.session).not.toHaveProperty('toolProfile');
  });

  it('passes tools.sandbox on as written', () => {
    expect(resolveConfig({}, {}, { tools: { sandbox: 'bwrap' } }, trusted).sandboxSetting).toBe('bwrap');
    expect(resolveConfig({}, {}, {}, trusted)).not.toHaveProperty('sandboxSetting');
  });

  it('turns checkpointing on only when enabled', () => {
    expect(
      resolveConfig({}, {}, { general: { checkpointing: { shell: true } } }, trusted).checkpointing,
    ).toBeUndefined();
    expect(
      resolveConfig({}, {}, { general: { checkpointing: { enabled: true } } }, trusted).checkpointing,
    ).toEqual({ shell: false });
  });
});
