import * as vscode from 'vscode';
import { type Logger } from '../util/logger';
import { redactingLogger } from '../redaction/redactedLog';

/** The one Tandem log: a LogOutputChannel, so levels and timestamps come from VS Code. */
export function createLogChannel(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('Tandem', { log: true });
  const logger = redactingLogger({
    trace: (message) => channel.trace(message),
    debug: (message) => channel.debug(message),
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
  });
  return { channel, logger };
}
