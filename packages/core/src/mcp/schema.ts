/**
 * MCP servers describe their tools' inputs in whatever JSON Schema their SDK writes (draft-07
 * with `$schema`, `$ref`/`$defs`, type arrays, `additionalProperties`, `format: uri`…). Each
 * model API accepts a different subset and answers 400 to the rest, which would fail every
 * request of the session, not just this tool. So the schema is cleaned for the provider in use,
 * by a table of what each one rejects; `portable` satisfies all of them.
 */

export type SchemaTarget = 'gemini' | 'openai' | 'anthropic' | 'portable';

interface SchemaProfile {
  /** Keywords kept in a schema node; others are dropped. Absent = keep all but `dropKeys`. */
  keepKeys?: ReadonlySet<string>;
  dropKeys: ReadonlySet<string>;
  /** `format` values kept; others move into the description. Absent = all kept. */
  formats?: ReadonlySet<string>;
  dropAdditionalProperties: boolean;
  /** `type: ['string', 'null']` → `type: 'string', nullable: true`; several types → `anyOf`. */
  singleTypes: boolean;
  /** `const: x` → `enum: [x]`. */
  constToEnum: boolean;
  /** `oneOf` → `anyOf` (the only union some APIs know). */
  oneOfAsAnyOf: boolean;
  /** `allOf` of objects merged into one object. */
  mergeAllOf: boolean;
  /** Arrays get `items: {}` when they have none (OpenAI: "array schema missing items"). */
  arrayItems: boolean;
  /** `anyOf`/`oneOf`/`allOf` at the top level merged into one object (Anthropic, OpenAI refuse them). */
  flattenTopLevel: boolean;
}

/** Keywords no API needs: schema metadata and annotations. */
const METADATA_KEYS = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary']);

/** What Gemini's `parametersJsonSchema` takes (the rest draws `Invalid JSON payload` errors). */
const GEMINI_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'propertyOrdering',
]);
const GEMINI_FORMATS = new Set(['date-time', 'date', 'time', 'enum', 'int32', 'int64', 'float', 'double']);

const PROFILES: Readonly<Record<SchemaTarget, SchemaProfile>> = {
  gemini: {
    keepKeys: GEMINI_KEYS,
    dropKeys: METADATA_KEYS,
    formats: GEMINI_FORMATS,
    dropAdditionalProperties: true,
    singleTypes: true,
    constToEnum: true,
    oneOfAsAnyOf: true,
    mergeAllOf: true,
    arrayItems: true,
    flattenTopLevel: false,
  },
  openai: {
    dropKeys: METADATA_KEYS,
    dropAdditionalProperties: false,
    singleTypes: false,
    constToEnum: false,
    oneOfAsAnyOf: false,
    mergeAllOf: false,
    arrayItems: true,
    flattenTopLevel: true,
  },
  anthropic: {
    dropKeys: METADATA_KEYS,
    dropAdditionalProperties: false,
    singleTypes: false,
    constToEnum: false,
    oneOfAsAnyOf: false,
    mergeAllOf: false,
    arrayItems: false,
    flattenTopLevel: true,
  },
  portable: {
    keepKeys: GEMINI_KEYS,
    dropKeys: METADATA_KEYS,
    formats: GEMINI_FORMATS,
    dropAdditionalProperties: true,
    singleTypes: true,
    constToEnum: true,
    oneOfAsAnyOf: true,
    mergeAllOf: true,
    arrayItems: true,
    flattenTopLevel: true,
  },
};

/** Keywords whose value is a schema, an array of schemas, or a map of schemas. */
const SCHEMA_VALUED = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
const SCHEMA_ARRAYS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);

type Json = Record<string, unknown>;

/** Deepest `$ref` chain inlined; recursive types are cut there. */
const MAX_REF_DEPTH = 8;

/**
 * The input schema as `target` accepts it: local `$ref`s inlined (recursion cut after a few
 * levels), keywords the API rejects removed, and an object at the top level.
 */
export function cleanToolSchema(schema: unknown, target: SchemaTarget): Json {
  const profile = PROFILES[target];
  const root = isObject(schema) ? schema : {};
  const definitions = { ...asMap(root.definitions), ...asMap(root.$defs) };
  let cleaned = cleanNode(root, profile, definitions, []);
  if (profile.flattenTopLevel) cleaned = flattenCombinators(cleaned);
  // Every API wants an object with properties at the top, whatever the server sent.
  if (cleaned.type !== 'object') cleaned = { ...cleaned, type: 'object' };
  if (!isObject(cleaned.properties)) cleaned = { ...cleaned, properties: {} };
  return cleaned;
}

