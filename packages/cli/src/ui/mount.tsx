import { render } from 'ink';
import { App, type AppProps } from './app';
import { FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON, notificationPolicy } from './notify';
import { CLEAR_SCREEN, createFrameWriter, type FrameLog } from './terminal/frame-writer';

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
  // The terminal hands kodo the keys before the first frame shows the prompt: Ink switches raw
  // mode on in an effect, after that frame is written, and keys typed in between are echoed under
  // the frame and held until Enter (which then arrives as pasted text, so the line is not sent).
  const rawMode = options.stdin.isTTY === true && typeof options.stdin.setRawMode === 'function';
  if (rawMode) options.stdin.setRawMode(true);
  let frames: FrameLog | undefined;
  try {
    const instance = render(
      <App
        {...props}
        clearScreen={() => {
          options.stdout.write(CLEAR_SCREEN);
          frames?.forget();
        }}
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
        // Frames are diffed against the screen and final text is inserted above the live region
        // (our patch of Ink takes the writer); Ink's own writer redraws the whole region each time.
        createLog: (stdout: NodeJS.WriteStream) => {
          frames = createFrameWriter(stdout);
          return frames;
        },
        // Ink's frame throttle is only a guard: the live turn is coalesced before it reaches React
        // (useAgent), and Ink draws once per burst of updates, so a keystroke is drawn at once
        // instead of waiting up to a frame interval behind the last streamed frame.
        maxFps: 500,
      },
    );
    await instance.waitUntilExit();
  } finally {
    process.off('exit', restore);
    restore();
    if (rawMode) options.stdin.setRawMode(false);
  }
  return sessionId;
}
