import type { ConnectionView } from './connection';
import type { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';

/** How the conversation's agent connection stands, as the panel shows it; every change is announced. */
export class ConnectionState implements Disposable {
  private state: ConnectionView;
  private disposed = false;
  private readonly emitter = new Emitter<ConnectionView>();
  readonly onChanged = this.emitter.event;

  constructor(private readonly agentLabel: string, private readonly trusted: () => boolean) {
    this.state = this.notStarted();
  }

  get view(): ConnectionView {
    return this.state;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Before any agent runs: idle, or in Restricted Mode, why none will. */
  notStarted(): ConnectionView {
    return this.trusted()
      ? { phase: 'idle', message: null, agentName: this.agentLabel }
      : { phase: 'restricted', message: 'Tandem does not start agents in Restricted Mode: trust this workspace to use one.', agentName: this.agentLabel };
  }

  set(state: ConnectionView): void {
    if (this.disposed) return;
    this.state = state;
    this.emitter.fire(state);
  }

  fail(message: string, notInstalled?: ConnectionView['notInstalled']): void {
    this.set({ phase: 'failed', message, agentName: this.agentLabel, ...(notInstalled ? { notInstalled } : {}) });
  }

  reset(): void {
    this.set(this.notStarted());
  }

  dispose(): void {
    this.disposed = true;
    this.emitter.dispose();
  }
}
