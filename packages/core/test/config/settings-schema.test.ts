import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSettings } from '../../src/config/settings-check';
import { settingsSchema } from '../../src/config/settings-schema';
import type { SettingsShape } from '../../src/config/settings-shape';
import { SETTINGS_SHAPE } from '../../src/config/settings-shape.generated';
import type { HookDefinitionSettings, Settings } from '../../src/config/settings-types';

/**
 * The zod schema is the source of truth; kodo checks files at startup with the compact shape
 * generated from it. These tests keep the two from drifting apart: the generated file must be
 * current, and for every key the checker and zod must agree on what is wrong.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Every key present, all the way down: the compiler fails when FULL leaves a declared key out. */
type DeepRequired<T> = T extends readonly (infer U)[]
  ? DeepRequired<U>[]
  : T extends object
    ? { [K in keyof T]-?: DeepRequired<T[K]> }
    : T;

const HOOK_DEFINITIONS: DeepRequired<HookDefinitionSettings>[] = [
  {
    matcher: 'run_shell_command',
    sequential: true,
    hooks: [
      {
        type: 'command',
        command: './guard.sh',
        name: 'guard',
        timeout: 5000,
        description: 'd',
        env: { A: 'x', B: 1, C: true },
      },
    ],
  },
];

/** Every declared key with a value of the right type (a file using everything kodo reads). */
const FULL_SETTINGS: DeepRequired<Settings> = {
  model: {
    name: 'gemini-2.5-pro',
    maxSessionTurns: 20,
    disableLoopDetection: false,
    compressionThreshold: 0.5,
    fallback: 'gemini-2.5-flash',
    maxTurnsPerPrompt: 30,
    loopDetection: { toolCallRepeats: 5, contentRepeats: 10, exemptTools: ['read_file'] },
    requestTimeoutMs: 120000,
    streamIdleTimeoutMs: 0,
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    maxOutputTokens: 8192,
    effort: 'high',
  },
  general: {
    defaultApprovalMode: 'auto_edit',
    maxAttempts: 3,
    checkpointing: { enabled: true, shell: false },
    vimMode: true,
  },
  security: {
    folderTrust: { enabled: true, untrustedHeadless: 'restricted' },
    disableYoloMode: true,
    disableAlwaysAllow: false,
    enablePermanentToolApproval: false,
    toolSandboxing: false,
    auth: { selectedType: 'gemini-api-key', enforcedType: 'gemini-api-key', useExternal: false },
  },
  admin: {
    secureModeEnabled: false,
    extensions: { enabled: true },
    mcp: { enabled: true },
    skills: { enabled: true },
  },
  output: { format: 'json' },
  statusLine: { type: 'command', command: '~/.claude/statusline.sh', padding: 0 },
  // A theme's own keys are the theme loader's to check (cli ui/themes/custom-themes.ts).
  customThemes: { Old: {} },
  ui: {
    theme: 'GitHub',
    customThemes: { Mine: {} },
    statusLine: { type: 'command', command: 'echo hi', padding: 1 },
    hideBanner: true,
    hideTips: false,
    hideFooter: false,
    notifications: { enabled: true, longTurnSeconds: 10 },
  },
  telemetry: {
    enabled: false,
    target: 'local',
    outfile: '/tmp/t.jsonl',
    otlpEndpoint: 'http://localhost:4317',
    otlpProtocol: 'grpc',
    logPrompts: false,
  },
  context: {
    fileName: ['KODO.md'],
    includeDirectories: ['../shared-lib'],
    memoryBoundaryMarkers: ['.git'],
    fileFiltering: { respectGitIgnore: true, respectGeminiIgnore: true, customIgnoreFilePaths: ['.ignore'] },
  },
  tools: {
    truncateToolOutputThreshold: 40000,
    useRipgrep: true,
    exclude: ['web_fetch'],
    allowed: ['run_shell_command(git)'],
    core: ['read_file'],
    confirmationRequired: ['run_shell_command'],
    webSearch: {
      provider: 'searxng',
      baseUrl: 'http://127.0.0.1:8888',
      apiKeyEnv: 'SEARX_KEY',
      maxResults: 5,
    },
    sandbox: {
      enabled: true,
      command: 'bwrap',
      allowedPaths: ['/tmp'],
      networkAccess: false,
      hooks: true,
      hiddenPaths: ['~/.aws'],
      visiblePaths: ['~/.npmrc'],
      allowUnixSockets: ['/run/docker.sock'],
      protectControlFiles: true,
      pidNamespace: true,
    },
    llmEditCorrection: false,
    disableLLMCorrection: true,
    profile: 'compact',
    toolSearch: { enabled: true, threshold: 30 },
  },
  webFetch: { allowPrivateAddresses: false },
  advanced: { excludedEnvVars: ['DEBUG'], ignoreLocalEnv: false },
  providers: {
    local: {
      type: 'openai',
      baseUrl: 'http://localhost:11434/v1',
      apiKeyEnv: 'K',
      models: ['m'],
      toolChoice: 'required',
      effort: 'low',
      wireApi: 'chat',
      headers: { 'X-Tenant': 't' },
      contextWindow: 8192,
      temperature: 0.2,
      topP: 0.9,
      topK: 20,
      modelOverrides: {
        m: {
          contextWindow: 32768,
          maxOutputTokens: 4096,
          price: { input: 0.1, output: 0.2, cacheRead: 0.01, cacheWrite: 0.15 },
          reasoning: true,
          images: false,
          tools: true,
        },
      },
    },
  },
  hooks: {
    SessionStart: HOOK_DEFINITIONS,
    SessionEnd: HOOK_DEFINITIONS,
    BeforeAgent: HOOK_DEFINITIONS,
    AfterAgent: HOOK_DEFINITIONS,
    BeforeModel: HOOK_DEFINITIONS,
    AfterModel: HOOK_DEFINITIONS,
    BeforeToolSelection: HOOK_DEFINITIONS,
    BeforeTool: HOOK_DEFINITIONS,
    AfterTool: HOOK_DEFINITIONS,
    PreCompress: HOOK_DEFINITIONS,
    Notification: HOOK_DEFINITIONS,
  },
  hooksConfig: { enabled: true, disabled: ['lint'], notifications: true },
  mcpServers: {
    files: {
      command: 'node',
      args: ['server.js'],
      env: { TOKEN: '$TOKEN' },
      cwd: '.',
      url: 'http://localhost:1',
      httpUrl: 'http://localhost:2',
      type: 'http',
      headers: { Authorization: 'Bearer x' },
      timeout: 1000,
      trust: false,
      includeTools: ['read'],
      excludeTools: ['write'],
      description: 'files',
      oauth: {
        enabled: true,
        clientId: 'id',
        clientSecret: '$SECRET',
        authorizationUrl: 'https://auth.example/authorize',
        tokenUrl: 'https://auth.example/token',
        scopes: ['read'],
        redirectUri: 'http://127.0.0.1:7777/oauth/callback',
        audiences: ['api'],
        tokenParamName: 'token',
      },
    },
  },
  mcp: { allowed: ['files'], excluded: ['other'] },
  budgets: { maxBudgetUsd: 5, maxTokens: 100000, maxToolCalls: 50, maxTime: '15m' },
  skills: { disabled: ['pdf'] },
  memory: { inbox: false },
  agents: {
    maxTurns: 20,
    maxTimeMinutes: 10,
    maxDepth: 1,
    overrides: {
      reviewer: { enabled: true, model: 'gemini-2.5-flash', maxTurns: 5, maxTimeMinutes: 2, effort: 'low' },
    },
  },
  policyPaths: ['./policies'],
  adminPolicyPaths: ['/etc/kodo/policies'],
};
const FULL = FULL_SETTINGS as unknown as Record<string, unknown>;

