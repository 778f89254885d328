// Which functions of the built bundle run on the way to the first model request, and to the
// terminal UI's prompt.
//
// The build runs the freshly built `kodo -p` under Node's own coverage (NODE_V8_COVERAGE): with
// an empty home and with a home that brings a settings file, skills, an agent and an extension,
// for Gemini (the default), and once each for the OpenAI and Anthropic clients. A preload writes
// the coverage out when kodo sends its request (v8.takeCoverage) and ends the process there, so
// no server is needed, and what is read back is which functions of each chunk were called before
// the first request. Then it starts the terminal UI in a pseudo-terminal (util-linux `script`, as
// the UI benchmark does) and takes the coverage when the empty prompt is on the screen.
// eager-compile.mjs then marks those functions for V8 to compile with their chunk instead of on
// their first call (see there for why that pays). Functions that run only later stay lazy:
// compiled early they would delay the request on Node 20, which has no compile cache.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What a user brings, small: settings, a skill, an agent, an extension with a command and a skill. */
function populateHome(home) {
  const write = (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      model: { name: 'gemini-2.5-pro' },
      tools: { allowed: ['run_shell_command(git status)'] },
      context: { fileName: ['GEMINI.md', 'AGENTS.md'] },
    }),
  );
  write(
    join(home, '.gemini', 'skills', 'profile-skill', 'SKILL.md'),
    '---\nname: profile-skill\ndescription: Used when profiling the build.\n---\nSteps.\n',
  );
  write(
    join(home, '.claude', 'agents', 'profile-agent.md'),
    '---\nname: profile-agent\ndescription: Reviews code.\ntools: Read, Grep\n---\nReview the code.\n',
  );
  const extension = join(home, 'extensions', 'profile-extension');
  write(
    join(extension, 'gemini-extension.json'),
    JSON.stringify({ name: 'profile-extension', version: '1.0.0', contextFileName: 'CONTEXT.md' }),
  );
  write(join(extension, 'CONTEXT.md'), 'Context of the extension.\n');
  write(join(extension, 'commands', 'run.toml'), 'description = "Run"\nprompt = "Run {{args}}"\n');
  write(
    join(extension, 'skills', 'extension-skill', 'SKILL.md'),
    '---\nname: extension-skill\ndescription: From the extension.\n---\nSteps.\n',
  );
}

/**
 * Loaded with `--require`: at kodo's first HTTP request, or when the profile sends SIGUSR2 (the
 * UI's prompt is on the screen), coverage to disk and the process ends. The UI's run has it write
 * its pid to KODO_PROFILE_PID_FILE: under `script`, kodo is not the profile's own child.
 */
const PRELOAD = `const http = require('node:http');
const v8 = require('node:v8');
const stop = () => {
  v8.takeCoverage();
  process.kill(process.pid, 'SIGKILL');
};
if (process.env.KODO_PROFILE_PID_FILE) require('node:fs').writeFileSync(process.env.KODO_PROFILE_PID_FILE, String(process.pid));
process.on('SIGUSR2', stop);
const request = http.request;
http.request = function () {
  stop();
  return request.apply(this, arguments);
};
`;

/** A headless run that has not reached its request by then is stuck, not slow. */
const RUN_TIMEOUT_MS = 60_000;

/** Nothing listens here: the preload ends kodo as it opens the request. */
const NO_SERVER = 'http://127.0.0.1:9';

/** The runs: which home, and which model (each provider's client is its own code). */
const RUNS = [
  { home: 'plain', model: [] },
  { home: 'loaded', model: [] },
  { home: 'plain', model: ['-m', 'openai:gpt-5'] },
  { home: 'plain', model: ['-m', 'anthropic:claude-sonnet-4-5'] },
];

/** Where the preload leaves kodo's pid. */
const pidFile = (scratch) => join(scratch, 'kodo.pid');

function kodoEnv(home, scratch) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    KODO_HOME: home,
    KODO_TRUST_WORKSPACE: 'true',
    GEMINI_API_KEY: 'profile',
    OPENAI_API_KEY: 'profile',
    ANTHROPIC_API_KEY: 'profile',
    GOOGLE_GEMINI_BASE_URL: NO_SERVER,
    OPENAI_BASE_URL: NO_SERVER,
    ANTHROPIC_BASE_URL: NO_SERVER,
    NODE_V8_COVERAGE: join(scratch, 'coverage'),
  };
}

