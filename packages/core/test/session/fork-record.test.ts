// `/fork`: a new session from here, under its own record; the old session's record stays as it
// was, and the fork can be resumed even when it is left before its first prompt.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/session/store';
import { text } from '../helpers';
import { capturingGenerator, makeSession, tempProject } from './store-helpers';

describe('Session.fork with its own recorder', () => {
  it('records the inherited history at once and leaves the parent record alone', async () => {
    const project = tempProject();
    try {
      const store = new SessionStore({ projectRoot: project.root, dir: project.sessionsDir });
      const parentRecorder = store.newRecorder({ sessionId: 'parent-0001' });
      const parent = makeSession(project.root, capturingGenerator([[text('first answer')]]), {
        sessionId: 'parent-0001',
        recorder: parentRecorder,
      });
      const events = parent.sendMessage('first prompt', new AbortController().signal);
      while (!(await events.next()).done) {}
      const parentBefore = readFileSync(parentRecorder.file, 'utf8');
      parent.setEffort('low');

      const fork = parent.fork({
        sessionId: 'fork-0002',
        recorder: store.newRecorder({ sessionId: 'fork-0002' }),
      });
      expect(fork.id).toBe('fork-0002');
      // The effort /effort chose goes with the fork.
      expect(fork.effort).toBe('low');
      expect(fork.history()).toEqual(parent.history());

      const forked = store.findById('fork-0002');
      expect(forked).toBeDefined();
      const { loaded } = await store.resume(forked!);
      expect(JSON.stringify(loaded.history)).toContain('first prompt');
      expect(JSON.stringify(loaded.history)).toContain('first answer');
      expect(readFileSync(parentRecorder.file, 'utf8')).toBe(parentBefore);
      expect(store.findById('parent-0001')).toBeDefined();
    } finally {
      project.cleanup();
    }
  });
});
