// Which functions of the built bundle run on the way to the first model request.
//
// The build runs the freshly built `kodo -p` under Node's own coverage (NODE_V8_COVERAGE): with
// an empty home and with a home that brings a settings file, skills, an agent and an extension,
// for Gemini (the default), and once each for the OpenAI and Anthropic clients. A preload writes
// the coverage out when kodo sends its request (v8.takeCoverage) and ends the process there, so
// no server is needed, and what is read back is which functions of each chunk were called before
// the first request. eager-compile.mjs then
// marks those functions for V8 to compile with their chunk instead of on their first call (see
// there for why that pays). Functions that run only after the request stay lazy: compiled early
// they would delay the request on Node 20, which has no compile cache.

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

/** Loaded with `--require`: at kodo's first HTTP request, coverage to disk and the process ends. */
const PRELOAD = `const http = require('node:http');
const v8 = require('node:v8');
const request = http.request;
http.request = function () {
  v8.takeCoverage();
  process.kill(process.pid, 'SIGKILL');
  return request.apply(this, arguments);
};
`;

/** Nothing listens here: the preload ends kodo as it opens the request. */
const NO_SERVER = 'http://127.0.0.1:9';

/** The runs: which home, and which model (each provider's client is its own code). */
const RUNS = [
  { home: 'plain', model: [] },
  { home: 'loaded', model: [] },
  { home: 'plain', model: ['-m', 'openai:gpt-5'] },
  { home: 'plain', model: ['-m', 'anthropic:claude-sonnet-4-5'] },
];

function runKodo(kodoBin, { home, model, workspace, coverageDir, preload }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, kodoBin, '-p', 'hi', ...model], {
      cwd: workspace,
      env: {
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
        NODE_V8_COVERAGE: coverageDir,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve();
      else
        reject(
          new Error(
            `the start-up profile's kodo -p ended before its request (exit ${code}; KODO_EAGER_COMPILE=off builds without this step): ${stderr.trim()}`,
          ),
        );
    });
  });
}

/**
 * Runs the built CLI in `cliDist` and returns, per chunk file (absolute path), the source offsets
 * of the functions that were called before its first request (each function's range start, as
 * V8 counts them: UTF-16 offsets into the file).
 */
export async function profileStartup(cliDist) {
  const scratch = mkdtempSync(join(tmpdir(), 'kodo-startup-profile-'));
  try {
    const coverageDir = join(scratch, 'coverage');
    const workspace = join(scratch, 'workspace');
    mkdirSync(workspace);
    const homes = { plain: join(scratch, 'plain-home'), loaded: join(scratch, 'loaded-home') };
    mkdirSync(homes.plain);
    populateHome(homes.loaded);
    const preload = join(scratch, 'first-request.cjs');
    writeFileSync(preload, PRELOAD);
    const kodoBin = join(cliDist, 'kodo.cjs');
    for (const run of RUNS) {
      await runKodo(kodoBin, { home: homes[run.home], model: run.model, workspace, coverageDir, preload });
    }
    return calledFunctions(coverageDir, cliDist);
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
