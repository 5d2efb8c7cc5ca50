import * as acp from '@agentclientprotocol/sdk';
import type { ElicitationAction } from './elicitationActions';
import type { ElicitationView } from '../thread/elicitationForm';
import type { ThreadModel } from '../thread/threadModel';
import { formFields, validateAnswer, withEntered } from './elicitationSchema';

function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

interface Pending {
  view: ElicitationView;
  resolve(response: acp.CreateElicitationResponse, state?: ElicitationView['state']): void;
  elicitationId: string | null;
}

/**
 * `elicitation/create` as a form (or a link) inside the thread. Accept answers only values
 * that pass the schema; decline and cancel are answered as such; URL pages open only on a click.
 */
export class ElicitationBroker {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  constructor(private readonly thread: ThreadModel) {}

  request(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const requestId = `q${this.nextId++}`;
    const base = { requestId, message: params.message, state: 'open' as const, errors: {} };
    let view: ElicitationView;
    let elicitationId: string | null = null;
    if (params.mode === 'form' && 'requestedSchema' in params) {
      const { fields, unsupported } = formFields(params.requestedSchema as acp.ElicitationSchema);
      const note = unsupported.length > 0 ? `\n\n(Tandem cannot show these fields: ${unsupported.join(', ')}.)` : '';
      view = { ...base, message: params.message + note, mode: 'form', title: (params.requestedSchema as acp.ElicitationSchema).title ?? null, fields, url: null, host: null };
    } else if (params.mode === 'url' && 'url' in params && typeof params.url === 'string') {
      const host = hostOf(params.url);
      elicitationId = 'elicitationId' in params && typeof params.elicitationId === 'string' ? params.elicitationId : null;
      view = { ...base, mode: 'url', title: null, fields: [], url: params.url, host };
    } else {
      return Promise.resolve({ action: 'decline' });
    }
    return new Promise((resolve) => {
      const finish = (response: acp.CreateElicitationResponse, state: ElicitationView['state']) => {
        const current = this.pending.get(requestId);
        if (!current) return;
        this.pending.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        this.thread.setElicitation({ ...current.view, state, errors: {} });
        resolve(response);
      };
      const onAbort = () => finish({ action: 'cancel' }, 'cancelled');
      this.pending.set(requestId, { view, elicitationId, resolve: (response, state) => finish(response, state ?? (response.action === 'accept' ? 'accepted' : response.action === 'decline' ? 'declined' : 'cancelled')) });
      signal.addEventListener('abort', onAbort, { once: true });
      this.thread.setElicitation(view);
      if (signal.aborted) onAbort();
    });
  }

  /** The user's answer; false when submitted values failed validation (the form shows why). */
  answer(requestId: string, action: ElicitationAction, values: Record<string, unknown> = {}): boolean {
    const pending = this.pending.get(requestId);
    if (!pending) return false;
    if (action !== 'accept') {
      pending.resolve({ action });
      return true;
    }
    if (pending.view.mode === 'url') {
      pending.resolve({ action: 'accept' });
      return true;
    }
    const checked = validateAnswer(pending.view.fields, values);
    if ('errors' in checked) {
      pending.view = { ...pending.view, fields: withEntered(pending.view.fields, values), errors: checked.errors };
      this.thread.setElicitation(pending.view);
      return false;
    }
    // The answered form, read-only from here on, shows what was sent rather than blank fields.
    pending.view = { ...pending.view, fields: withEntered(pending.view.fields, checked.content) };
    pending.resolve({ action: 'accept', content: checked.content });
    return true;
  }

  /** `elicitation/complete`: the agent says the URL flow finished. */
  complete(elicitationId: string): void {
    for (const pending of [...this.pending.values()]) {
      if (pending.elicitationId === elicitationId) pending.resolve({ action: 'accept' }, 'completed');
    }
  }

  cancelAll(): void {
    for (const pending of [...this.pending.values()]) pending.resolve({ action: 'cancel' });
  }
}