function runKodo(kodoBin, { home, model, scratch, preload }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, kodoBin, '-p', 'hi', ...model], {
      cwd: join(scratch, 'workspace'),
      env: kodoEnv(home, scratch),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, RUN_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // SIGKILL is the preload's, at the request; anything else is a kodo that did not get there.
      if (signal === 'SIGKILL' && !timedOut) return resolve();
      const how = timedOut ? `no request in ${RUN_TIMEOUT_MS / 1000} s` : `exit ${code ?? signal}`;
      reject(
        new Error(
          `the start-up profile's kodo -p ended before its request (${how}; KODO_EAGER_COMPILE=off builds without this step): ${stderr.trim()}`,
        ),
      );
    });
  });
}

/** The placeholder of the UI's empty prompt (its first letter is drawn as the cursor). */
const PROMPT_READY = 'ype your message';
const UI_TIMEOUT_MS = 30_000;

/**
 * The terminal UI in a 100×30 pseudo-terminal, until its prompt is on the screen. Resolves with
 * why it did not profile the UI, or undefined when it did. A UI that cannot be profiled here
 * (no util-linux `script`, as on macOS, whose `script` takes other flags; no pseudo-terminals)
 * costs only its marks, so it does not fail the build; the headless runs above do.
 */
function runKodoInteractive(kodoBin, { home, scratch, preload }) {
  if (process.platform !== 'linux') return Promise.resolve('util-linux `script` is Linux only');
  return new Promise((resolve) => {
    const command = `stty cols 100 rows 30; exec '${process.execPath}' --require '${preload}' '${kodoBin}'`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: join(scratch, 'workspace'),
      env: {
        ...kodoEnv(home, scratch),
        KODO_PROFILE_PID_FILE: pidFile(scratch),
        TERM: 'xterm-256color',
        LANG: 'C.UTF-8',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let output = '';
    let signalled = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), UI_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (text) => {
      output += text;
      if (signalled || !output.includes(PROMPT_READY)) return;
      signalled = true;
      process.kill(Number(readFileSync(pidFile(scratch), 'utf8')), 'SIGUSR2');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`\`script\` did not start (${error.code ?? error.message})`);
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (signalled) resolve(undefined);
      else resolve(`the UI showed no prompt: ${JSON.stringify(output.slice(-300))}`);
    });
  });
}

/**
 * Runs the built CLI in `cliDist` and returns, per chunk file (absolute path), the source offsets
 * of the functions that were called before its first request or its prompt (each function's
 * range start, as V8 counts them: UTF-16 offsets into the file).
 */
export async function profileStartup(cliDist) {
  const scratch = mkdtempSync(join(tmpdir(), 'kodo-startup-profile-'));
  try {
    mkdirSync(join(scratch, 'workspace'));
    // A home of its own for each run: they run at once, and each writes its session and caches.
    const homes = RUNS.map((run, index) => {
      const home = join(scratch, `home-${index}`);
      if (run.home === 'loaded') populateHome(home);
      else mkdirSync(home);
      return home;
    });
    const preload = join(scratch, 'first-request.cjs');
    writeFileSync(preload, PRELOAD);
    const kodoBin = join(cliDist, 'kodo.cjs');
    // At once: each run writes a coverage file of its own, and the build waits for the slowest.
    await Promise.all(
      RUNS.map((run, index) => runKodo(kodoBin, { home: homes[index], model: run.model, scratch, preload })),
    );
    const loadedHome = homes[RUNS.findIndex((run) => run.home === 'loaded')];
    const skipped = await runKodoInteractive(kodoBin, { home: loadedHome, scratch, preload });
    if (skipped) console.warn(`the terminal UI's start-up is not profiled: ${skipped}`);
    return calledFunctions(join(scratch, 'coverage'), cliDist);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function calledFunctions(coverageDir, cliDist) {
  const distUrl = pathToFileURL(cliDist).href;
  const called = new Map();
  for (const file of readdirSync(coverageDir)) {
    const { result } = JSON.parse(readFileSync(join(coverageDir, file), 'utf8'));
    for (const script of result) {
      if (!script.url.startsWith(distUrl) || !script.url.endsWith('.mjs')) continue;
      const path = fileURLToPath(script.url);
      const offsets = called.get(path) ?? new Set();
      for (const fn of script.functions) {
        const range = fn.ranges[0];
        if (fn.functionName !== '' || range.startOffset !== 0) {
          if (range.count > 0) offsets.add(range.startOffset);
        }
      }
      called.set(path, offsets);
    }
  }
  return called;
}
