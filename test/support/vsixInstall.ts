// The packaged .vsix installed once per package, not once per code-server start: code-server's own
// --install-extension makes an extensions dir for it the first time, and each later start gets a
// copy of that dir with its paths moved to the copy's place. The files are the ones the install
// wrote; only where they sit differs.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const CACHE = join(tmpdir(), "tandem-vsix-installs");
/** Installs of earlier packages are removed once this old. */
const KEPT_MS = 24 * 60 * 60 * 1000;

/** The dir an install made for `vsix`, made by `install(dir)` (which returns code-server's output) the first time. */
async function installedDir(vsix: string, install: (dir: string) => Promise<string>): Promise<{ dir: string; output: string | null }> {
  const { size, mtimeMs } = statSync(vsix);
  const key = createHash("sha256").update(`${vsix}\0${size}\0${mtimeMs}`).digest("hex").slice(0, 16);
  const dir = join(CACHE, key);
  if (existsSync(join(dir, "extensions.json"))) return { dir, output: null };
  mkdirSync(CACHE, { recursive: true });
  for (const name of readdirSync(CACHE)) {
    const old = join(CACHE, name);
    if (Date.now() - statSync(old).mtimeMs > KEPT_MS) rmSync(old, { recursive: true, force: true });
  }
  const fresh = mkdtempSync(join(CACHE, `${key}-`));
  const output = await install(fresh);
  if (!/successfully installed/i.test(output)) {
    rmSync(fresh, { recursive: true, force: true });
    throw new Error(`installing ${vsix} printed no success:\n${output}`);
  }
  try {
    renameSync(fresh, dir);
  } catch {
    // Another test process installed the same package meanwhile: use its dir.
    rmSync(fresh, { recursive: true, force: true });
  }
  return { dir, output };
}

/** Installs `vsix` into `extensionsDir` (empty); returns what to log about it. */
export async function installVsix(vsix: string, extensionsDir: string, install: (dir: string) => Promise<string>): Promise<string> {
  const { dir, output } = await installedDir(vsix, install);
  cpSync(dir, extensionsDir, { recursive: true });
  const manifest = join(extensionsDir, "extensions.json");
  const text = readFileSync(manifest, "utf8");
  const [first] = JSON.parse(text) as { location: { fsPath: string } }[];
  if (!first) throw new Error(`${manifest} lists no extension`);
  // Paths are written as the install made them, in the dir it installed into.
  writeFileSync(manifest, text.split(dirname(first.location.fsPath)).join(extensionsDir));
  return output === null ? `--install-extension ${vsix}: a copy of ${dir}\n` : `--install-extension ${vsix}\n${output}\n`;
}
