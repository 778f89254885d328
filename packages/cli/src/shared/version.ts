declare const __KODO_VERSION__: string | undefined;
declare const __KODO_SOURCE_ID__: string | undefined;

/** Injected by the bundler from package.json; `dev` when running from source. */
export const KODO_VERSION: string = typeof __KODO_VERSION__ === 'string' ? __KODO_VERSION__ : '0.0.0-dev';

/**
 * Names the build (its sources and locked dependencies; scripts/build.mjs), for caches of what
 * this build computed; undefined when running from source.
 */
export const KODO_BUILD_KEY: string | undefined =
  typeof __KODO_SOURCE_ID__ === 'string' ? `${KODO_VERSION}+${__KODO_SOURCE_ID__}` : undefined;
