import { lstatSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { resolveAgentPath } from './pathBoundary';

/**
 * Files that decide what gets executed: a tool the user runs (git, VS Code, an agent, a package
 * manager, the shell, CI) executes them, or reads from them which program to run, as a side effect
 * of something that does not look like running the project's code (opening the folder, a commit,
 * an install, starting a session, a push). One edit to such a file is a command the user never
 * saw, so Tandem never lets a remembered answer cover it.
 *
 * Left out on purpose: files that only run when the user runs the project's own code (Makefile,
 * scripts, setup.py, build.rs): that is running the project, and a change to them is reviewed like
 * any source; `.vscode/extensions.json` (it recommends extensions, installing one needs a click);
 * instruction files such as CLAUDE.md or AGENTS.md (text the agent reads, not a program it runs).
 *
 * Every rule applies at any depth: a workspace folder can hold several repositories or packages,
 * and a nested folder can be opened on its own, so `.git` or `package.json` anywhere is in effect.
 */
interface ExecutionControlRule {
  /**
   * Path segments, lower case; `*` inside a segment matches any characters, `{a,b}` one of the
   * alternatives (an empty one too), a last segment `**` the folder and all below it.
   */
  pattern: string;
  /** Why editing it runs something, as the permission card says it. */
  reason: string;
}

const rules: readonly ExecutionControlRule[] = [
  // git runs hooks from .git/hooks and programs named in .git/config (core.fsmonitor,
  // core.sshCommand, core.pager, filters, aliases); a `.git` file redirects to another git dir.
  { pattern: '.git/**', reason: 'git runs hooks and commands configured here' },
  // Selects the filter, diff and merge drivers git runs for matching files.
  { pattern: '.gitattributes', reason: 'it chooses the filters and drivers git runs' },
  // Submodule URLs and paths that `git submodule update` clones and checks out.
  { pattern: '.gitmodules', reason: 'git fetches and checks out what it names' },
  // Husky points core.hooksPath here: these run at every commit and push.
  { pattern: '.husky/**', reason: 'git runs these hooks at commits and pushes' },
  { pattern: '.pre-commit-config.yaml', reason: 'pre-commit runs the hooks it lists at every commit' },
  // VS Code runs tasks (some on folder open), launch configurations, MCP servers, and the
  // programs settings point at (terminal shells and env, interpreters, Tandem's own agents).
  { pattern: '.vscode/settings.json', reason: 'VS Code and its extensions read from it which programs to run' },
  { pattern: '.vscode/tasks.json', reason: 'VS Code runs its tasks, some when the folder opens' },
  { pattern: '.vscode/launch.json', reason: 'VS Code runs what it describes when debugging' },
  { pattern: '.vscode/mcp.json', reason: 'it names MCP servers that editors and agents start' },
  { pattern: '*.code-workspace', reason: 'it carries VS Code settings, tasks and launch configurations' },
  // initializeCommand runs on the user's machine when the folder is reopened in a container.
  { pattern: '.devcontainer/**', reason: 'VS Code runs its commands when opening the container' },
  { pattern: '.devcontainer.json', reason: 'VS Code runs its commands when opening the container' },
  // Agents' own configuration: hooks, MCP servers, allowed tools, commands with shell steps.
  { pattern: '.claude/**', reason: 'Claude Code runs the hooks, servers and commands configured here' },
  { pattern: '.mcp.json', reason: 'it names MCP servers that agents start' },
  { pattern: '.gemini/**', reason: 'Gemini CLI runs the hooks, servers and commands configured here' },
  { pattern: '.codex/**', reason: 'Codex runs the servers and follows the approval settings configured here' },
  { pattern: '.cursor/**', reason: 'Cursor runs the MCP servers and follows the rules configured here' },
  // CI runs these on a push, with the repository's secrets.
  { pattern: '.github/workflows/**', reason: 'CI runs it on a push, with the repository\'s secrets' },
  { pattern: '.github/actions/**', reason: 'CI runs it on a push, with the repository\'s secrets' },
  { pattern: '.gitlab-ci.yml', reason: 'CI runs it on a push, with the repository\'s secrets' },
  { pattern: '.circleci/**', reason: 'CI runs it on a push, with the repository\'s secrets' },
  // Package managers run lifecycle scripts (preinstall, postinstall, prepare) at every install,
  // and read from their rc files which shell, node options or yarn binary to run.
  { pattern: 'package.json', reason: 'npm runs its install scripts' },
  { pattern: '.npmrc', reason: 'it sets the shell and options npm runs scripts with' },
  { pattern: '.yarnrc*', reason: 'it names the program yarn runs' },
  { pattern: '.yarn/releases/**', reason: 'yarn runs it' },
  { pattern: '.yarn/plugins/**', reason: 'yarn runs it' },
  { pattern: '.pnpmfile.cjs', reason: 'pnpm runs it at every install' },
  // Commit tooling runs the commands these name (or, for JavaScript ones, the file itself) at every commit.
  { pattern: '{,.}lefthook{,-local}.{yml,yaml,json,jsonc,toml}', reason: 'lefthook runs the commands it lists at commits and pushes' },
  { pattern: '.lintstagedrc*', reason: 'lint-staged runs the commands it lists at every commit' },
  { pattern: 'lint-staged.config.{js,mjs,cjs,ts,mts,cts}', reason: 'lint-staged runs it at every commit' },
  { pattern: 'commitlint.config.{js,mjs,cjs,ts,mts,cts}', reason: 'commitlint runs it at every commit' },
  { pattern: '.commitlintrc.{js,mjs,cjs,ts,mts,cts}', reason: 'commitlint runs it at every commit' },
  // Editors run linters and formatters on open and save: configurations written in JavaScript run then.
  { pattern: 'eslint.config.{js,mjs,cjs,ts,mts,cts}', reason: 'ESLint runs it whenever the editor lints a file' },
  { pattern: '.eslintrc.{js,cjs}', reason: 'ESLint runs it whenever the editor lints a file' },
  { pattern: 'prettier.config.{js,mjs,cjs,ts,mts,cts}', reason: 'Prettier runs it whenever the editor formats a file' },
  { pattern: '.prettierrc.{js,mjs,cjs,ts,mts,cts}', reason: 'Prettier runs it whenever the editor formats a file' },
  // mise runs its hooks, env scripts and tasks when a shell enters the folder.
  { pattern: '{,.}mise{,.*}.toml', reason: 'mise runs the hooks and scripts it names when a shell enters the folder' },
  { pattern: '{,.}mise/config{,.*}.toml', reason: 'mise runs the hooks and scripts it names when a shell enters the folder' },
  { pattern: '.config/mise/**', reason: 'mise runs the hooks and scripts it names when a shell enters the folder' },
  { pattern: '.config/mise.toml', reason: 'mise runs the hooks and scripts it names when a shell enters the folder' },
  // direnv runs it whenever a shell enters the folder.
  { pattern: '.envrc', reason: 'direnv runs it when a shell enters the folder' },
  // A workspace can be the home folder: shells run these at start, ssh and git read programs from them.
  { pattern: '.bashrc', reason: 'shells run it at start' },
  { pattern: '.bash_profile', reason: 'shells run it at start' },
  { pattern: '.profile', reason: 'shells run it at start' },
  { pattern: '.zshrc', reason: 'shells run it at start' },
  { pattern: '.zshenv', reason: 'shells run it at start' },
  { pattern: '.zprofile', reason: 'shells run it at start' },
  { pattern: '.config/fish/**', reason: 'shells run it at start' },
  { pattern: '.gitconfig', reason: 'git runs the commands configured here' },
  { pattern: '.config/git/**', reason: 'git runs the commands configured here' },
  { pattern: '.ssh/**', reason: 'ssh runs the commands and trusts the keys configured here' },
];

const escaped = (text: string): string => text.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
const globToRegex = (segment: string): RegExp =>
  new RegExp(`^${segment.split(/(\{[^}]*\})/).map((part) => (part.startsWith('{') ? `(?:${part.slice(1, -1).split(',').map(escaped).join('|')})` : escaped(part))).join('')}$`);
const compiled = rules.map((rule) => ({ ...rule, segments: rule.pattern.split('/').map((segment) => (segment === '**' ? null : globToRegex(segment))) }));

/** Code points HFS+ ignores in names, so `.g\u200cit` is `.git` there. */
const ignorable = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * The name a file system may really give a segment: case-insensitive volumes ignore case, HFS+
 * ignorable code points, NTFS trailing dots and spaces, and `name::$DATA` is the file itself (git
 * guards the same spellings of `.git`). Matching more spellings only means asking more.
 */
function normalizeSegment(segment: string): string {
  return segment.normalize('NFC').replace(ignorable, '').toLowerCase().replace(/:.*$/, '').replace(/[. ]+$/, '');
}

/** An 8.3 short name (`GIT~1`) can name `.git` or any other dotted folder on Windows. */
const shortName = /^[^.~]{1,6}~\d/;

function matchesAt(segments: readonly string[], start: number, pattern: readonly (RegExp | null)[]): boolean {
  let index = start;
  for (const part of pattern) {
    // A trailing `**` matches the folder itself and everything below it.
    if (part === null) return true;
    const segment = segments[index];
    if (segment === undefined || !part.test(segment)) return false;
    index++;
  }
  return index === segments.length;
}

function reasonForSegments(segments: readonly string[]): string | null {
  if (segments.some((segment) => shortName.test(segment))) return 'its name may be a Windows short name for a protected folder';
  for (let start = 0; start < segments.length; start++) {
    const rule = compiled.find((candidate) => matchesAt(segments, start, candidate.segments));
    if (rule) return rule.reason;
  }
  return null;
}

/** The segments of `path` below the first root that holds it; every segment when no root does. */
function segmentsBelowRoots(path: string, roots: readonly string[]): string[] {
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return rel.split(sep).filter(Boolean);
  }
  return path.split(sep).filter(Boolean);
}

