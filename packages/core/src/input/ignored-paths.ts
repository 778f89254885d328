import type { FileFiltering } from '../tools/file-filtering';
import { fileFilteringOf, ignoreFilterOptions } from '../tools/file-filtering';
import { IgnoreFilter } from '../tools/ignore-filter';
import { isInside, type Workspace } from '../tools/workspace';

/**
 * What `read_file` refuses, for `@path`: a path the workspace root's ignore files exclude (the
 * same filter and settings). A line may come from a pipe or an editor, so attaching a file the
 * project marked off limits (`.env` secrets…) would hand it to the model unasked.
 */
export function ignoredPathCheck(
  workspace: Workspace,
  fileFiltering: Partial<FileFiltering> | undefined,
): (absolutePath: string) => boolean {
  const filters = new Map<string, IgnoreFilter>();
  return (absolutePath) => {
    const root = workspace.roots.find((candidate) => isInside(candidate, absolutePath));
    if (root === undefined) return false;
    let filter = filters.get(root);
    if (!filter) {
      filter = new IgnoreFilter(
        ignoreFilterOptions(root, fileFilteringOf({ ...(fileFiltering ? { fileFiltering } : {}) })),
      );
      filters.set(root, filter);
    }
    return filter.isIgnored(absolutePath, false);
  };
}
