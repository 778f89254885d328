// The generators of `--fake-responses`, `--record-responses` and `--debug`: one module, loaded
// on demand (see `loadReplayGenerators`), so a run without those flags does not load them.
export { FakeContentGenerator } from './fake';
export { LoggingContentGenerator } from './logging';
export { RecordingContentGenerator } from './recording';