/**
 * Paths a shell would rewrite (`~`, `$HOME`, `${VAR}`, `%VAR%`, `$(…)`, backticks): where they
 * point is only known once expanded, so they never count as inside the workspace.
 */
export function hasShellExpansion(path: string): boolean {
  return /^~|\$[A-Za-z_{(]|%[A-Za-z_][A-Za-z0-9_]*%|`/.test(path);
}

/** A file with more than one name: another of its names may be a hook, and nothing shows which. */
function isHardLinked(realPath: string): boolean {
  try {
    const stats = lstatSync(realPath);
    return stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

/**
 * Why `path` controls what runs, or null when it does not. Both the path as named (relative
 * paths against the first root) and where its symlinks lead are checked: a link to `.git/config`
 * is `.git/config`. A hard-linked file counts too: its other name may be `.git/hooks/pre-commit`.
 */
export function executionControlReason(path: string, roots: readonly string[]): string | null {
  const { path: absolute, realPath } = resolveAgentPath(path, roots[0] ?? sep, roots);
  const realRoots = roots.map((root) => resolveAgentPath(root, sep, []).realPath);
  for (const [candidate, candidateRoots] of [[absolute, roots], [realPath, realRoots]] as const) {
    const reason = reasonForSegments(segmentsBelowRoots(candidate, candidateRoots).map(normalizeSegment));
    if (reason) return reason;
  }
  return isHardLinked(realPath) ? 'it is hard-linked: another of its names may be a file that runs things' : null;
}
