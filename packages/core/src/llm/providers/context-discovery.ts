/**
 * Asking a local server how much context it gives a model, so kodo can plan with the real
 * window instead of assuming a cloud model's million tokens (docs/providers.md):
 *
 * - Ollama: `GET /api/ps` lists loaded models with the `context_length` they run with;
 *   `POST /api/show` gives the Modelfile's `num_ctx` parameter and the trained maximum
 *   (`model_info["<arch>.context_length"]`). A model that is not loaded and sets no `num_ctx`
 *   runs with the server's default (`OLLAMA_CONTEXT_LENGTH`), which no endpoint reports: the
 *   window is then unknown until the model is loaded.
 * - llama.cpp `llama-server`: `GET /props` → `default_generation_settings.n_ctx` (one slot's
 *   context, what a request gets).
 * - vLLM: `GET /v1/models` → `max_model_len` of the model's entry.
 *
 * Every probe is a small GET/POST with a short timeout; any failure means "not told".
 */
import type { IncomingMessage, RequestOptions } from 'node:http';
import { agentFor } from '../../net/proxy-transport';
import { loadBuiltin } from '../../utils/builtin';
import type { ContextDiscovery } from './registry';

export type LocalServer = 'ollama' | 'llama.cpp' | 'vllm';

export interface DiscoveredWindow {
  server: LocalServer;
  /** Tokens of prompt plus answer one request gets; absent when the server does not say. */
  contextWindow?: number;
  /** The most the model was trained for (Ollama's `context_length`), when told. */
  trainedWindow?: number;
}

export interface DiscoveryTarget {
  /** The client's base URL, up to `/v1`. */
  baseUrl: string;
  /** The model id as the server knows it. */
  model: string;
  discovery: ContextDiscovery;
  apiKey?: string;
}

/** Each probe gives up after this long: a server that is this slow will fail the request anyway. */
const PROBE_TIMEOUT_MS = 2_000;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

/** llama.cpp's `/props`: the context of one slot. */
export function windowFromLlamaProps(body: unknown): number | undefined {
  if (!isObject(body)) return undefined;
  const settings = body.default_generation_settings;
  return positive(isObject(settings) ? settings.n_ctx : undefined) ?? positive(body.n_ctx);
}

/**
 * `/v1/models`: vLLM's `max_model_len`, or llama.cpp's `meta.n_ctx`. The entry whose id is the
 * model, or the only entry (llama-server answers any model name with the one it serves).
 */
export function windowFromModelList(
  body: unknown,
  model: string,
): { server: LocalServer; contextWindow: number } | undefined {
  const data = isObject(body) && Array.isArray(body.data) ? body.data.filter(isObject) : [];
  const entry = data.find((item) => item.id === model) ?? (data.length === 1 ? data[0] : undefined);
  if (!entry) return undefined;
  const vllm = positive(entry.max_model_len);
  if (vllm) return { server: 'vllm', contextWindow: vllm };
  const llama = positive(isObject(entry.meta) ? entry.meta.n_ctx : undefined);
  return llama ? { server: 'llama.cpp', contextWindow: llama } : undefined;
}

/** Ollama's `/api/show`: the Modelfile's `num_ctx`, and the trained maximum. */
export function windowFromOllamaShow(body: unknown): { numCtx?: number; trained?: number } | undefined {
  if (!isObject(body)) return undefined;
  const parameters = typeof body.parameters === 'string' ? body.parameters : '';
  const numCtx = positive(Number(/^\s*num_ctx\s+(\d+)/m.exec(parameters)?.[1]));
  const info = isObject(body.model_info) ? body.model_info : {};
  const arch = info['general.architecture'];
  const trained =
    positive(typeof arch === 'string' ? info[`${arch}.context_length`] : undefined) ??
    positive(
      Object.entries(info).find(([key]) => key.endsWith('.context_length'))?.[1] as number | undefined,
    );
  if (numCtx === undefined && trained === undefined && !('model_info' in body) && !('parameters' in body))
    return undefined;
  return { ...(numCtx ? { numCtx } : {}), ...(trained ? { trained } : {}) };
}

/** Ollama's `/api/ps`: the context a loaded model runs with. `qwen3` is `qwen3:latest`. */
export function windowFromOllamaPs(body: unknown, model: string): number | undefined {
  const models = isObject(body) && Array.isArray(body.models) ? body.models.filter(isObject) : [];
  const names = new Set([model, model.includes(':') ? model : `${model}:latest`]);
  const entry = models.find((item) => names.has(String(item.name)) || names.has(String(item.model)));
  return positive(entry?.context_length);
}

/** The server's root: the base URL without its `/v1`. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** What the server says about the model's window, or undefined when it says nothing. */
export async function discoverContextWindow(
  target: DiscoveryTarget,
  signal: AbortSignal,
): Promise<DiscoveredWindow | undefined> {
  const root = serverRoot(target.baseUrl);
  // Paths from the server's root; `/models` sits under the base URL (`…/v1/models`).
  const ask: Ask = (path, body) =>
    requestJson(path === '/models' ? `${target.baseUrl.replace(/\/+$/, '')}/models` : `${root}${path}`, {
      signal,
      ...(body ? { body } : {}),
      ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    });
  if (target.discovery === 'ollama') return askOllama(ask, target.model);
  const props = windowFromLlamaProps(await ask('/props'));
  if (props) return { server: 'llama.cpp', contextWindow: props };
  const listed = windowFromModelList(await ask('/models'), target.model);
  if (listed) return listed;
  // An Ollama reached through a profile of its own (`…:11434/v1`).
  return askOllama(ask, target.model);
}

type Ask = (path: string, body?: Json) => Promise<unknown>;

async function askOllama(ask: Ask, model: string): Promise<DiscoveredWindow | undefined> {
  const [show, ps] = await Promise.all([ask('/api/show', { model }), ask('/api/ps')]);
  const shown = windowFromOllamaShow(show);
  if (!shown) return undefined;
  const running = windowFromOllamaPs(ps, model);
  const contextWindow = running ?? shown.numCtx;
  return {
    server: 'ollama',
    ...(contextWindow ? { contextWindow } : {}),
    ...(shown.trained ? { trainedWindow: shown.trained } : {}),
  };
}

/** One JSON GET (or POST with `body`); undefined on any failure, timeout or non-2xx answer. */
async function requestJson(
  url: string,
  options: { signal: AbortSignal; body?: Json; apiKey?: string },
): Promise<unknown> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  const { request } = target.protocol === 'https:' ? loadBuiltin('node:https') : loadBuiltin('node:http');
  const payload = options.body ? JSON.stringify(options.body) : undefined;
  const agent = await agentFor(target);
  const requestOptions: RequestOptions = {
    ...(agent ? { agent } : {}),
    method: payload ? 'POST' : 'GET',
    headers: {
      accept: 'application/json',
      'user-agent': 'kodo',
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    },
    signal: AbortSignal.any([options.signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
  };
  return new Promise<unknown>((resolve) => {
    const req = request(target, requestOptions, (res: IncomingMessage) => {
      if ((res.statusCode ?? 500) >= 300) {
        res.resume();
        return resolve(undefined);
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        // A model list or props answer is a few KB (llama.cpp's includes the chat template).
        if (text.length > 4_000_000) req.destroy();
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end(payload);
  });
}
