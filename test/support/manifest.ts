import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './scriptedAgentSpec';

/** A whole-string `%key%` of package.json: VS Code shows package.nls.json's text for that key instead. */
const PLACEHOLDER = /^%([^%\s]+)%$/;

function placeholderKey(value: unknown): string | undefined {
  return typeof value === 'string' ? PLACEHOLDER.exec(value)?.[1] : undefined;
}

/** package.json parsed, each value passed through `revive` (JSON.parse's reviver). */
function readManifest(revive: (value: unknown) => unknown): unknown {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'), (_name, value: unknown) => revive(value));
}

/** The English texts of package.json's placeholders, by key. */
export function manifestTexts(): Record<string, string> {
  return JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

/** Every placeholder key package.json uses, in the order it uses them. */
export function manifestPlaceholders(): string[] {
  const keys: string[] = [];
  readManifest((value) => {
    const key = placeholderKey(value);
    if (key !== undefined) keys.push(key);
    return value;
  });
  return keys;
}

/** package.json as an English-speaking user's editor reads it: each placeholder replaced by its text (kept as written if it has none). */
export function localizedManifest<Manifest>(): Manifest {
  const texts = manifestTexts();
  return readManifest((value) => {
    const key = placeholderKey(value);
    return key !== undefined && key in texts ? texts[key] : value;
  }) as Manifest;
}
