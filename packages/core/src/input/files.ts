// What reads the workspace for a prompt (`@path`, images, the file listing), loaded on demand
// with `loadInputFiles()`: its file-system imports are not on the way to a plain prompt's request.
export { type ExpandedPrompt, expandAtReferences, findAtReferences } from './at-references';
export { FileIndex } from './file-index';
export { ignoredPathCheck } from './ignored-paths';
export { findPastedImagePaths, imageMimeType } from './image-references';
