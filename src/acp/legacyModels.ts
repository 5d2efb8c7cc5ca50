import { isRecord } from '../util/untrustedJson';

/** Gemini CLI's legacy `models` object from `session/new` (not in the schema, so the SDK drops it). */
export interface LegacyModels {
  availableModels: { modelId: string; name: string; description: string | null }[];
  currentModelId: string;
}

/** Reads Gemini's legacy `models` from a session-opening result, raw or as the SDK passed it on. */
export function parseLegacyModels(result: unknown): LegacyModels | null {
  if (!isRecord(result) || !isRecord(result.models)) return null;
  const { availableModels, currentModelId } = result.models;
  if (!Array.isArray(availableModels) || typeof currentModelId !== 'string') return null;
  const parsed = availableModels.flatMap((model: unknown) => {
    if (!isRecord(model) || typeof model.modelId !== 'string') return [];
    const { modelId, name, description } = model;
    return [{ modelId, name: typeof name === 'string' ? name : modelId, description: typeof description === 'string' ? description : null }];
  });
  return parsed.length > 0 ? { availableModels: parsed, currentModelId } : null;
}

/** The requests whose answers describe a session; the SDK serializes without spaces. */
const OPENING_REQUEST = /"method":"session\/(new|load|resume|fork)"/;

type RequestId = string | number;

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const message: unknown = JSON.parse(line);
    return isRecord(message) ? message : null;
  } catch {
    // Not JSON: the connection sees malformed lines too.
    return null;
  }
}

function requestId(value: unknown): RequestId | null {
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}

/**
 * Legacy models per session, from the raw answers to one connection's session/new, load, resume
 * and fork: the frames are read as they pass, because the SDK's validated answers lack the field.
 */
export class LegacyModelsReader {
  /** Opening requests awaiting their answer, with the session they name (load, resume) or null (the answer names it). */
  private readonly pending = new Map<RequestId, string | null>();
  private readonly bySession = new Map<string, LegacyModels>();

  /** A line Tandem sent to the agent. */
  sent(line: string): void {
    if (!OPENING_REQUEST.test(line)) return;
    const message = parseLine(line);
    const id = requestId(message?.id);
    if (!message || id === null) return;
    // A fork's params name the session it copies, not the new one.
    const namesSession = message.method === 'session/load' || message.method === 'session/resume';
    const sessionId = namesSession && isRecord(message.params) && typeof message.params.sessionId === 'string' ? message.params.sessionId : null;
    this.pending.set(id, sessionId);
  }

  /** A line the agent sent. */
  received(line: string): void {
    if (this.pending.size === 0 || !line.includes('"id"')) return;
    const message = parseLine(line);
    const id = requestId(message?.id);
    // The agent's own requests have ids too, from its own counter.
    if (!message || id === null || 'method' in message || !this.pending.has(id)) return;
    const named = this.pending.get(id) ?? null;
    this.pending.delete(id);
    const result = message.result;
    const sessionId = named ?? (isRecord(result) && typeof result.sessionId === 'string' ? result.sessionId : null);
    if (!sessionId) return;
    const models = parseLegacyModels(result);
    if (models) this.bySession.set(sessionId, models);
    else this.bySession.delete(sessionId);
  }

  models(sessionId: string): LegacyModels | null {
    return this.bySession.get(sessionId) ?? null;
  }
}
