/**
 * How long an "always" lasts is what its words say: Claude's "Yes, allow all edits during this
 * session" and Gemini's "Allow for this session" last for that session (conversation), a plain
 * "Always allow" until the user revokes it. The card says which before the click.
 */
import type { PermissionOptionView } from '../thread/entries';

export type GrantLifetime = 'session' | 'standing';

/** "this session", "during this conversation", "for the current chat"… */
const sessionWords = /\b(?:this|current)\s+(session|conversation|chat|thread)\b/i;

/** The lifetime an option's words promise; null for an option that is not an "always". */
export function grantLifetime(option: Pick<PermissionOptionView, 'kind' | 'name'>): GrantLifetime | null {
  if (option.kind !== 'allow_always') return null;
  return sessionWords.test(option.name) ? 'session' : 'standing';
}

/** The option's own word for a session-long grant ("session", "conversation"), for the card. */
function sessionWord(name: string): string {
  return (sessionWords.exec(name)?.[1] ?? 'session').toLowerCase();
}

/** What choosing an "always" option keeps, as the card says it; null for other options. */
export function lifetimeLabel(option: Pick<PermissionOptionView, 'kind' | 'name'>, keptBy: 'tandem' | 'agent' | 'nobody'): string | null {
  const lifetime = grantLifetime(option);
  if (lifetime === null) return null;
  if (keptBy === 'nobody') return 'this time only: nothing is remembered for this call';
  if (lifetime === 'session') return `for this ${sessionWord(option.name)} only`;
  return keptBy === 'tandem' ? 'from now on in this workspace, until you revoke it' : 'from now on, kept by the agent';
}
