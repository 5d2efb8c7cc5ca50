import type { RpcKindView } from './rpcKinds';
import { isRecord } from '../util/untrustedJson';

export type RpcKind = RpcKindView;

export type RpcMessage =
  | { kind: 'request'; id: string; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: string; result: unknown }
  | { kind: 'error'; id: string; code: number | null; message: string }
  | { kind: 'malformed'; reason: string };

/**
 * A JSON-RPC id as a key: numbers and strings are different ids (`1` is not `"1"`), so a string
 * keeps its quotes. Null or any other type is no usable id.
 */
export function rpcIdKey(id: unknown): string | null {
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (typeof id === 'string') return JSON.stringify(id);
  return null;
}

function responseOf(message: Record<string, unknown>, id: string): RpcMessage {
  if ('error' in message) {
    const error = isRecord(message.error) ? message.error : {};
    return { kind: 'error', id, code: typeof error.code === 'number' ? error.code : null, message: typeof error.message === 'string' ? error.message : '' };
  }
  if ('result' in message) return { kind: 'result', id, result: message.result };
  return { kind: 'malformed', reason: 'a response with neither result nor error' };
}

/** Classifies a parsed line (`undefined`: the line was not JSON). */
export function rpcMessage(value: unknown): RpcMessage {
  if (value === undefined) return { kind: 'malformed', reason: 'not JSON' };
  if (!isRecord(value)) return { kind: 'malformed', reason: 'JSON but not an object' };
  if (value.jsonrpc !== '2.0') return { kind: 'malformed', reason: 'not JSON-RPC 2.0 (no "jsonrpc": "2.0")' };
  const id = 'id' in value ? rpcIdKey(value.id) : null;
  if (typeof value.method === 'string') {
    if (!('id' in value)) return { kind: 'notification', method: value.method, params: value.params };
    if (id === null) return { kind: 'malformed', reason: `a ${value.method} request with an id that is neither a number nor a string` };
    return { kind: 'request', id, method: value.method, params: value.params };
  }
  if (id === null) return { kind: 'malformed', reason: 'neither a request nor a response with a usable id' };
  return responseOf(value, id);
}
