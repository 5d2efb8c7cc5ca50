import type { Frame, FrameDirection } from '../wire/frame';
import { parseFrameText } from '../redaction/redact';
import { isRecord } from '../util/untrustedJson';
import { agentIdentity, type AgentIdentity } from './agentIdentity';
import { redactInSlices, type Redaction } from '../redaction/slicedRedaction';

/** The recording format this code writes and reads. */
export const RECORDING_FORMAT = 1;
/** Larger files are refused before they are read: a recording is a bug report, not an archive. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;
export const MAX_RECORDING_FRAMES = 200_000;

export interface RecordingHeader {
  format: number;
  /** The ACP protocol version of the conversation (what `initialize` agreed). */
  protocolVersion: number | null;
  agent: AgentIdentity | null;
  /** The session's folder when it was recorded. */
  cwd: string | null;
  recordedAt: string;
}

export interface Recording {
  header: RecordingHeader;
  /** Redacted, with their original times. */
  frames: Frame[];
}

export interface SkippedLine {
  line: number;
  reason: string;
}

export interface LoadedRecording extends Recording {
  /** Lines that could not be read; everything else loaded. */
  skipped: SkippedLine[];
}

/** A file that cannot be replayed at all, with a sentence that says why. */
export class RecordingError extends Error {}

/** One frame as a line of an export or recording: its JSON as such, or the raw text of a line that was not JSON. */
export function frameLine(frame: Frame, origin = 0): string {
  const message = parseFrameText(frame.text);
  const base = frame.connection === undefined ? { t: frame.at - origin, dir: frame.direction } : { t: frame.at - origin, dir: frame.direction, conn: frame.connection };
  return JSON.stringify(message === undefined ? { ...base, raw: frame.text } : { ...base, msg: message });
}

/** The frames as NDJSON for a bug report: redacted exactly as the traffic log shows them. */
export async function exportFrames(frames: readonly Frame[], redaction: Redaction = redactInSlices): Promise<string> {
  return (await redaction(frames)).map((frame) => `${frameLine(frame)}\n`).join('');
}

/** A recording's text: the header line, then one line per frame, redacted, with its time since the first. */
export async function writeRecording(header: Omit<RecordingHeader, 'format'>, frames: readonly Frame[], redaction: Redaction = redactInSlices): Promise<string> {
  const origin = frames[0]?.at ?? 0;
  const lines = [JSON.stringify({ tandemRecording: RECORDING_FORMAT, ...header })];
  for (const frame of await redaction(frames)) lines.push(frameLine(frame, origin));
  return `${lines.join('\n')}\n`;
}

/** The header for a conversation's frames: who the agent said it was in its `initialize` answer. */
export function recordingHeader(frames: readonly Frame[], cwd: string | null, recordedAt: Date): Omit<RecordingHeader, 'format'> {
  for (const frame of frames) {
    if (frame.direction !== 'in' || !frame.text.includes('"protocolVersion"')) continue;
    const value = parseFrameText(frame.text);
    const result = isRecord(value) && isRecord(value.result) ? value.result : null;
    if (!result || typeof result.protocolVersion !== 'number') continue;
    return { protocolVersion: result.protocolVersion, agent: agentIdentity(result.agentInfo), cwd, recordedAt: recordedAt.toISOString() };
  }
  return { protocolVersion: null, agent: null, cwd, recordedAt: recordedAt.toISOString() };
}

function readHeader(line: string | undefined): RecordingHeader {
  const value = line === undefined ? undefined : parseFrameText(line);
  if (!isRecord(value) || typeof value.tandemRecording !== 'number') {
    throw new RecordingError('This is not a Tandem recording: its first line is not a recording header.');
  }
  if (value.tandemRecording !== RECORDING_FORMAT) {
    throw new RecordingError(`This recording is in format ${value.tandemRecording}; this version of Tandem reads format ${RECORDING_FORMAT}.`);
  }
  const protocolVersion = typeof value.protocolVersion === 'number' ? value.protocolVersion : null;
  if (protocolVersion !== null && protocolVersion !== 1) {
    throw new RecordingError(`This recording speaks ACP protocol version ${protocolVersion}; Tandem speaks version 1.`);
  }
  return { format: RECORDING_FORMAT, protocolVersion, agent: agentIdentity(value.agent), cwd: typeof value.cwd === 'string' ? value.cwd : null, recordedAt: typeof value.recordedAt === 'string' ? value.recordedAt : '' };
}

function readFrame(line: string, origin: number): Frame | string {
  const value = parseFrameText(line);
  if (!isRecord(value)) return 'not JSON (a truncated or damaged line)';
  const direction: FrameDirection | null = value.dir === 'in' || value.dir === 'out' ? value.dir : null;
  if (!direction) return 'no direction ("dir" must be "in" or "out")';
  if (typeof value.t !== 'number' || !Number.isFinite(value.t) || value.t < 0) return 'no time ("t" must be milliseconds since the first frame)';
  const connection = typeof value.conn === 'number' && Number.isSafeInteger(value.conn) && value.conn >= 0 ? { connection: value.conn } : {};
  if ('msg' in value) return { at: origin + value.t, direction, text: JSON.stringify(value.msg), ...connection };
  if (typeof value.raw === 'string') return { at: origin + value.t, direction, text: value.raw, ...connection };
  return 'neither a message ("msg") nor a raw line ("raw")';
}

/**
 * Reads a recording. A file that is not one, or from a format or protocol this code does not
 * know, is refused with the reason; damaged lines are skipped and listed. Times are kept as
 * milliseconds since the first frame, so replays of one file are alike. Frames out of order
 * in time are skipped: replay speed depends on them.
 */
export function readRecording(text: string): LoadedRecording {
  if (text.length > MAX_RECORDING_BYTES) throw new RecordingError(`This recording is ${Math.round(text.length / (1024 * 1024))} MB; Tandem replays recordings up to ${MAX_RECORDING_BYTES / (1024 * 1024)} MB.`);
  const lines = text.split('\n');
  const header = readHeader(lines[0]?.replace(/\r$/, ''));
  const frames: Frame[] = [];
  const skipped: SkippedLine[] = [];
  let last = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line.trim() === '') continue;
    if (frames.length >= MAX_RECORDING_FRAMES) {
      skipped.push({ line: i + 1, reason: `past the first ${MAX_RECORDING_FRAMES} frames` });
      break;
    }
    const frame = readFrame(line, 0);
    if (typeof frame === 'string') skipped.push({ line: i + 1, reason: frame });
    else if (frame.at < last) skipped.push({ line: i + 1, reason: 'earlier than the frame before it' });
    else {
      frames.push(frame);
      last = frame.at;
    }
  }
  if (frames.length === 0) throw new RecordingError(skipped.length > 0 ? `No frame of this recording could be read (line ${skipped[0]?.line}: ${skipped[0]?.reason}).` : 'This recording holds no frames.');
  return { header, frames, skipped };
}

/** One sentence about what a load left out, or null when everything loaded. */
export function describeSkipped(skipped: readonly SkippedLine[]): string | null {
  if (skipped.length === 0) return null;
  const shown = skipped.slice(0, 3).map((entry) => `line ${entry.line}: ${entry.reason}`).join('; ');
  return `${skipped.length} line(s) of the recording were skipped (${shown}${skipped.length > 3 ? '; …' : ''}).`;
}
