import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveAgentPath } from '../files/pathBoundary';

/**
 * What a link the user clicked in the panel may open. Agent text is untrusted, so only two kinds
 * of link open: web pages (the editor asks before leaving for an untrusted domain) and files
 * inside the workspace folders. A UNC path or a `file://host/` link would make the system reach
 * a remote machine (leaking the user's credentials on Windows), and a file outside the workspace
 * is not the agent's to show, so those are refused like any other scheme.
 */
export type LinkTarget =
  | { kind: 'web'; url: string }
  /** `line` is 1-based; null opens the file at its top. */
  | { kind: 'file'; path: string; line: number | null }
  | { kind: 'refused'; reason: string };

export interface LinkWorkspace {
  /** Relative links resolve against it (the first workspace folder); null when none is open. */
  root: string | null;
  /** Every workspace folder: a file opens only inside one of them. */
  folders: readonly string[];
}

const WEB_SCHEME = /^https?:/i;
const FILE_SCHEME = /^file:/i;
const ANY_SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** `C:\x`, `C:/x` and `C:x` name Windows drives, not a scheme `c:`. */
const DRIVE = /^[a-z]:/i;
/** `//host/share`, `\\host\share` and mixes: a network share (or a Windows device path). */
const SHARE = /^[\\/]{2}/;
/** What the webview appends to file links: `#L12`, or a range `#L12-L20` / `#L12-20`. */
const LINE_SUFFIX = /#L(\d+)(?:-L?\d+)?$/;

const refused = (reason: string): LinkTarget => ({ kind: 'refused', reason });

/** A newline or NUL could make the shown link differ from the opened one. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function linkTarget(href: string, workspace: LinkWorkspace): LinkTarget {
  const text = href.trim();
  if (!text) return refused('the link is empty');
  if (hasControlCharacters(text)) return refused('it contains control characters');
  if (WEB_SCHEME.test(text)) return webLink(text);
  if (SHARE.test(text)) return refused('it names a network share');
  if (FILE_SCHEME.test(text)) return fileUriLink(text, workspace);
  const scheme = ANY_SCHEME.exec(text);
  if (scheme && !DRIVE.test(text)) return refused(`only web (http, https) links and files in the workspace open from the panel, not ${scheme[1]?.toLowerCase()}: links`);
  const line = LINE_SUFFIX.exec(text);
  return workspaceFile(line ? text.slice(0, line.index) : text, lineOf(line), workspace);
}

/** The one sentence the user is shown for a refused link. */
export function refusalMessage(href: string, reason: string): string {
  const shown = href.trim().length > 120 ? `${href.trim().slice(0, 120)}…` : href.trim();
  return `Tandem did not open the link ${JSON.stringify(shown)}: ${reason}.`;
}

function webLink(text: string): LinkTarget {
  try {
    const url = new URL(text);
    return url.hostname ? { kind: 'web', url: url.href } : refused('it has no host');
  } catch {
    return refused('it is not a valid web address');
  }
}

function fileUriLink(text: string, workspace: LinkWorkspace): LinkTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('it is not a valid file link');
  }
  if (url.hostname && url.hostname !== 'localhost') return refused(`it names a file on another machine (${url.hostname})`);
  let path: string;
  try {
    // Rebuilt without the host, which on Windows would turn the path into a UNC share.
    path = fileURLToPath(`file://${url.pathname}`);
  } catch {
    return refused('it is not a valid file link');
  }
  if (hasControlCharacters(path)) return refused('it contains control characters');
  return workspaceFile(path, lineOf(LINE_SUFFIX.exec(url.hash)), workspace);
}

/** Relative paths resolve against the workspace root; any path must land in a folder, symlinks followed. */
function workspaceFile(path: string, line: number | null, workspace: LinkWorkspace): LinkTarget {
  if (!path) return refused('the link names no file');
  if (DRIVE.test(path) && !isAbsolute(path)) return refused('it is not a path on this system');
  if (workspace.folders.length === 0) return refused('no workspace folder is open, and only files inside one open from the panel');
  if (!isAbsolute(path) && !workspace.root) return refused('it is a relative path and no workspace folder is open');
  const resolved = resolveAgentPath(path, workspace.root ?? workspace.folders[0] ?? '', workspace.folders);
  if (!resolved.inside) return refused('it is outside the workspace folders');
  return { kind: 'file', path: resolved.path, line };
}

function lineOf(match: RegExpExecArray | null): number | null {
  return match ? Math.max(1, Number(match[1])) : null;
}
