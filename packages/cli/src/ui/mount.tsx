import { render } from 'ink';
import { App, type AppProps } from './app';
import { FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON, notificationPolicy } from './notify';

/** Bracketed paste: the terminal marks pasted text, so its newlines are not taken as Enter. */
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

export interface MountOptions {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
  /** Route console output above the UI (default); tests whose runner owns the console turn it off. */
  patchConsole?: boolean;
}

/** Renders the App until the person leaves; resolves to the id of the last session. */
export async function mountApp(
  props: Omit<AppProps, 'onExit' | 'onSession'>,
  options: MountOptions,
): Promise<string> {
  let sessionId = props.session.id;
  // Focus reports tell the notifications whether the person is looking at the terminal.
  const focus = notificationPolicy(props.settings.merged, props.env).enabled;
  options.stdout.write(focus ? PASTE_ON + FOCUS_REPORTING_ON : PASTE_ON);
  const restore = () => options.stdout.write(focus ? PASTE_OFF + FOCUS_REPORTING_OFF : PASTE_OFF);
  process.once('exit', restore);
  const instance = render(
    <App
      {...props}
      onSession={(id) => {
        sessionId = id;
      }}
      onExit={(id) => {
        sessionId = id;
      }}
    />,
    {
      stdout: options.stdout,
      stdin: options.stdin,
      stderr: options.stderr,
      exitOnCtrlC: false,
      patchConsole: options.patchConsole ?? true,
      // Ink's line-diffing mode leaves stale lines behind when static output is written (6.8);
      // the live region is kept a few lines tall instead, so full repaints of it stay small.
      incrementalRendering: false,
      // 60 frames a second at most: a keystroke is drawn within ~17 ms even while an answer streams.
      maxFps: 60,
    },
  );
  try {
    await instance.waitUntilExit();
  } finally {
    process.off('exit', restore);
    restore();
  }
  return sessionId;
}
