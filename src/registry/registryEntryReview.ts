import type { AgentServerSettings } from '../agents/agentConfig';
import type { RegistryAgent } from './registry';
import { SETTINGS } from '../util/ids';

/**
 * What the user is shown before a registry agent joins `tandem.agents`. A registry listing is
 * someone else's text: its command, arguments and environment run on this machine whenever the
 * agent is picked. So the entry is pinned to the version the listing names (a later publish of
 * the package cannot change what runs), shown in full, and every variable that makes programs
 * load code or fetch from elsewhere needs a yes of its own.
 */
export interface RegistryEntryReview {
  /** The entry to write, its package pinned. */
  settings: AgentServerSettings;
  /** Variables that each need their own confirmation, in the listing's order. */
  dangerous: DangerousVariable[];
  /** The confirmation's question. */
  title: string;
  /** The exact command, arguments and environment, as the confirmation shows them. */
  summary: string;
}

export interface DangerousVariable {
  name: string;
  value: string;
  /** What the variable does, to finish "NAME …". */
  reason: string;
}

type Rule = [test: (name: string) => boolean, reason: string];

const named = (...names: string[]) => (name: string) => names.includes(name);
const prefixed = (...prefixes: string[]) => (name: string) => prefixes.some((prefix) => name.startsWith(prefix));

