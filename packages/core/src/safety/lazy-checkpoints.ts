/** Checkpointing (the shadow git store), loaded only when `general.checkpointing` is on. */
export type Checkpointing = typeof import('./checkpoints');

export function loadCheckpointing(): Promise<Checkpointing> {
  return import('./checkpoints');
}
