/**
 * kodo's message model. Every layer above the ContentGenerator speaks only these types; no vendor
 * SDK type crosses this line. The shape follows the Gemini REST API (camelCase JSON), so that
 * recorded Gemini CLI sessions (`--fake-responses` JSONL) replay unchanged and the Gemini adapter
 * is a near pass-through. Other providers convert both ways.
 */

export type Role = 'user' | 'model';

export interface FunctionCall {
  /** Provider-assigned id. Absent for most Gemini models; kodo then generates one. */
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name: string;
  /** `{output: string}` on success, `{error: string}` on failure (see tools/tool.ts). */
  response: Record<string, unknown>;
}

export interface InlineData {
  mimeType: string;
  /** base64 */
  data: string;
}

/** One piece of a message. Exactly one of the payload fields is set. */
export interface Part {
  text?: string;
  /** When true, `text` is the model's reasoning, not its answer. */
  thought?: boolean;
  /** Opaque signature some models attach to thoughts/function calls; must be sent back unchanged. */
  thoughtSignature?: string;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: InlineData;
}

export interface Content {
  role: Role;
  parts: Part[];
}

/** A tool declaration as the model sees it: a name, a description and a JSON Schema object. */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
  /**
   * A freeform tool: the model writes its input as plain text in this grammar rather than JSON
   * arguments (OpenAI's `custom` tools). In kodo's message model its call's arguments are
   * `{input: string}`, the text as written. Only wire APIs that can constrain the model by a
   * grammar are offered such a tool; `parametersJsonSchema` describes the `{input}` object.
   */
  freeform?: FreeformFormat;
}

/** The grammar a freeform tool's input follows. */
export interface FreeformFormat {
  syntax: 'lark' | 'regex';
  definition: string;
}

export interface GenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  /** Ask thinking-capable models to include their thoughts. */
  includeThoughts?: boolean;
  /** Tokens the model may think (Gemini 2.5, Anthropic); 0 = no thinking where the model allows. */
  thinkingBudget?: number;
  /** Gemini 3's thinking level. */
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
  /** OpenAI's reasoning effort. */
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  /**
   * kodo's one effort setting (llm/effort.ts); the router turns it into the fields above for the
   * model's family. Undefined = what the vendor's own agent uses.
   */
  effort?: 'off' | 'low' | 'medium' | 'high' | 'max';
  /** A call outside the conversation (compression, a tool's one-shot call): think little. */
  utility?: boolean;
  /** Groups requests that share a prefix (the session id): OpenAI's `prompt_cache_key`. */
  cacheKey?: string;
  /**
   * Structured output: the answer must be JSON matching this JSON Schema. Each provider asks in
   * its native way (`llm/structured-output/`); such a request offers no tools.
   */
  responseJsonSchema?: Record<string, unknown>;
}

export interface GenerateRequest {
  model: string;
  contents: Content[];
  systemInstruction?: string;
  tools?: FunctionDeclaration[];
  /**
   * Server-side tools of the provider, next to the function declarations: Gemini's Google Search
   * and URL-context grounding. Providers without them ignore the field.
   */
  builtinTools?: BuiltinModelTool[];
  config?: GenerationConfig;
}

/** Server-side tools; `webSearch` is the provider's own search (Anthropic's web search tool). */
export type BuiltinModelTool = 'googleSearch' | 'urlContext' | 'webSearch';

export type FinishReason =
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'FINISH_REASON_UNSPECIFIED'
  | (string & {});

export interface Citation {
  startIndex?: number;
  endIndex?: number;
  uri?: string;
  title?: string;
  license?: string;
}

export interface Candidate {
  content?: { role?: Role | string; parts?: Part[] };
  finishReason?: FinishReason;
  index?: number;
  citationMetadata?: { citations?: Citation[] };
  safetyRatings?: unknown[];
  /** Sources of a grounded answer (Google Search / URL context). */
  groundingMetadata?: GroundingMetadata;
  /** How each URL of a URL-context call was retrieved (`URL_RETRIEVAL_STATUS_SUCCESS`, …). */
  urlContextMetadata?: { urlMetadata?: { retrievedUrl?: string; urlRetrievalStatus?: string }[] };
}

/** A web source of a grounded answer. */
export interface GroundingChunk {
  web?: { uri?: string; title?: string };
}

/** Which part of the answer (UTF-8 byte offsets into the text) rests on which chunks. */
export interface GroundingSupport {
  segment?: { startIndex?: number; endIndex?: number; text?: string };
  groundingChunkIndices?: number[];
}

export interface GroundingMetadata {
  groundingChunks?: GroundingChunk[];
  groundingSupports?: GroundingSupport[];
  webSearchQueries?: string[];
}

export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** One response (or one stream chunk) in Gemini's wire shape. */
export interface GenerateResponse {
  candidates?: Candidate[];
  usageMetadata?: UsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface CountTokensResponse {
  totalTokens: number;
  cachedContentTokenCount?: number;
}

/** Text of the first candidate's non-thought parts. */
export function responseText(response: GenerateResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
}

/** Function calls of the first candidate. */
export function responseFunctionCalls(response: GenerateResponse): FunctionCall[] {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
}
