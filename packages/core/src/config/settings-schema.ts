import * as z from 'zod';
import type { Settings } from './settings-types';

/**
 * The one schema of every settings key kodo reads. It is the source of truth, but it never runs
 * at startup: loading zod costs more than kodo's whole startup budget, so the build turns it into
 * a compact shape (scripts/gen-settings-shape.mjs → settings-shape.generated.ts) that a small
 * checker walks (settings-check.ts). A unit test fails when the generated shape is stale, and
 * another checks that zod and the checker agree. See docs/performance.md for the measurements.
 *
 * Lenient the way people need: every key is optional, unknown keys are kept (objects are loose),
 * and a value of the wrong type is reported and dropped. `safety()` marks the keys whose loss
 * would quietly widen what the agent may do (trust, sandbox, policies, tool restrictions, hooks):
 * a wrong value there, or anywhere below, stops kodo with exit 52 instead.
 *
 * Only the constructs the checker understands may appear: objects, records, arrays, unions,
 * enums, strings, booleans and numbers (with int and range checks). The generator fails on others.
 */

const safety = <T extends z.ZodType>(schema: T): T => schema.meta({ safety: true });
const group = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape).partial();
const strings = () => z.array(z.string());
const wholeNumber = () => z.number().int();
const positiveWhole = () => z.number().int().positive();

/** How hard the model thinks (llm/effort.ts). */
const effortSchema = z.enum(['off', 'low', 'medium', 'high', 'max']);

const modelSchema = group({
  name: z.string(),
  maxSessionTurns: wholeNumber(),
  disableLoopDetection: z.boolean(),
  compressionThreshold: z.number().gt(0).max(1),
  fallback: z.string(),
  maxTurnsPerPrompt: positiveWhole(),
  loopDetection: group({
    toolCallRepeats: wholeNumber().min(2),
    contentRepeats: wholeNumber().min(2),
    exemptTools: strings(),
  }),
  requestTimeoutMs: z.number().min(0),
  streamIdleTimeoutMs: z.number().min(0),
  temperature: z.number().min(0).max(2),
  topP: z.number().min(0).max(1),
  topK: positiveWhole(),
  maxOutputTokens: positiveWhole(),
  effort: effortSchema,
});

/** `providers.<name>.modelOverrides.<model>`: what the catalogue does not know, or knows wrong. */
const modelOverrideSchema = group({
  contextWindow: positiveWhole(),
  maxOutputTokens: positiveWhole(),
  price: group({
    input: z.number().min(0),
    output: z.number().min(0),
    cacheRead: z.number().min(0),
    cacheWrite: z.number().min(0),
  }),
  reasoning: z.boolean(),
  images: z.boolean(),
  tools: z.boolean(),
});

const generalSchema = group({
  defaultApprovalMode: z.enum(['default', 'auto_edit', 'plan']),
  maxAttempts: wholeNumber().min(1),
  checkpointing: group({ enabled: z.boolean(), shell: z.boolean() }),
  vimMode: z.boolean(),
});

const securitySchema = safety(
  group({
    folderTrust: group({ enabled: z.boolean(), untrustedHeadless: z.enum(['restricted', 'exit']) }),
    disableYoloMode: z.boolean(),
    disableAlwaysAllow: z.boolean(),
    enablePermanentToolApproval: z.boolean(),
    toolSandboxing: z.boolean(),
    auth: group({ selectedType: z.string(), enforcedType: z.string(), useExternal: z.boolean() }),
  }),
);

const adminSchema = safety(
  group({
    secureModeEnabled: z.boolean(),
    extensions: group({ enabled: z.boolean() }),
    mcp: group({ enabled: z.boolean() }),
    skills: group({ enabled: z.boolean() }),
  }),
);

const sandboxSchema = safety(
  z.union([
    z.boolean(),
    z.string(),
    group({
      enabled: z.boolean(),
      command: z.string(),
      allowedPaths: strings(),
      networkAccess: z.boolean(),
      hooks: z.boolean(),
      hiddenPaths: strings(),
      visiblePaths: strings(),
      allowUnixSockets: strings(),
      protectControlFiles: z.boolean(),
      pidNamespace: z.boolean(),
    }),
  ]),
);

const toolsSchema = group({
  truncateToolOutputThreshold: z.number(),
  useRipgrep: z.boolean(),
  exclude: safety(strings()),
  allowed: safety(strings()),
  core: safety(strings()),
  confirmationRequired: safety(strings()),
  webSearch: group({
    provider: z.enum(['brave', 'tavily', 'searxng']),
    baseUrl: z.string(),
    apiKeyEnv: z.string(),
    maxResults: z.number().int().min(1).max(20),
  }),
  sandbox: sandboxSchema,
  llmEditCorrection: z.boolean(),
  disableLLMCorrection: z.boolean(),
  profile: z.enum(['full', 'compact']),
  toolSearch: group({ enabled: z.boolean(), threshold: wholeNumber().min(0) }),
});

const contextSchema = group({
  fileName: z.union([z.string(), strings()]),
  includeDirectories: strings(),
  memoryBoundaryMarkers: strings(),
  fileFiltering: group({
    respectGitIgnore: z.boolean(),
    respectGeminiIgnore: z.boolean(),
    customIgnoreFilePaths: strings(),
  }),
});

const commandHookSchema = group({
  type: z.string(),
  command: z.string(),
  name: z.string(),
  timeout: z.number(),
  description: z.string(),
  // Numbers and booleans are passed on as text, as Gemini CLI does.
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
});

