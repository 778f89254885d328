// What a run needs of extensibility on the way to the first request: discovery, the skills'
// prompt section and tool declaration. Loaded on its own (loadExtensionsStartupModule in
// on-demand.ts), so a run does not load the install and management code of './index' (about
// two thirds of it, which Node 20 would parse on every run that finds a skill or an extension).

import { loadExtensionsModule } from '../on-demand';
import { type ActivateSkillOptions, activateSkillSpec } from '../skills/activate-skill-spec';
import type { LazyTool } from '../tools/tool';
import type { Extensibility, ExtensibilityOptions } from './extensibility';
import { discoverExtensibility } from './load';

export { skillsPromptSection } from '../skills/prompt';
export { compatNotesFile, readCompatNotes, recordCompatNotes } from './compat-notes';
export { ExtensionSelectionError } from './extensibility';

/**
 * Everything users bring to a run besides settings: extensions and plugins, then the commands,
 * skills and agents of the user, the project (trusted folders only) and the active extensions,
 * read from the files on every run (see load.ts). A bad `-e` name throws ExtensionSelectionError.
 */
export async function loadExtensibility(options: ExtensibilityOptions): Promise<Extensibility> {
  return discoverExtensibility(options);
}

/** `activate_skill`, declared now; its implementation loads when the model first calls it. */
export function lazyActivateSkillTool(options: ActivateSkillOptions): LazyTool {
  return Object.assign(activateSkillSpec(options), {
    load: async () => (await loadExtensionsModule()).createActivateSkillTool(options),
  });
}
