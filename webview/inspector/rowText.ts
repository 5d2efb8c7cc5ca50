import type { FrameRowView } from '../../src/contract/inspectorView';
import { assertNever } from '../../src/util/assertNever';

/** What a row says the frame is: its method, or which request it answers. */
export function frameLabel(row: FrameRowView): string {
  switch (row.kind) {
    case 'request':
      return `${row.method ?? ''} #${row.id ?? ''}`;
    case 'notification':
      return row.updateKind ? `${row.method ?? ''} · ${row.updateKind}` : (row.method ?? '');
    case 'result':
      return `result of #${row.id ?? ''}${row.method ? ` (${row.method})` : ''}`;
    case 'error':
      return `error of #${row.id ?? ''}${row.method ? ` (${row.method})` : ''}`;
    case 'malformed':
      return 'not a JSON-RPC message';
    default:
      return assertNever(row.kind);
  }
}

export function directionLabel(row: FrameRowView): string {
  return row.direction === 'in' ? '← agent' : '→ agent';
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

export function timeLabel(at: number): string {
  const date = new Date(at);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function latencyLabel(row: FrameRowView): string {
  if (row.latencyMs === null) return row.kind === 'request' ? 'no answer' : '';
  return row.latencyMs < 1000 ? `${row.latencyMs} ms` : `${(row.latencyMs / 1000).toFixed(2)} s`;
}
