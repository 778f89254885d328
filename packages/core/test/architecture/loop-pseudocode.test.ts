import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md gives the agent loop as pseudocode whose lines name, on the right, the
// function or field of agent/loop.ts they stand for. A newcomer checks the prose against the code
// through those names, so they must exist, and the steps of one round trip must come in the
// code's order.
const root = resolve(__dirname, '../../../..');
const architecture = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');
const loop = readFileSync(resolve(root, 'packages/core/src/agent/loop.ts'), 'utf8');

function pseudocode(): string {
  const start = architecture.indexOf('```\nrunAgentLoop(');
  expect(start, 'docs/architecture.md has the loop pseudocode').toBeGreaterThan(-1);
  const end = architecture.indexOf('```', start + 3);
  return architecture.slice(start + 4, end);
}

/** The names after `#` on each pseudocode line, in order. */
function annotations(): string[] {
  return pseudocode()
    .split('\n')
    .map((line) => /#\s*([\w.]+)\s*$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('the loop pseudocode in docs/architecture.md', () => {
  it('names only things that exist in agent/loop.ts', () => {
    const names = annotations();
    expect(names.length).toBeGreaterThan(10);
    const missing = names.filter((name) => !loop.includes(name));
    expect(missing, 'names in the pseudocode that loop.ts no longer has').toEqual([]);
  });

  it("follows the code's order within one round trip", () => {
    const cycle = loop.slice(loop.indexOf('export async function* runAgentLoop('));
    // The body only: from the line after the signature to the function's closing brace.
    const body = cycle.slice(cycle.indexOf('{\n'), cycle.indexOf('\n}\n'));
    const inCycle = annotations().filter((name) => body.includes(`${name}(`));
    expect(inCycle.length).toBeGreaterThan(4);
    const positions = inCycle.map((name) => body.indexOf(`${name}(`));
    expect(positions, `order of ${inCycle.join(', ')}`).toEqual([...positions].sort((a, b) => a - b));
  });
});
