declare const __KODO_VERSION__: string | undefined;

/** Injected by the bundler from package.json; `dev` when running from source. */
export const KODO_VERSION: string = typeof __KODO_VERSION__ === 'string' ? __KODO_VERSION__ : '0.0.0-dev';
