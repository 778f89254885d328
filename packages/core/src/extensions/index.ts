// Discovery and parsing of what users bring: commands, skills, agents, extensions and plugins.
// Loaded on demand (see `loadExtensionsModule`): nothing here is on the path to the first request
// when no such files exist.
export { AgentAcknowledgements, agentFileHash, type PendingAgent } from '../agents/acknowledgements';
export { type AgentFileResult, type AgentFileSource, parseAgentFile } from '../agents/agent-file';
export { BUILTIN_AGENTS } from '../agents/builtin';
export { mapModelName, mapToolName } from '../agents/claude-tools';
export { type AgentDefinition, type AgentScope, DEFAULT_AGENT_LIMITS } from '../agents/definition';
export { type AgentDiscovery, discoverAgents } from '../agents/discover';
export { type AgentDir, agentDirs } from '../agents/locations';
export {
  acknowledgeProjectAgents,
  type ProjectAgentStatus,
  projectAgentStatus,
} from '../agents/project-agents';
export { agentsPromptSection } from '../agents/prompt';
export { parseMarkdownCommand, parseTomlCommand } from '../commands/command-file';
export type { CommandScope, CustomCommand } from '../commands/definition';
export { type CommandDiscovery, discoverCommands } from '../commands/discover';
export {
  CommandExpansionError,
  type ExpandedCommand,
  expandCommand,
  splitShellWords,
  type TemplateServices,
  type TemplateShellResult,
} from '../commands/expand';
export { type CommandDir, commandDirs } from '../commands/locations';
export { activatedSkillText, createActivateSkillTool, resourceTree } from '../skills/activate-skill';
export { ACTIVATE_SKILL_TOOL } from '../skills/activate-skill-spec';
export type { SkillDefinition, SkillScope } from '../skills/definition';
export { discoverSkills, type SkillDir } from '../skills/discover';
export { enabledSkills, findSkill } from '../skills/enabled';
export { skillDirs } from '../skills/locations';
export { skillsPromptSection } from '../skills/prompt';
export { parseSkillFile } from '../skills/skill-file';
export { compatNotesFile, readCompatNotes, recordCompatNotes } from './compat-notes';
export { consentText } from './consent';
export { discoverExtensions, loadExtensionDir } from './discover';
export { ExtensionEnablement } from './enablement';
export type { Extensibility, ExtensibilityOptions } from './extensibility';
export { ExtensionSelectionError } from './extensibility';
export type { Extension, ExtensionFiles, InstallMetadata } from './extension';
export {
  contentsOf,
  ExtensionInstallError,
  type InstalledExtension,
  installExtension,
  isGitSource,
  pluginAgentNotes,
  type UpdateOutcome,
  uninstallExtension,
  updateExtension,
} from './install';
export { discoverExtensibility } from './load';
export { type ExtensionLocations, extensionLocations } from './locations';
export type { ExtensionSettingDecl } from './manifest';
export {
  readSettingValues,
  type SettingPlace,
  type SettingScope,
  secretsFile,
  writeSetting,
} from './settings-store';
export { loadExtensibility } from './startup';
export { substituteVariables } from './variables';
