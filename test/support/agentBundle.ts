import { build } from 'esbuild';

/**
 * An agent program written in TypeScript, bundled to one plain .mjs file, so that each spawn
 * costs node's start-up and not tsx's on-the-fly compilation (for tests and benches that start
 * many agents).
 */
export async function bundleAgent(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // CommonJS dependencies bundled into ESM may still call require() for node builtins.
    banner: { js: "import { createRequire as __agentCreateRequire } from 'node:module'; const require = __agentCreateRequire(import.meta.url);" },
  });
  return outfile;
}
