/**
 * The scripted agent (scriptedAgentServer.ts) as a process of its own, on stdio: for the tests
 * whose point is the process (exit codes, stderr, process groups) and for the agent's own
 * `--login` program, which a terminal runs.
 */
import { spawn } from 'node:child_process';
import { runScriptedLogin } from './scenarios/terminalAuth';
import { serveScriptedAgent } from './scriptedAgentServer';

if (process.argv.includes('--login')) runScriptedLogin(process.env);

serveScriptedAgent({ input: process.stdin, output: process.stdout }, {
  env: process.env,
  cwd: process.cwd(),
  invocation: { command: process.execPath, args: [...process.execArgv, process.argv[1] ?? ''] },
  host: {
    log: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
    spawnChild: (command, args) => spawn(command, args, { stdio: 'ignore' }).pid,
  },
});
