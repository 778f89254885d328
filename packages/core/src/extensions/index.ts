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
export {
  type CommandScope,
  type CustomCommand,
  parseMarkdownCommand,
  parseTomlCommand,
} from '../commands/command-file';
export { type CommandDiscovery, discoverCommands } from '../commands/discover';
export {
  CommandExpansionError,
  type ExpandedCommand,
  expandCommand,
  shellEscape,
  splitShellWords,
  type TemplateServices,
  type TemplateShellResult,
} from '../commands/expand';
export { type CommandDir, commandDirs } from '../commands/locations';
export {
  ACTIVATE_SKILL_TOOL,
  activatedSkillText,
  createActivateSkillTool,
  resourceTree,
} from '../skills/activate-skill';
export { discoverSkills, enabledSkills, findSkill, type SkillDir } from '../skills/discover';
export { skillDirs } from '../skills/locations';
export { skillsPromptSection } from '../skills/prompt';
export { parseSkillFile, type SkillDefinition, type SkillScope } from '../skills/skill-file';
export { consentText } from './consent';
export { discoverExtensions, loadExtensionDir } from './discover';
export { ExtensionEnablement } from './enablement';
export type { Extension, InstallMetadata } from './extension';
export {
  contentsOf,
  ExtensionInstallError,
  type InstalledExtension,
  installExtension,
  isGitSource,
  type UpdateOutcome,
  uninstallExtension,
  updateExtension,
} from './install';
export {
  type Extensibility,
  type ExtensibilityOptions,
  ExtensionSelectionError,
  loadExtensibility,
} from './load';
export { type ExtensionLocations, extensionLocations } from './locations';
export type { ExtensionSettingDecl } from './manifest';
export {
  readSettingValues,
  type SettingPlace,
  type SettingScope,
  secretsFile,
  writeSetting,
} from './settings-store';
export { substituteVariables } from './variables';