/** Matched upper-cased: Windows reads variable names in any case. */
const RULES: Rule[] = [
  [named('NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE'), 'loads code into every Node.js program'],
  [named('ELECTRON_RUN_AS_NODE'), 'turns Electron programs (VS Code among them) into plain Node.js'],
  [prefixed('LD_', 'DYLD_'), 'loads libraries into every program'],
  [named('PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONBREAKPOINT'), 'loads code into Python programs'],
  [named('PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB'), 'loads code into Perl programs'],
  [named('RUBYOPT', 'RUBYLIB'), 'loads code into Ruby programs'],
  [named('JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH'), 'loads code into Java programs'],
  [(name) => named('BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'PS4')(name) || name.startsWith('BASH_FUNC_'), 'runs commands in every shell'],
  [named('PATH', 'PATHEXT', 'COMSPEC', 'SHELL', 'EDITOR', 'VISUAL', 'PAGER'), 'changes which programs run'],
  [prefixed('GIT_'), 'changes what git runs and reads'],
  [(name) => name.startsWith('NPM_CONFIG_') || name.startsWith('YARN_') || name.startsWith('PIP_') || name.startsWith('UV_'), 'changes where packages are downloaded from and how they install'],
  [named('HOME', 'USERPROFILE', 'APPDATA', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'), 'changes which configuration files programs read'],
  [named('NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'PYTHONHTTPSVERIFY'), 'changes which servers programs trust'],
  [named('HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'), 'sends network traffic through another server'],
];

/** Why `name` needs its own confirmation, or null for an ordinary variable. */
export function dangerousVariableReason(name: string): string | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'is not an ordinary variable name';
  const upper = name.toUpperCase();
  return RULES.find(([test]) => test(upper))?.[1] ?? null;
}

const NPM_SPEC = /^((?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*)(?:@(.*))?$/i;
const PYPI_SPEC = /^([a-z0-9](?:[a-z0-9._-]*[a-z0-9])?(?:\[[a-z0-9._, -]*\])?)\s*(?:(?:==|@)\s*(.*))?$/i;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9a-z.-]+)?(?:\+[0-9a-z.-]+)?$/i;
const PEP440 = /^\d+(?:\.\d+)*(?:[-_.]?(?:a|b|rc|post|dev)\d*)*(?:\+[0-9a-z.]+)?$/i;

type Pinned = { spec: string } | { problem: string };

/** The package's name and the version (or tag, or range) it asks for, if any. */
function parseSpec(kind: 'npx' | 'uvx', spec: string): { name: string; asked: string | undefined } | null {
  const match = (kind === 'npx' ? NPM_SPEC : PYPI_SPEC).exec(spec.trim());
  return match ? { name: match[1] ?? '', asked: match[2]?.trim() } : null;
}

/**
 * `name@1.2.3` (npm) or `name==1.2.3` (PyPI), with the listing's exact version. A spec that
 * names a tag (`latest`), a range, a URL or another version than the listing is refused.
 */
export function pinnedPackage(kind: 'npx' | 'uvx', spec: string, listedVersion: string): Pinned {
  const parsed = parseSpec(kind, spec);
  if (!parsed) return { problem: `its package "${spec}" is not a plain ${kind === 'npx' ? 'npm' : 'PyPI'} package name, so Tandem cannot pin it to a version` };
  const { name, asked } = parsed;
  const exact = kind === 'npx' ? SEMVER : PEP440;
  const listed = listedVersion.trim();
  if (asked !== undefined && !exact.test(asked)) return { problem: `its package asks for "${asked}", not an exact version` };
  if (listed && !exact.test(listed)) return { problem: `the registry lists "${listed}", not an exact version` };
  if (asked !== undefined && listed && asked !== listed) return { problem: `its package asks for version ${asked} while the registry lists ${listed}` };
  const version = listed || asked;
  if (!version) return { problem: 'the registry names no version to pin it to' };
  return { spec: kind === 'npx' ? `${name}@${version}` : `${name}==${version}` };
}

/** The package argument of an npx or uvx entry, pinned; binary entries run what the user installed. */
function pinnedSettings(agent: RegistryAgent, settings: AgentServerSettings): { settings: AgentServerSettings } | { problem: string } {
  const kind = settings.command === 'npx' && agent.npx ? 'npx' : settings.command === 'uvx' && agent.uvx ? 'uvx' : null;
  const distribution = kind === 'npx' ? agent.npx : kind === 'uvx' ? agent.uvx : null;
  if (!kind || !distribution) return { settings };
  const pinned = pinnedPackage(kind, distribution.package, agent.version);
  if ('problem' in pinned) return pinned;
  const name = parseSpec(kind, distribution.package)?.name.toLowerCase();
  const args = settings.args ?? [];
  const index = args.findIndex((arg) => !arg.startsWith('-') && parseSpec(kind, arg)?.name.toLowerCase() === name);
  if (index < 0) return { problem: `its entry does not run the package ${distribution.package}` };
  return { settings: { ...settings, args: args.map((arg, i) => (i === index ? pinned.spec : arg)) } };
}

/** The entry as it will be written and what the user must confirm, or why it cannot be added. */
export function reviewRegistryEntry(agent: RegistryAgent, settings: AgentServerSettings): RegistryEntryReview | { problem: string } {
  const pinned = pinnedSettings(agent, settings);
  if ('problem' in pinned) return pinned;
  const env = pinned.settings.env ?? {};
  const dangerous = Object.entries(env).flatMap(([name, value]) => {
    const reason = dangerousVariableReason(name);
    return reason ? [{ name, value, reason }] : [];
  });
  const flagged = new Set(dangerous.map((variable) => variable.name));
  const environment = Object.entries(env).map(([name, value]) => `  ${shown(name)}=${shown(value)}${flagged.has(name) ? '   (asked separately)' : ''}`);
  const summary = [
    `${agent.name} (${agent.id}${agent.version ? `, version ${agent.version}` : ''}) is added to ${SETTINGS.agents} in your user settings. Each time you pick it, Tandem runs:`,
    '',
    `Command: ${shown(pinned.settings.command ?? '')}`,
    `Arguments: ${(pinned.settings.args ?? []).map(shown).join(' ') || '(none)'}`,
    environment.length > 0 ? `Environment:\n${environment.join('\n')}` : 'Environment: nothing beyond your own',
  ].join('\n');
  return { settings: pinned.settings, dangerous, title: `Add ${agent.name} from the ACP registry?`, summary };
}

/** The separate question for one dangerous variable. */
export function variableQuestion(agentName: string, variable: DangerousVariable): { message: string; detail: string } {
  return {
    message: `Let ${agentName} set ${variable.name}?`,
    detail: `${shown(variable.name)}=${shown(variable.value)}\n\n${variable.name} ${variable.reason}: a registry entry can use it to run code of its choice on your machine. Keep it only if you know why this agent needs it.`,
  };
}

/** The entry without the variables the user left out. */
export function withoutVariables(settings: AgentServerSettings, names: readonly string[]): AgentServerSettings {
  if (names.length === 0 || !settings.env) return settings;
  return { ...settings, env: Object.fromEntries(Object.entries(settings.env).filter(([name]) => !names.includes(name))) };
}

/**
 * Text as it is, when it is plain; otherwise quoted with every character outside printable ASCII
 * escaped, so a newline, a right-to-left mark or a lookalike cannot make the shown text differ
 * from what runs.
 */
export function shown(text: string): string {
  if (/^[A-Za-z0-9@%+=:,./_-]+$/.test(text)) return text;
  let quoted = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') quoted += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) quoted += char;
    else quoted += `\\u{${code.toString(16)}}`;
  }
  return `${quoted}"`;
}
