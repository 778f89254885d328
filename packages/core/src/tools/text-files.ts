/**
 * Where the file tools read and write text, when not the local disk: a front end that drives an
 * editor (the ACP agent) supplies one that goes through the editor for the paths it handles, so
 * tools see its unsaved buffers and their writes join its undo history. Paths reach it only after
 * the workspace checks (`Workspace.resolvePath`), which stay the tools' job.
 */
import type { ExistingText, LineEnding, TextEncodingName } from './file-text';

export interface TextFileFormat {
  encoding: TextEncodingName;
  lineEnding: LineEnding;
  /** The file's text as read: the write keeps every byte outside the edited span (`textWithLineEndings`). */
  originalRaw?: string;
}

export interface TextFileAccess {
  /** Whether this access serves the path; the others stay on the local disk. */
  handles(abs: string): boolean;
  /** The file's text (LF-normalised), or undefined when there is no such file. */
  read(abs: string): Promise<ExistingText | undefined>;
  /** Writes LF-normalised text in the given format, creating parent directories. */
  write(abs: string, text: string, format: TextFileFormat): Promise<void>;
}
