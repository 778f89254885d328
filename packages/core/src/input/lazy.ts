/** The input module's file readers (see files.ts), imported on demand. */
export type InputFilesModule = typeof import('./files');

export function loadInputFiles(): Promise<InputFilesModule> {
  return import('./files');
}
