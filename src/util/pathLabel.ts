/**
 * How the panel names a file an agent mentions: relative to the workspace folder when it lies
 * inside it (the full path adds nothing there and wraps over two lines in a narrow sidebar), the
 * full path when it lies outside, marked as such, because that is where a user wants to look twice.
 * Pure string work: the webview has no Node `path`.
 */

export interface PathLabel {
  /** What the card shows. */
  label: string;
  /** The path as the agent sent it, for the tooltip. */
  full: string;
  /** Absolute, and not inside the workspace folder (`..` segments resolved first). */
  outside: boolean;
}

const windowsDrive = /^[a-zA-Z]:[\\/]/;

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\\\') || windowsDrive.test(path);
}

/** The path's segments with `.` and `..` resolved, so `/ws/../etc` is not taken for a file in `/ws`. */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

/** Windows paths compare without case, as the file system does. */
function sameSegment(a: string, b: string, windows: boolean): boolean {
  return windows ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export function pathLabel(path: string, workspaceRoot: string | null): PathLabel {
  if (!workspaceRoot || !isAbsolute(path)) return { label: path, full: path, outside: false };
  const windows = windowsDrive.test(workspaceRoot);
  const root = segments(workspaceRoot);
  const own = segments(path);
  const inside = own.length >= root.length && root.every((segment, index) => sameSegment(segment, own[index] ?? '', windows));
  if (!inside) return { label: path, full: path, outside: true };
  const rest = own.slice(root.length);
  // The folder itself: its name says more than an empty label or a dot.
  return { label: rest.length === 0 ? (root.at(-1) ?? path) : rest.join('/'), full: path, outside: false };
}

/**
 * A tool call's title with the workspace folder's prefix taken off its paths ("Edit
 * /home/me/app/src/a.ts" reads "Edit src/a.ts"); other text is left as the agent wrote it.
 */
export function titleWithRelativePaths(title: string, workspaceRoot: string | null): string {
  if (!workspaceRoot) return title;
  const root = workspaceRoot.replace(/[\\/]+$/, '');
  if (root === '') return title;
  let out = '';
  let rest = title;
  for (let at = rest.indexOf(root); at >= 0; at = rest.indexOf(root)) {
    const next = rest[at + root.length];
    // Only the whole folder name, followed by a separator: "/ws" must not eat "/ws2/x".
    const cut = next === '/' || next === '\\' ? root.length + 1 : 0;
    out += rest.slice(0, at) + (cut === 0 ? root : '');
    rest = rest.slice(at + (cut === 0 ? root.length : cut));
  }
  return out + rest;
}
