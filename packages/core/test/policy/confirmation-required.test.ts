import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyEngine } from '../../src/scheduler/policy/engine';
import type { ApprovalMode } from '../../src/scheduler/policy/policy';
import { loadPolicyEngine } from '../../src/scheduler/policy/sources';
import { type ConfirmationRequest, Scheduler } from '../../src/scheduler/scheduler';
import { listDirectoryTool } from '../../src/tools/builtin/list-directory';
import { readFileTool } from '../../src/tools/builtin/read-file';
import { ToolRegistry } from '../../src/tools/registry';

// `tools.confirmationRequired`: the listed tools ask in every mode, yolo included; headless,
// each of their calls fails while the other calls of the same turn still run.
let ws: TempWorkspace;
let policy: PolicyEngine;
beforeEach(async () => {
  ws = createTempWorkspace({ 'a.txt': 'alpha\n' });
  policy = await loadPolicyEngine({
    cwd: ws.root,
    env: { KODO_HOME: ws.root, GEMINI_CLI_HOME: ws.root },
    toolSettings: { confirmationRequired: ['read_file'] },
  });
});
afterEach(() => ws.cleanup());

function scheduler(mode: ApprovalMode, options: { interactive: boolean }) {
  const registry = new ToolRegistry();
  registry.register(readFileTool);
  registry.register(listDirectoryTool);
  const asked: string[] = [];
  const confirm = async (request: ConfirmationRequest) => {
    asked.push(request.call.name);
    return { outcome: 'proceed_once' as const };
  };
  const instance = new Scheduler({
    registry,
    context: ws.ctx,
    policy,
    getApprovalMode: () => mode,
    approvals: options.interactive ? { interactive: true, confirm } : { interactive: false },
  });
  return { instance, asked };
}

const TURN = [
  { callId: 'c1', name: 'read_file', args: { file_path: 'a.txt' }, promptId: 'p' },
  { callId: 'c2', name: 'list_directory', args: { dir_path: '.' }, promptId: 'p' },
];

describe('tools.confirmationRequired', () => {
  for (const mode of ['yolo', 'auto_edit', 'default'] as const) {
    it(`asks for the listed tool in ${mode}, not for the others`, async () => {
      const { instance, asked } = scheduler(mode, { interactive: true });
      const done = await instance.schedule(TURN, new AbortController().signal, () => {});
      expect(asked).toEqual(['read_file']);
      expect(done.map((call) => call.response.status)).toEqual(['success', 'success']);
    });
  }

  it('headless (yolo): the listed call fails with an error result, the other call of the turn runs', async () => {
    const { instance } = scheduler('yolo', { interactive: false });
    const done = await instance.schedule(TURN, new AbortController().signal, () => {});
    expect(done[0]!.response.status).toBe('error');
    expect(done[0]!.response.error).toEqual({
      type: 'unhandled_exception',
      message:
        'Tool execution for "ReadFile" requires user confirmation, which is not supported in non-interactive mode.',
    });
    expect(done[1]!.response.status).toBe('success');
    expect(JSON.stringify(done[1]!.response.responseParts)).toContain('a.txt');
  });
});
