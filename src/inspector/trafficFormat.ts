import type { Frame } from '../wire/frame';

/**
 * One line of the traffic log: time, direction arrow, text. The frame must come out of a
 * FrameRedactor (or `redactFrames`): redaction needs the frames around it, a line does not.
 */
export function trafficLine(redacted: Frame): string {
  const arrow = redacted.direction === 'in' ? '← agent' : '→ agent';
  return `${new Date(redacted.at).toISOString()} ${arrow} ${redacted.text}`;
}
