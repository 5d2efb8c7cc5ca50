import { basename } from 'node:path';
import { inheritedEnvironment } from '../util/inheritedEnvironment';

export interface CommandRequest {
  command: string;
  args: readonly string[];
}

export interface LaunchPlan {
  file: string;
  args: string[];
  /** True when the command line is handed to a shell as one string. */
  viaShell: boolean;
}

/** Shells that accept the POSIX `sh -c` syntax agents write their command lines in. */
const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash']);
/** Characters that mean a command line needs a shell: spaces, quotes, pipes, globs, variables... */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]#~={}!%]/;

/**
 * How to start what an agent asked for. With arguments the command is a program and runs
 * directly; a bare command line like `ls -la | head` needs a shell, the user's own if it
 * speaks POSIX syntax (agents write `sh` syntax), else `/bin/sh`.
 */
export function planLaunch(request: CommandRequest, userShell: string | undefined, platform: NodeJS.Platform = process.platform): LaunchPlan {
  if (request.args.length > 0 || !SHELL_SYNTAX.test(request.command)) {
    return { file: request.command, args: [...request.args], viaShell: false };
  }
  if (platform === 'win32') {
    return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', request.command], viaShell: true };
  }
  const shell = userShell && POSIX_SHELLS.has(basename(userShell)) ? userShell : '/bin/sh';
  return { file: shell, args: ['-c', request.command], viaShell: true };
}

/**
 * What the command sees: the user's environment, settings that make tools behave as in a
 * terminal a person watches (colours on, no pager waiting for a key, no password prompt),
 * then whatever the agent asked for.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv, agentEnv: readonly { name: string; value: string }[]): Record<string, string> {
  const env = inheritedEnvironment(base);
  Object.assign(env, {
    TERM: 'xterm-256color',
    FORCE_COLOR: '1',
    CLICOLOR_FORCE: '1',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
  });
  // The user's "no colour" wish wins over ours; FORCE_COLOR would override it in many tools.
  if (env.NO_COLOR) {
    delete env.FORCE_COLOR;
    delete env.CLICOLOR_FORCE;
  }
  for (const variable of agentEnv) env[variable.name] = variable.value;
  return env;
}

/** The command as a person would type it, for titles and the terminal tab. */
export function displayCommand(request: CommandRequest): string {
  const quote = (word: string) => (word === '' || /[\s"'\\$`]/.test(word) ? `'${word.replace(/'/g, `'\\''`)}'` : word);
  return [request.command, ...request.args.map(quote)].join(' ');
}
