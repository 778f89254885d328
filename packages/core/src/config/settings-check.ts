import { isRecord } from '../utils/is-record';
import type { SettingsShape } from './settings-shape';
import { SETTINGS_SHAPE } from './settings-shape.generated';
import type { Settings } from './settings-types';

/**
 * Checks one parsed settings file against the settings schema (in its generated compact form;
 * see settings-schema.ts) without loading zod. What is wrong is reported with its key path and
 * removed, so the rest of kodo only ever sees values of the declared types:
 * - a value of the wrong type, shape or range, or not among an enum's values, is dropped (a
 *   wrong array element drops only that element);
 * - `null` means "not set" and is removed without a word (so a lower-precedence file's value, or
 *   the default, applies);
 * - unknown keys are kept as written;
 * - a problem at or below a safety setting is marked `fatal`: the caller stops (exit 52) rather
 *   than run with a trust, sandbox, policy or tool restriction quietly gone.
 */

export interface SettingsProblem {
  /** Where in the file: `model.name`, `tools.exclude[1]`, `mcpServers["my server"].args`. */
  path: string;
  /** `must be a string`, `must be one of "text", "json", "stream-json"`, … */
  message: string;
  fatal: boolean;
}

export interface CheckedSettingsFile {
  settings: Settings;
  problems: SettingsProblem[];
}

export function checkSettings(
  value: Record<string, unknown>,
  shape: SettingsShape = SETTINGS_SHAPE,
): CheckedSettingsFile {
  const problems: SettingsProblem[] = [];
  const checked = check(value, shape, { path: '', fatal: false }, problems);
  return { settings: (checked === DROP ? {} : checked) as Settings, problems };
}

const DROP: unique symbol = Symbol('drop');

interface At {
  path: string;
  /** Inside a safety setting. */
  fatal: boolean;
}

function check(value: unknown, shape: SettingsShape, at: At, problems: SettingsProblem[]): unknown {
  const here = shape.safety ? { ...at, fatal: true } : at;
  const fail = (message: string): typeof DROP => {
    problems.push({ path: here.path, message, fatal: here.fatal });
    return DROP;
  };
  if (value === null) return DROP;
  switch (shape.t) {
    case 'any':
      return value;
    case 'string':
      return typeof value === 'string' ? value : fail('must be a string');
    case 'boolean':
      return typeof value === 'boolean' ? value : fail('must be true or false');
    case 'number':
      return checkNumber(value, shape, fail);
    case 'enum':
      return shape.values.includes(value as string) ? value : fail(`must be ${describe(shape)}`);
    case 'array': {
      if (!Array.isArray(value)) return fail('must be an array');
      const items = shape.items;
      return value
        .map((item, index) => check(item, items, { ...here, path: `${here.path}[${index}]` }, problems))
        .filter((item) => item !== DROP);
    }
    case 'object': {
      if (!isRecord(value)) return fail('must be an object');
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const inner = Object.hasOwn(shape.props, key) ? shape.props[key] : shape.rest;
        if (!inner) {
          setOwn(out, key, item);
          continue;
        }
        const checked = check(item, inner, { ...here, path: join(here.path, key) }, problems);
        if (checked !== DROP) setOwn(out, key, checked);
      }
      return out;
    }
    case 'union':
      return checkUnion(value, shape.of, here, problems, fail);
  }
}

function checkNumber(
  value: unknown,
  shape: Extract<SettingsShape, { t: 'number' }>,
  fail: (message: string) => typeof DROP,
): unknown {
  if (typeof value !== 'number') return fail('must be a number');
  if (shape.int && !Number.isInteger(value)) return fail('must be a whole number');
  if (shape.gt !== undefined && !(value > shape.gt)) return fail(`must be greater than ${shape.gt}`);
  if (shape.min !== undefined && value < shape.min) return fail(`must be at least ${shape.min}`);
  if (shape.max !== undefined && value > shape.max) return fail(`must be at most ${shape.max}`);
  return value;
}

/**
 * The branch of the value's own kind decides, so `tools.sandbox: {"allowedPaths": 3}` is told
 * about `allowedPaths`, not that it should have been a boolean; a value of no branch's kind is
 * told every kind it may be.
 */
function checkUnion(
  value: unknown,
  branches: readonly SettingsShape[],
  at: At,
  problems: SettingsProblem[],
  fail: (message: string) => typeof DROP,
): unknown {
  const candidates = branches.filter((branch) => sameKind(value, branch));
  if (candidates.length === 0) return fail(`must be ${branches.map(describe).join(' or ')}`);
  let first: SettingsProblem[] | undefined;
  for (const branch of candidates) {
    const own: SettingsProblem[] = [];
    const checked = check(value, branch, at, own);
    if (own.length === 0) return checked;
    first ??= own;
  }
  problems.push(...(first ?? []));
  return check(value, candidates[0]!, at, []);
}

function sameKind(value: unknown, shape: SettingsShape): boolean {
  switch (shape.t) {
    case 'any':
      return true;
    case 'string':
    case 'boolean':
    case 'number':
      return typeof value === shape.t;
    case 'enum':
      return shape.values.some((allowed) => typeof allowed === typeof value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'union':
      return shape.of.some((branch) => sameKind(value, branch));
  }
}

function describe(shape: SettingsShape): string {
  switch (shape.t) {
    case 'any':
      return 'any value';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'number':
      return shape.int ? 'a whole number' : 'a number';
    case 'enum':
      return `one of ${shape.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'union':
      return shape.of.map(describe).join(' or ');
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

function join(path: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Also for a key named `__proto__`, which plain assignment would turn into the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
