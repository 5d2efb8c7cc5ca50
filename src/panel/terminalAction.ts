import type { TerminalAction } from '../contract/terminalView';
import type { TerminalDisplays } from '../terminals/terminalDisplays';
import { assertNever } from '../util/assertNever';

/** What a terminal card's buttons need of the panel. */
export interface TerminalActionPorts {
  /** Stops the running turn, as Stop does. */
  cancelTurn(): Promise<void>;
  /** Shows the command's mirror in the editor's terminal panel. */
  revealTerminal(terminalId: string): void;
}

/** A terminal card's Stop or "Open in terminal panel". */
export async function runTerminalAction(displays: TerminalDisplays, terminalId: string, action: TerminalAction, ports: TerminalActionPorts): Promise<void> {
  switch (action) {
    case 'kill':
      // Tandem stops the commands it runs; one the agent runs itself stops with the turn.
      if (!displays.stop(terminalId) && displays.view(terminalId)?.running) await ports.cancelTurn();
      return;
    case 'reveal':
      ports.revealTerminal(terminalId);
      return;
    default:
      assertNever(action, 'terminal action');
  }
}
