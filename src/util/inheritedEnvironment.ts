/**
 * Variables the editor's own processes carry that would change how the programs Tandem starts
 * behave (ELECTRON_RUN_AS_NODE turns `code` into plain Node, VSCODE_IPC_HOOK points at the
 * editor's own sockets); VS Code's terminal drops them too.
 */
const EDITOR_INTERNAL = /^(ELECTRON_.+|VSCODE_(?!PORTABLE$|SHELL_LOGIN$).+|APPLICATION_INSIGHTS_.+)$/;

/**
 * The environment a program Tandem starts (an agent, an agent's command) inherits: the user's,
 * as the editor received it, without the editor's internal variables. What the user or the
 * agent set explicitly is added on top by the caller.
 */
export function inheritedEnvironment(base: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && !EDITOR_INTERNAL.test(name)) env[name] = value;
  return env;
}
