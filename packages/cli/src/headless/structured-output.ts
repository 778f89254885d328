import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentEvent, LoopOutcome, Session } from '@kodo/core/engine';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * `--json-schema FILE` (headless `-o json` / `stream-json`): once the prompt's work is done, the
 * model is asked for its final answer as JSON matching the schema, in its provider's native way
 * (the request's `responseJsonSchema`, see core's llm/structured-output/). kodo validates the
 * answer; a mismatch is sent back once with the validator's words, and a second mismatch ends the
 * run with its own exit code (ExitCode.structuredOutput).
 */
export interface JsonSchemaFile {
  path: string;
  schema: Record<string, unknown>;
  validate: ValidateFunction;
}

/** A schema file that cannot be read, parsed or compiled: a usage error. */
export class JsonSchemaFileError extends Error {
  override readonly name = 'JsonSchemaFileError';
}

export function loadJsonSchemaFile(path: string, cwd: string): JsonSchemaFile {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new JsonSchemaFileError(
      `--json-schema: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new JsonSchemaFileError(`--json-schema: ${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new JsonSchemaFileError(`--json-schema: ${path} must hold a JSON Schema object`);
  }
  try {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    return { path, schema: schema as Record<string, unknown>, validate };
  } catch (error) {
    throw new JsonSchemaFileError(
      `--json-schema: ${path} is not a valid JSON Schema: ${(error as Error).message}`,
    );
  }
}

export const structuredAnswerPrompt = (schema: Record<string, unknown>) =>
  `Now give your final answer as a single JSON value that matches this JSON Schema, and nothing else:\n${JSON.stringify(schema)}`;

export const structuredRetryPrompt = (problems: string) =>
  `That answer does not match the JSON Schema: ${problems}. Answer again with only a JSON value that matches the schema.`;

export type StructuredResult =
  /** The answer matched: `value` is the parsed JSON. */
  | { kind: 'matched'; value: unknown }
  /** Both attempts failed validation; `problems` says why the last one did. */
  | { kind: 'mismatch'; problems: string }
  /** The request itself did not complete (error, cancel, budget…): the outcome says how. */
  | { kind: 'not_completed' };

/** Checks one answer: parsed and validated, or the validator's words. */
export function checkAnswer(
  text: string,
  validate: ValidateFunction,
): { ok: true; value: unknown } | { ok: false; problems: string } {
  let value: unknown;
  try {
    value = JSON.parse(withoutFence(text));
  } catch (error) {
    return { ok: false, problems: `it is not JSON (${(error as Error).message})` };
  }
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? [])
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
    .join('; ');
  return { ok: false, problems: problems || 'it is invalid' };
}

/** Models asked for JSON sometimes still wrap it in a Markdown fence. */
function withoutFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return fenced ? fenced[1]! : text;
}

/**
 * The structured answer, asked after the prompt completed: one request, then at most one retry
 * with the validation error. Events stream to `onEvent` like the prompt's.
 */
export async function askStructuredAnswer(
  session: Pick<Session, 'sendMessage'>,
  schema: JsonSchemaFile,
  signal: AbortSignal,
  onEvent: (event: AgentEvent) => void,
): Promise<{ outcome: LoopOutcome; structured: StructuredResult }> {
  let prompt = structuredAnswerPrompt(schema.schema);
  let outcome: LoopOutcome | undefined;
  let problems = '';
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const stream = session.sendMessage(prompt, signal, { responseJsonSchema: schema.schema });
    let next = await stream.next();
    while (!next.done) {
      onEvent(next.value);
      next = await stream.next();
    }
    outcome = next.value;
    if (outcome.kind !== 'completed') return { outcome, structured: { kind: 'not_completed' } };
    const checked = checkAnswer(outcome.text, schema.validate);
    if (checked.ok) return { outcome, structured: { kind: 'matched', value: checked.value } };
    problems = checked.problems;
    prompt = structuredRetryPrompt(problems);
  }
  return { outcome: outcome!, structured: { kind: 'mismatch', problems } };
}
