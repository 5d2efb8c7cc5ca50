import type { ProjectRulesView } from './grants';
import { stringArray } from '../util/untrustedJson';
import { parseSettingsObject, readProjectSettingsFiles, type ProjectSettingsFile } from './projectSettingsFiles';

/** At most 500 rules per list: a settings file is untrusted too. */
const strings = (value: unknown): string[] => stringArray(value).slice(0, 500);

/**
 * Files in which agents persist "always allow" rules inside the project. Claude Code writes
 * the user's "always" into `.claude/settings.local.json`, which `git clean -fd` keeps (it is
 * usually git-ignored): the user should know those rules exist.
 */
export const projectRuleFiles = ['.claude/settings.local.json', '.claude/settings.json'] as const;

function rulesOf({ json, path, label }: ProjectSettingsFile): ProjectRulesView | null {
  const permissions = json.permissions;
  if (!permissions || typeof permissions !== 'object') return null;
  const { allow, deny } = permissions as { allow?: unknown; deny?: unknown };
  const view = { path, label, allow: strings(allow), deny: strings(deny) };
  return view.allow.length + view.deny.length > 0 ? view : null;
}

/** The allow and deny rules found in one settings file's text; null when it has none or is not JSON. */
export function parseProjectRules(text: string, path: string, label: string): ProjectRulesView | null {
  const json = parseSettingsObject(text);
  return json ? rulesOf({ json, path, label }) : null;
}

export function readProjectRules(roots: readonly string[]): ProjectRulesView[] {
  return readProjectSettingsFiles(roots, projectRuleFiles).flatMap((file) => rulesOf(file) ?? []);
}
