import type { AskUserQuestion } from '@kodo/core/engine';

export interface PendingQuestions {
  /** Distinct for each ask_user call (a fresh dialog each time). */
  id: number;
  /** Every question of one `ask_user` call, shown together in the dialog. */
  questions: readonly AskUserQuestion[];
  /** The answers by question index (`"0"`, `"1"`…); undefined dismisses them all. */
  answer(answers: Record<string, string> | undefined): void;
}

/**
 * `ask_user` in the UI: one call's questions wait here until the question dialog answers them
 * (components/question-dialog.tsx). A cancelled turn dismisses them.
 */
export class QuestionBridge {
  private pending: PendingQuestions | undefined;
  private asked = 0;
  private readonly listeners = new Set<() => void>();

  readonly handler = (
    questions: readonly AskUserQuestion[],
    signal: AbortSignal,
  ): Promise<Record<string, string> | undefined> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      let settled = false;
      const finish = (answers: Record<string, string> | undefined) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        this.pending = undefined;
        this.notify();
        resolve(answers);
      };
      const onAbort = () => finish(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      this.asked += 1;
      this.pending = { id: this.asked, questions, answer: finish };
      this.notify();
    });

  current(): PendingQuestions | undefined {
    return this.pending;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