/** Keys of `value` the shape does not name (they would be kept unchecked). */
function unknownKeys(value: unknown, shape: SettingsShape, at: string): string[] {
  if (shape.t === 'union') {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : undefined;
    const branch = shape.of.find((candidate) => candidate.t === kind);
    return branch ? unknownKeys(value, branch, at) : [];
  }
  if (shape.t === 'array' && Array.isArray(value)) {
    return value.flatMap((item, index) => unknownKeys(item, shape.items, `${at}[${index}]`));
  }
  if (shape.t === 'object' && value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => {
      const inner = shape.props[key] ?? shape.rest;
      return inner ? unknownKeys(item, inner, `${at}.${key}`) : [`${at}.${key}`];
    });
  }
  return [];
}

/** Every leaf (and every group) of a value, as a path of keys and indexes. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const own = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value))
    return [...own, ...value.flatMap((item, index) => paths(item, [...prefix, index]))];
  if (value !== null && typeof value === 'object') {
    return [...own, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...prefix, key]))];
  }
  return own;
}

/** The top-level group holding `path` (alone: parsing one group is enough), with one value replaced. */
function withValue(path: (string | number)[], replacement: unknown): Record<string, unknown> {
  const group = path[0] as string;
  const copy: Record<string, unknown> = { [group]: structuredClone(FULL[group]) };
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = replacement;
  return copy;
}

