// Starts a real VS Code (code-server, installed by scripts/install-code-server.sh into .tools/)
// on 127.0.0.1 for end-to-end tests, with throwaway user-data and extensions dirs.
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, openSync, closeSync, writeFileSync, mkdirSync, rmSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { installVsix } from "./vsixInstall";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Keep both versions in sync with scripts/install-code-server.sh, which installs them.
const NODE_VERSION = "24.22.3";
const CODE_SERVER_VERSION = "4.139.1";
const INSTALL_HINT = "bash scripts/install-code-server.sh --with-browser";

export interface CodeServerTools {
  /** Node 24: code-server refuses other majors and its native modules are built for it. */
  node: string;
  /** code-server's CLI entry point, run as `node entry.js ...`. */
  entry: string;
}

/** Paths of the .tools install; throws, naming the install script, when it is missing. */
export function codeServerTools(): CodeServerTools {
  const tools = join(REPO_ROOT, ".tools");
  const node = join(tools, `node-${NODE_VERSION}`, "bin", "node");
  const csDir = join(tools, `code-server-${CODE_SERVER_VERSION}`);
  const entry = join(csDir, "node_modules", "code-server", "out", "node", "entry.js");
  // The stamp is written only after a complete install (natives built, --version checked).
  if (!existsSync(node) || !existsSync(entry) || !existsSync(join(csDir, ".installed"))) {
    throw new Error(`code-server is not installed in ${tools}; run: ${INSTALL_HINT}`);
  }
  return { node, entry };
}

export interface CodeServerOptions {
  /** Folder opened in the workbench. */
  workspace: string;
  /** A .vsix installed into the fresh extensions dir before the server starts. */
  vsix?: string;
  /** User settings, merged over QUIET_SETTINGS. */
  settings?: Record<string, unknown>;
  /** false: keep workspace trust on, so the folder opens in Restricted Mode. Default true. */
  trustWorkspace?: boolean;
  /** Extra environment for the server and so for the extension host (e.g. agent variables). */
  env?: Record<string, string>;
  /** Bound on waiting for the server to answer HTTP. Default 60 s. */
  startTimeoutMs?: number;
}

export interface CodeServer {
  /** Workbench URL with the workspace folder in the query (no redirect involved). */
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's stdout and stderr; kept after stop() so a failed test can be read. */
  logFile: string;
  /** Kills the whole process group (server, extension host, pty host) and removes temp dirs. */
  stop(): Promise<void>;
}

/** Defaults that keep first-run UI (welcome page, walkthroughs, prompts) out of the way. */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "git.openRepositoryInParentFolders": "never",
  // With trust left on (trustWorkspace: false) open straight into Restricted Mode, no modal.
  "security.workspace.trust.startupPrompt": "never",
  "terminal.integrated.enablePersistentSessions": false,
  "chat.disableAIFeatures": true,
};

/**
 * Variables that would make code-server do something else than start a fresh server:
 * VSCODE_IPC_HOOK_CLI forwards the open request to the VS Code whose terminal we run in,
 * PORT overrides --bind-addr's port, PASSWORD/HASHED_PASSWORD/GITHUB_TOKEN change auth.
 */
function serverEnv(root: string, node: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VSCODE_|CODE_SERVER_|CS_|ELECTRON_)/.test(key)) continue;
    if (["PORT", "PASSWORD", "HASHED_PASSWORD", "GITHUB_TOKEN", "NODE_OPTIONS"].includes(key)) continue;
    env[key] = value;
  }
  // code-server writes a default config and its logs under the XDG dirs ($HOME otherwise).
  env.XDG_CONFIG_HOME = join(root, "xdg-config");
  env.XDG_DATA_HOME = join(root, "xdg-data");
  env.XDG_CACHE_HOME = join(root, "xdg-cache");
  // Node 24 first on PATH, like at install time, for anything the server spawns as `node`.
  env.PATH = `${dirname(node)}:${process.env.PATH ?? ""}`;
  return { ...env, ...extra };
}

/** A port that was free on 127.0.0.1 a moment ago (closed again before code-server binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolvePort(address.port);
        else reject(new Error("could not read the free port's address"));
      });
    });
  });
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(file, args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (error) reject(new Error(`${file} ${args.join(" ")} failed: ${error.message}\n${output}`));
      else resolveRun(output);
    });
  });
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls /healthz until it answers 200, the process exits, or the time bound passes. */
async function waitForHttp(port: number, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before answering HTTP; log ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`code-server did not answer http://127.0.0.1:${port}/healthz within ${timeoutMs} ms (${lastError}); log ${logFile}:\n${tail(logFile)}`);
}

/** True while any process of the group still exists (signal 0 only checks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function killGroup(pgid: number): Promise<void> {
  for (const [signal, waitMs] of [["SIGTERM", 5_000], ["SIGKILL", 5_000]] as const) {
    try {
      process.kill(-pgid, signal);
    } catch {
      return; // group already gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline && groupAlive(pgid)) await sleep(100);
    if (!groupAlive(pgid)) return;
  }
  throw new Error(`code-server process group ${pgid} survived SIGKILL`);
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const { node, entry } = codeServerTools();
  const workspace = resolve(options.workspace);
  if (!existsSync(workspace)) throw new Error(`workspace folder does not exist: ${workspace}`);

  // Short path under /tmp: the session socket lives in the user-data dir (108-byte limit).
  const root = mkdtempSync(join(tmpdir(), "tandem-cs-"));
  const userDataDir = join(root, "user-data");
  const extensionsDir = join(root, "extensions");
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    join(userDataDir, "User", "settings.json"),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2),
  );
  // Our own config file, so code-server does not generate one with a random password.
  const configFile = join(root, "config.yaml");
  writeFileSync(configFile, "auth: none\ncert: false\n");
  const logDir = join(REPO_ROOT, "test-results");
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `code-server-${Date.now()}.log`);
  const env = serverEnv(root, node, options.env);
  const common = ["--config", configFile, "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir];

  let child: ChildProcess | undefined;
  const cleanup = async () => {
    if (child?.pid !== undefined) await killGroup(child.pid);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    if (options.vsix !== undefined) {
      const vsix = resolve(options.vsix);
      const installArgs = (dir: string) => [entry, "--config", configFile, "--user-data-dir", userDataDir, "--extensions-dir", dir, "--install-extension", vsix];
      writeFileSync(logFile, await installVsix(vsix, extensionsDir, (dir) => run(node, installArgs(dir), env, 120_000)));
    }
    const port = await freePort();
    const args = [
      entry, ...common,
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--ignore-last-opened",
      ...(options.trustWorkspace === false ? [] : ["--disable-workspace-trust"]),
      workspace,
    ];
    const fd = openSync(logFile, "a");
    try {
      // detached: its own process group, so stop() reaches the extension host and pty host too.
      child = spawn(node, args, { env, detached: true, stdio: ["ignore", fd, fd] });
    } finally {
      closeSync(fd); // the child holds its own copy
    }
    child.unref(); // never keep the test runner alive; stop() is what ends it
    // Safety net if the test process exits without stop(): the detached group would outlive it.
    const pgid = child.pid;
    const onExit = () => {
      if (pgid !== undefined && groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
    };
    process.once("exit", onExit);
    await waitForHttp(port, child, options.startTimeoutMs ?? 60_000, logFile);

    let stopped: Promise<void> | undefined;
    return {
      url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
      port,
      userDataDir,
      extensionsDir,
      logFile,
      stop: () => (stopped ??= cleanup().finally(() => process.off("exit", onExit))),
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
