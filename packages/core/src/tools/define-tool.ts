import * as z from 'zod';
import type { FunctionDeclaration } from '../contracts/messages';
import { errnoErrorType } from './file-text';
import type {
  BuildResult,
  ConfirmationDetails,
  Tool,
  ToolContext,
  ToolContextFor,
  ToolDefinition,
  ToolError,
  ToolInvocation,
  ToolNeed,
  ToolResult,
} from './tool';

/**
 * Every tool also accepts `wait_for_previous`: the model sets it to force a call to wait for the
 * ones before it instead of running in parallel.
 */
const WAIT_FOR_PREVIOUS_SCHEMA = {
  type: 'boolean',
  description: 'Set to true to run this call only after the previous calls of this turn have finished.',
};

export function defineTool<Schema extends z.ZodObject, Uses extends ToolNeed = ToolNeed>(
  definition: ToolDefinition<Schema, Uses>,
): Tool {
  let declaration: FunctionDeclaration | undefined;
  const tool: Tool = {
    name: definition.name,
    ...(definition.uses ? { uses: definition.uses } : {}),
    displayName: definition.displayName,
    kind: definition.kind,
    description: definition.description,
    declaration() {
      declaration ??= {
        name: definition.name,
        description: definition.description,
        // A freeform call carries only its text: there is no place for `wait_for_previous`.
        parametersJsonSchema: toModelJsonSchema(definition.parameters, {
          schedulingHint: definition.freeform === undefined,
        }),
        ...(definition.freeform ? { freeform: definition.freeform } : {}),
      };
      return declaration;
    },
    build(args: unknown, context: ToolContext): BuildResult {
      const ctx = definition.uses ? contextFor(context, definition.uses) : context;
      const withoutMeta = stripRuntimeParams(args);
      const parsed = definition.parameters.safeParse(withoutMeta);
      if (!parsed.success) {
        return {
          ok: false,
          error: { type: 'invalid_tool_params', message: formatZodError(parsed.error, withoutMeta) },
        };
      }
      const params = parsed.data as z.infer<Schema>;
      let invalid: ToolError | undefined;
      try {
        invalid = definition.validate?.(params, ctx);
      } catch (error) {
        invalid = { type: 'invalid_tool_params', message: errorMessage(error) };
      }
      if (invalid) return { ok: false, error: invalid };
      return { ok: true, invocation: makeInvocation(tool, definition, params, ctx) };
    },
  };
  return tool;
}

/**
 * The part of the context a tool declared, read through to the session's context on every use
 * (the session fills some services in after it is built, `agents` among them).
 */
export function contextFor<Uses extends ToolNeed>(
  context: ToolContext,
  uses: readonly Uses[],
): ToolContextFor<Uses> {
  const view = {} as ToolContextFor<Uses>;
  for (const need of uses) {
    Object.defineProperty(view, need, { get: () => context[need], enumerable: true });
  }
  return view;
}

function makeInvocation<Schema extends z.ZodObject, Uses extends ToolNeed>(
  tool: Tool,
  definition: ToolDefinition<Schema, Uses>,
  params: z.infer<Schema>,
  ctx: ToolContextFor<Uses>,
): ToolInvocation {
  return {
    tool,
    params: params as Record<string, unknown>,
    describe: () => definition.describe(params, ctx),
    locations: () => definition.locations?.(params, ctx) ?? [],
    async confirmationDetails(signal): Promise<ConfirmationDetails> {
      const details = await definition.confirmationDetails?.(params, ctx, signal);
      return (
        details ?? {
          kind: 'info',
          title: `Confirm ${definition.displayName}`,
          prompt: definition.describe(params, ctx),
        }
      );
    },
    async execute(options): Promise<ToolResult> {
      try {
        return await definition.execute(params, ctx, options);
      } catch (error) {
        // A tool that throws gets an error result the model can read; the loop goes on.
        const message = errorMessage(error);
        return {
          llmContent: message,
          returnDisplay: message,
          error: { type: errnoErrorType(error, 'unhandled_exception'), message },
        };
      }
    },
  };
}

function stripRuntimeParams(args: unknown): unknown {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return args;
  const { wait_for_previous: _ignored, ...rest } = args as Record<string, unknown>;
  return rest;
}

/** JSON Schema for the model: zod's output without the keys providers reject or don't need. */
export function toModelJsonSchema(
  schema: z.ZodType,
  options: { schedulingHint?: boolean } = {},
): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  const cleaned = stripNoise(json) as Record<string, unknown>;
  if (options.schedulingHint === false) return cleaned;
  const properties = (cleaned.properties ?? {}) as Record<string, unknown>;
  cleaned.properties = { ...properties, wait_for_previous: WAIT_FOR_PREVIOUS_SCHEMA };
  return cleaned;
}

function stripNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNoise);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema') continue;
    // zod writes the safe-integer bounds for every .int(); they only add noise for the model.
    if (
      (key === 'maximum' && child === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && child === Number.MIN_SAFE_INTEGER)
    ) {
      continue;
    }
    out[key] = stripNoise(child);
  }
  return out;
}

/**
 * Validation messages in the style the model knows from Gemini CLI (JSON-Schema validator text):
 * `params must have required property 'file_path'`, `params/start_line must be >= 1`.
 */
export function formatZodError(error: z.ZodError, input: unknown): string {
  const messages = error.issues.map((issue) => {
    const path = issue.path.map(String);
    const where = ['params', ...path.slice(0, -1)].join('/');
    const field = path.at(-1);
    if (issue.code === 'invalid_type' && field !== undefined && valueAt(input, issue.path) === undefined) {
      return `${where} must have required property '${field}'`;
    }
    if (issue.code === 'unrecognized_keys') {
      return `${['params', ...path].join('/')} must NOT have additional properties: ${issue.keys.join(', ')}`;
    }
    const full = ['params', ...path].join('/');
    return `${full} ${lowerFirst(issue.message)}`;
  });
  return messages.join('; ');
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function lowerFirst(text: string): string {
  return text.length > 0 ? text[0]!.toLowerCase() + text.slice(1) : text;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