describe('the settings schema', () => {
  it('is current in settings-shape.generated.ts (run `npm run build` if this fails)', async () => {
    const script = pathToFileURL(join(root, 'scripts/gen-settings-shape.mjs')).href;
    const { settingsShapeSource } = (await import(script)) as { settingsShapeSource: () => Promise<string> };
    const onDisk = readFileSync(join(root, 'packages/core/src/config/settings-shape.generated.ts'), 'utf8');
    expect(onDisk).toBe(await settingsShapeSource());
  });

  it('knows every declared key, and accepts a file that uses every one, as zod does', () => {
    expect(unknownKeys(FULL, SETTINGS_SHAPE, 'settings')).toEqual([]);
    expect(settingsSchema.safeParse(FULL).success).toBe(true);
    const checked = checkSettings(structuredClone(FULL));
    expect(checked.problems).toEqual([]);
    expect(checked.settings).toEqual(FULL);
  });

  it('agrees with zod on every key given every kind of wrong value', () => {
    const wrongValues: unknown[] = [42, -1, 0.5, 'text', true, [], ['x'], [1], {}, { a: 1 }];
    let disagreements: string[] = [];
    let rejected = 0;
    // One hook event stands for all eleven: they share one schema.
    const corpus = paths(FULL).filter((path) => path[0] !== 'hooks' || path[1] === 'BeforeTool');
    for (const path of corpus) {
      for (const wrong of wrongValues) {
        const input = withValue(path, wrong);
        const zodOk = settingsSchema.safeParse(input).success;
        const checked = checkSettings(structuredClone(input));
        if (!zodOk) rejected += 1;
        if (zodOk !== (checked.problems.length === 0)) {
          disagreements.push(
            `${path.join('.')} = ${JSON.stringify(wrong)}: zod ${zodOk ? 'accepts' : 'rejects'}`,
          );
        }
        // Whatever the checker keeps is valid: nothing downstream sees a wrong type.
        if (!settingsSchema.safeParse(checked.settings).success) {
          disagreements.push(`${path.join('.')} = ${JSON.stringify(wrong)}: the checked result is invalid`);
        }
        // The problem is reported where zod reports it.
        if (!zodOk && checked.problems.length > 0) {
          const zodPaths = settingsSchema.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
          const ours = checked.problems.map((problem) => problem.path.replace(/\[(\d+)\]/g, '.$1'));
          const covered = ours.every((p) =>
            zodPaths?.some((z) => z === p || z.startsWith(`${p}.`) || p.startsWith(z)),
          );
          if (!covered) disagreements.push(`${path.join('.')}: zod at ${zodPaths}, checker at ${ours}`);
        }
      }
    }
    disagreements = [...new Set(disagreements)];
    expect(disagreements).toEqual([]);
    // The corpus really exercises the schema: most replacements are wrong somewhere.
    expect(rejected).toBeGreaterThan(1000);
  });

  it('lives in files that import nothing else in core (settings shapes are contracts)', () => {
    const imports = (file: string) =>
      [...readFileSync(join(root, 'packages/core/src/config', file), 'utf8').matchAll(/from '([^']+)'/g)].map(
        (match) => match[1],
      );
    expect(imports('settings-types.ts')).toEqual([]);
    expect(imports('settings-schema.ts')).toEqual(['zod', './settings-types']);
    expect(imports('settings-shape.ts')).toEqual([]);
  });
});