const hookDefinitionsSchema = z.array(
  group({ matcher: z.string(), sequential: z.boolean(), hooks: z.array(commandHookSchema) }),
);

// Only the event names are checked: other keys (`hooks.enabled` from older Gemini CLI settings,
// misspelt events the hook reader points out) are kept as written.
const hooksSchema = safety(
  group({
    SessionStart: hookDefinitionsSchema,
    SessionEnd: hookDefinitionsSchema,
    BeforeAgent: hookDefinitionsSchema,
    AfterAgent: hookDefinitionsSchema,
    BeforeModel: hookDefinitionsSchema,
    AfterModel: hookDefinitionsSchema,
    BeforeToolSelection: hookDefinitionsSchema,
    BeforeTool: hookDefinitionsSchema,
    AfterTool: hookDefinitionsSchema,
    PreCompress: hookDefinitionsSchema,
    Notification: hookDefinitionsSchema,
  }),
);

const mcpServerSchema = group({
  command: z.string(),
  args: strings(),
  env: z.record(z.string(), z.string()),
  cwd: z.string(),
  url: z.string(),
  httpUrl: z.string(),
  type: z.string(),
  headers: z.record(z.string(), z.string()),
  timeout: z.number(),
  trust: z.boolean(),
  // Losing either would expose every tool of the server.
  includeTools: safety(strings()),
  excludeTools: safety(strings()),
  description: z.string(),
  oauth: group({
    enabled: z.boolean(),
    clientId: z.string(),
    clientSecret: z.string(),
    authorizationUrl: z.string(),
    tokenUrl: z.string(),
    scopes: strings(),
    redirectUri: z.string(),
    audiences: strings(),
    tokenParamName: z.string(),
  }),
});

const agentOverrideSchema = group({
  enabled: z.boolean(),
  model: z.string(),
  maxTurns: positiveWhole(),
  maxTimeMinutes: z.number().positive(),
  effort: effortSchema,
});

export const settingsSchema = group({
  model: modelSchema,
  general: generalSchema,
  security: securitySchema,
  admin: adminSchema,
  output: group({ format: z.enum(['text', 'json', 'stream-json']) }),
  /** Claude Code's place for the command-backed status line (`ui.statusLine` too, as Qwen Code). */
  statusLine: group({ type: z.enum(['command']), command: z.string(), padding: z.number().int().min(0) }),
  /** Gemini CLI's first place for custom themes (now `ui.customThemes`). */
  customThemes: z.record(z.string(), z.looseObject({})),
  ui: group({
    theme: z.string(),
    customThemes: z.record(z.string(), z.looseObject({})),
    statusLine: group({ type: z.enum(['command']), command: z.string(), padding: z.number().int().min(0) }),
    hideBanner: z.boolean(),
    hideTips: z.boolean(),
    hideFooter: z.boolean(),
    notifications: group({ enabled: z.boolean(), longTurnSeconds: z.number().min(0) }),
  }),
  telemetry: group({
    enabled: z.boolean(),
    target: z.enum(['local', 'gcp']),
    outfile: z.string(),
    otlpEndpoint: z.string(),
    otlpProtocol: z.enum(['grpc', 'http']),
    logPrompts: z.boolean(),
  }),
  context: contextSchema,
  tools: toolsSchema,
  webFetch: group({ allowPrivateAddresses: z.boolean() }),
  advanced: group({ excludedEnvVars: safety(strings()), ignoreLocalEnv: z.boolean() }),
  providers: z.record(
    z.string(),
    group({
      type: z.string(),
      baseUrl: z.string(),
      apiKeyEnv: z.string(),
      models: strings(),
      toolChoice: z.enum(['auto', 'required']),
      contextWindow: positiveWhole(),
      temperature: z.number().min(0).max(2),
      topP: z.number().min(0).max(1),
      topK: positiveWhole(),
      effort: effortSchema,
      wireApi: z.enum(['responses', 'chat']),
      headers: z.record(z.string(), z.string()),
      modelOverrides: z.record(z.string(), modelOverrideSchema),
    }),
  ),
  hooks: hooksSchema,
  hooksConfig: group({ enabled: z.boolean(), disabled: strings(), notifications: z.boolean() }),
  mcpServers: z.record(z.string(), mcpServerSchema),
  mcp: safety(group({ allowed: strings(), excluded: strings() })),
  budgets: group({
    maxBudgetUsd: z.number().positive(),
    maxTokens: positiveWhole(),
    maxToolCalls: positiveWhole(),
    maxTime: z.union([z.number().positive(), z.string()]),
  }),
  skills: group({ disabled: strings() }),
  memory: group({ inbox: z.boolean() }),
  agents: group({
    maxTurns: positiveWhole(),
    maxTimeMinutes: z.number().positive(),
    maxDepth: wholeNumber().min(0),
    overrides: z.record(z.string(), agentOverrideSchema),
  }),
  policyPaths: safety(strings()),
  adminPolicyPaths: safety(strings()),
});

/** What a checked settings file holds (the declared types in settings-types.ts must match). */
export type CheckedSettings = z.output<typeof settingsSchema>;

// Compile-time proof that the schema and the declared types describe the same settings.
type Assignable<From, To> = From extends To ? true : false;
const schemaFitsTypes: Assignable<CheckedSettings, Settings> = true;
void schemaFitsTypes;
