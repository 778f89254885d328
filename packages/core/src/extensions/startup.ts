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

/** What an earlier run found, if its snapshot still holds (see discovery-snapshot.ts). */
export function extensibilityFromSnapshot(
  options: ExtensibilityOptions & { buildKey: string },
): Extensibility | undefined {
  const found = readSnapshot(snapshotLocation(options));
  return found ? finishExtensibility(found, options) : undefined;
}

/** `activate_skill`, declared now; its implementation loads when the model first calls it. */
export function lazyActivateSkillTool(options: ActivateSkillOptions): LazyTool {
  return Object.assign(activateSkillSpec(options), {
    load: async () => (await loadExtensionsModule()).createActivateSkillTool(options),
  });
}
