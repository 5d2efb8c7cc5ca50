import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonc } from '../util/jsonc';
import { isRecord } from '../util/untrustedJson';

/** One agent settings file found in the project, as an untrusted JSON object. */
export interface ProjectSettingsFile {
  /** Absolute path. */
  path: string;
  /** The path relative to its folder, as the user knows it. */
  label: string;
  json: Record<string, unknown>;
}

/** The settings object a file's text holds; null when it is not a JSON object (comments allowed). */
export function parseSettingsObject(text: string): Record<string, unknown> | null {
  try {
    const json = parseJsonc(text);
    return isRecord(json) ? json : null;
  } catch {
    return null;
  }
}

/** Each of `files` (relative to each root) that exists and holds a JSON object, root by root. */
export function readProjectSettingsFiles(roots: readonly string[], files: readonly string[]): ProjectSettingsFile[] {
  const found: ProjectSettingsFile[] = [];
  for (const root of roots) {
    for (const label of files) {
      const path = join(root, label);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        continue;
      }
      const json = parseSettingsObject(text);
      if (json) found.push({ path, label, json });
    }
  }
  return found;
}