function cleanNode(node: Json, profile: SchemaProfile, definitions: Json, refStack: string[]): Json {
  const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
  if (ref !== undefined) {
    const target = resolveRef(ref, definitions);
    if (!target || refStack.includes(ref) || refStack.length >= MAX_REF_DEPTH) {
      // A recursive or unknown reference: say what it was, accept any value.
      const description =
        typeof node.description === 'string' ? node.description : `A ${ref.split('/').pop()} value.`;
      return cleanNode({ description }, profile, definitions, refStack);
    }
    const { $ref: _ref, ...siblings } = node;
    return cleanNode({ ...target, ...siblings }, profile, definitions, [...refStack, ref]);
  }
  let out: Json = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'definitions' || key === '$defs') continue;
    if (profile.dropKeys.has(key)) continue;
    if (key === 'additionalProperties' && profile.dropAdditionalProperties) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: Json = {};
      for (const [name, child] of Object.entries(value)) {
        map[name] = isObject(child) ? cleanNode(child, profile, definitions, refStack) : {};
      }
      out[key] = map;
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      out[key] = value.filter(isObject).map((child) => cleanNode(child, profile, definitions, refStack));
    } else if (SCHEMA_VALUED.has(key) && isObject(value)) {
      out[key] = cleanNode(value, profile, definitions, refStack);
    } else {
      out[key] = value;
    }
  }
  if (profile.constToEnum && 'const' in out) {
    const { const: constant, ...rest } = out;
    out = { ...rest, enum: [constant] };
  }
  if (profile.oneOfAsAnyOf && Array.isArray(out.oneOf)) {
    const { oneOf, ...rest } = out;
    out = { ...rest, anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...oneOf] };
  }
  if (profile.mergeAllOf && Array.isArray(out.allOf)) out = mergeAllOf(out);
  if (profile.singleTypes && Array.isArray(out.type)) out = singleType(out);
  if (profile.formats && typeof out.format === 'string' && !profile.formats.has(out.format)) {
    notes.push(`Format: ${out.format}.`);
    delete out.format;
  }
  if (profile.arrayItems && out.type === 'array' && !isObject(out.items) && !Array.isArray(out.prefixItems)) {
    out.items = {};
  }
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const properties = out.properties;
    out.required = out.required.filter((name) => typeof name === 'string' && name in properties);
  }
  if (profile.keepKeys) {
    const keep = profile.keepKeys;
    out = Object.fromEntries(Object.entries(out).filter(([key]) => keep.has(key)));
  }
  if (notes.length > 0) {
    out.description = [typeof out.description === 'string' ? out.description : '', ...notes]
      .filter(Boolean)
      .join(' ');
  }
  return out;
}

function resolveRef(ref: string, definitions: Json): Json | undefined {
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const name = match[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
  const target = definitions[name];
  return isObject(target) ? target : undefined;
}

/** `['string', 'null']` → string + nullable; several real types → one `anyOf` branch each. */
function singleType(node: Json): Json {
  const types = (node.type as unknown[]).filter((type): type is string => typeof type === 'string');
  const nullable = types.includes('null');
  const real = types.filter((type) => type !== 'null');
  const { type: _type, ...rest } = node;
  if (real.length === 0) return { ...rest, ...(nullable ? { nullable: true } : {}) };
  if (real.length === 1) return { ...rest, type: real[0], ...(nullable ? { nullable: true } : {}) };
  const { description, ...constraints } = rest;
  return {
    ...(description !== undefined ? { description } : {}),
    anyOf: real.map((type) => ({ ...constraints, type })),
    ...(nullable ? { nullable: true } : {}),
  };
}

/** `allOf` of object schemas → one object with every branch's properties and requirements. */
function mergeAllOf(node: Json): Json {
  const { allOf, ...rest } = node;
  const branches = (allOf as unknown[]).filter(isObject);
  let merged: Json = { ...rest };
  for (const branch of branches) merged = mergeObjects(merged, branch);
  return merged;
}

/** Top-level `anyOf`/`oneOf`/`allOf` → one object: any branch's properties, required only if all require. */
function flattenCombinators(node: Json): Json {
  const { anyOf, oneOf, allOf, ...rest } = node;
  let out: Json = rest;
  if (Array.isArray(allOf)) for (const branch of allOf.filter(isObject)) out = mergeObjects(out, branch);
  const alternatives = [
    ...(Array.isArray(anyOf) ? anyOf : []),
    ...(Array.isArray(oneOf) ? oneOf : []),
  ].filter(isObject);
  if (alternatives.length === 0) return out;
  const properties: Json = { ...asMap(out.properties) };
  for (const branch of alternatives) Object.assign(properties, asMap(branch.properties));
  const requiredSets = alternatives.map(
    (branch) => new Set(Array.isArray(branch.required) ? branch.required : []),
  );
  const requiredByAll = [...requiredSets[0]!].filter((name) => requiredSets.every((set) => set.has(name)));
  const required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...requiredByAll])];
  return {
    ...out,
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

function mergeObjects(base: Json, branch: Json): Json {
  const properties = { ...asMap(base.properties), ...asMap(branch.properties) };
  const required = [
    ...new Set([
      ...(Array.isArray(base.required) ? base.required : []),
      ...(Array.isArray(branch.required) ? branch.required : []),
    ]),
  ];
  const merged: Json = { ...branch, ...base };
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = required;
  if (merged.type === undefined && Object.keys(properties).length > 0) merged.type = 'object';
  return merged;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asMap(value: unknown): Json {
  return isObject(value) ? value : {};
}

/**
 * The schema rules for a model spec (`provider:model`): Gemini's, Anthropic's, or OpenAI's for
 * OpenAI and the servers that speak its API; `portable` when the provider is not known.
 */
export function schemaTargetForModel(model: string): SchemaTarget {
  const colon = model.indexOf(':');
  const provider = colon > 0 ? model.slice(0, colon).toLowerCase() : '';
  if (provider === 'gemini' || provider === 'vertex') return 'gemini';
  if (provider === 'anthropic') return 'anthropic';
  if (provider === 'openai' || provider === 'ollama' || provider === 'openrouter') return 'openai';
  if (provider === '' && model.startsWith('gemini-')) return 'gemini';
  return 'portable';
}
