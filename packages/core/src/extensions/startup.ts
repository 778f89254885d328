// What a run needs of extensibility on the way to the first request when an earlier run's
// discovery snapshot still holds: reading the snapshot, resolving the extensions, and the
// skills' prompt section and tool declaration. Loaded on its own (loadExtensionsStartupModule),
// so such a run does not load the discovery, parsing and install code of './index'.
import { type ActivateSkillOptions, activateSkillSpec } from '../skills/activate-skill-spec';
import type { LazyTool } from '../tools/tool';
import { readSnapshot, snapshotLocation } from './discovery-snapshot';
import { type Extensibility, type ExtensibilityOptions, finishExtensibility } from './extensibility';
import { loadExtensionsModule } from './lazy';

export { skillsPromptSection } from '../skills/prompt';
export { compatNotesFile, readCompatNotes, recordCompatNotes } from './compat-notes';
export { ExtensionSelectionError } from './extensibility';

/**
 * Everything users bring to a run besides settings: extensions and plugins, then the commands,
 * skills and agents of the user, the project (trusted folders only) and the active extensions.
 * With a build key, what an earlier run found is taken from its snapshot when none of the paths
 * it looked at changed (see discovery-snapshot.ts); only otherwise is the module that reads and
 * parses the files loaded. A bad `-e` name throws ExtensionSelectionError.
 */
export async function loadExtensibility(options: ExtensibilityOptions): Promise<Extensibility> {
  if (options.buildKey) {
    const found = readSnapshot(snapshotLocation({ ...options, buildKey: options.buildKey }));
    if (found) return finishExtensibility(found, options);
  }
  return (await loadExtensionsModule()).discoverExtensibility(options);
}

/** `activate_skill`, declared now; its implementation loads when the model first calls it. */
export function lazyActivateSkillTool(options: ActivateSkillOptions): LazyTool {
  return Object.assign(activateSkillSpec(options), {
    load: async () => (await loadExtensionsModule()).createActivateSkillTool(options),
  });
}
