import type { Frame } from './frames';
import { redactFrameText } from './redact';

/** One line of the traffic log: time, direction arrow, redacted frame. */
export function formatFrame(frame: Frame): string {
  const arrow = frame.direction === 'in' ? '← agent' : '→ agent';
  return `${new Date(frame.at).toISOString()} ${arrow} ${redactFrameText(frame.text)}`;
}
