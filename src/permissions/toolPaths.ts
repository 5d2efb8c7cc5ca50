/**
 * Every path a tool call can touch, read from all of it: agents name paths in many shapes (Claude's
 * and Gemini's `file_path`, Gemini's `paths` list, Codex's `changes` map keyed by path with a
 * `move_path`, apply_patch text, unified diffs, nested objects), and a grant may cover the call
 * only when it covers each one.
 */
import type { ToolCallView } from '../thread/entries';

/** Keys (lower case, without `_` and `-`) whose string or list of strings names a path. */
const pathKeys = new Set([
  'path', 'paths', 'filepath', 'filepaths', 'absolutepath', 'notebookpath', 'dirpath', 'directory', 'dir', 'file', 'files',
  'filename', 'filenames', 'target', 'targetpath', 'targetfile', 'destination', 'dest', 'destinationpath', 'source', 'sourcepath',
  'newpath', 'oldpath', 'movepath', 'moveto', 'renameto', 'cwd', 'workdir', 'workingdirectory',
]);
/** Keys whose object is a map from path to change (Codex's `changes`). */
const pathMapKeys = new Set(['changes', 'files', 'filechanges', 'edits', 'patches']);
/** Keys holding a file's text: what is written, not where; patch headers inside it name nothing. */
const fileTextKeys = new Set(['content', 'contents', 'oldstring', 'newstring', 'newsource', 'text', 'newtext', 'oldtext']);
/** More nesting than any agent sends; deeper input is not read further. */
const MAX_DEPTH = 32;

const keyName = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');
/** A map key that is plainly a path on its own: absolute, `./`, `../`, `~` or a file URI. */
const looksLikePath = (key: string): boolean => /^(\/|[A-Za-z]:[\\/]|\.{1,2}[\\/]|~|file:)/.test(key);

const applyPatchHeader = /^\*\*\* (?:Update File|Add File|Delete File|Move to): (.+)$/gm;
const gitHeader = /^diff --git (\S+) (\S+)$/gm;
const renameHeader = /^(?:rename|copy) (?:from|to) (.+)$/gm;
/** `--- old` directly followed by `+++ new`: a unified diff's file header, not a markdown rule. */
const unifiedHeader = /^--- (.+)\n\+\+\+ (.+)$/gm;

/** A header's path without its timestamp or git's `a/` / `b/` prefix; null for /dev/null. */
function headerPath(raw: string, gitPrefixed: boolean): string | null {
  const path = raw.replace(/\t.*$/, '').trim();
  if (path === '' || path === '/dev/null') return null;
  return gitPrefixed ? path.replace(/^[ab]\//, '') : path;
}

/** The files an apply_patch text or a unified or git diff names in its headers. */
export function patchPaths(text: string): string[] {
  if (!/^(?:\*\*\* |--- |diff --git |rename |copy )/m.test(text)) return [];
  const found: (string | null)[] = [];
  for (const match of text.matchAll(applyPatchHeader)) found.push(headerPath(match[1] ?? '', false));
  for (const match of text.matchAll(gitHeader)) found.push(headerPath(match[1] ?? '', true), headerPath(match[2] ?? '', true));
  for (const match of text.matchAll(renameHeader)) found.push(headerPath(match[1] ?? '', false));
  for (const match of text.matchAll(unifiedHeader)) found.push(headerPath(match[1] ?? '', true), headerPath(match[2] ?? '', true));
  return found.filter((path): path is string => path !== null);
}

function collect(value: unknown, key: string, depth: number, into: Set<string>): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (pathKeys.has(key) && value) into.add(value);
    if (!fileTextKeys.has(key)) for (const path of patchPaths(value)) into.add(path);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, key, depth + 1, into);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const mapOfPaths = pathMapKeys.has(key);
  for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
    if (mapOfPaths || looksLikePath(name)) into.add(name);
    collect(inner, keyName(name), depth + 1, into);
  }
}

/** Every path a tool call names: its locations, its diffs, and anywhere in its raw input and text. */
export function toolPaths(tool: ToolCallView): string[] {
  const paths = new Set<string>();
  for (const location of tool.locations) paths.add(location.path);
  for (const content of tool.content) {
    if (content.type === 'diff') paths.add(content.path);
    if (content.type === 'text') for (const path of patchPaths(content.text)) paths.add(path);
  }
  if (tool.rawInput) {
    let input: unknown = tool.rawInput;
    try {
      input = JSON.parse(tool.rawInput);
    } catch {
      // Raw input that is not JSON is read as text: it may be the patch itself.
    }
    collect(input, '', 0, paths);
  }
  return [...paths];
}
