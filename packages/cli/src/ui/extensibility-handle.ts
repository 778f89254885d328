import { type Extensibility, type LoadedSettings, loadRuntimeExtensibility } from '@kodo/core/engine';
import type { CliArgs } from '../args';
import { folderTrustStatus, isFolderTrusted, trustFolderAgain } from '../trust-gate';
import { KODO_BUILD_KEY } from '../version';
import type { ExtensibilityHandle } from './commands/extension-commands';

/**
 * The UI's hold on the run's commands, skills and agents: a reload discovers again with the
 * folder's trust as it is now, so a trusted project whose files changed since has its own held
 * back — and says so (`heldBack`), with `trustAgain` to trust it as it is now.
 */
export function extensibilityHandle(
  loaded: Extensibility | undefined,
  context: { args: CliArgs; settings: LoadedSettings; cwd: string; env: NodeJS.ProcessEnv },
): ExtensibilityHandle {
  const { cwd, env, args } = context;
  const place = { cwd, env, args, settings: context.settings.merged };
  const handle: ExtensibilityHandle = {
    loaded,
    async reload() {
      const warnings: string[] = [];
      const fresh = await loadRuntimeExtensibility({
        extensions: args.extensions,
        ...(KODO_BUILD_KEY ? { buildKey: KODO_BUILD_KEY } : {}),
        settings: context.settings.merged,
        ...(context.settings.scopes ? { settingsScopes: context.settings.scopes } : {}),
        cwd,
        env,
        trusted: isFolderTrusted(place),
        onWarning: (message) => warnings.push(message),
      });
      // In place: the activate_skill tool and the system prompt hold this object.
      if (handle.loaded && fresh) Object.assign(handle.loaded, fresh.loaded);
      else handle.loaded = fresh?.loaded;
      return warnings;
    },
    heldBack() {
      const status = folderTrustStatus(place);
      if (status.state !== 'changed') return undefined;
      return status.reason ? { reason: status.reason } : {};
    },
    trustAgain: () => trustFolderAgain(cwd, env),
  };
  return handle;
}
