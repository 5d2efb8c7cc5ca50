import * as acp from '@agentclientprotocol/sdk';
import type { Frame } from '../wire/frame';
import type { FsPort, TerminalPort } from '../acp/clientPorts';
import { parseFrameText } from '../redaction/redact';
import type { FrameIndex } from '../inspector/frameIndex';
import { rpcMessage, type RpcMessage } from '../wire/rpcMessage';

type Answer = Extract<RpcMessage, { kind: 'result' | 'error' }>;

/**
 * What the recorded client answered to each of the agent's requests, per method in order. The
 * agent's requests are replayed as recorded, so the nth `fs/read_text_file` of the replay is the
 * nth of the recording and takes its answer.
 */
export class RecordedAnswers {
  private readonly byMethod = new Map<string, Answer[]>();

  constructor(frames: readonly Frame[], index: FrameIndex) {
    for (const request of index.frames) {
      if (request.direction !== 'in' || request.kind !== 'request' || request.pair === null || !request.method) continue;
      const message = rpcMessage(parseFrameText(frames[request.pair]?.text ?? ''));
      if (message.kind !== 'result' && message.kind !== 'error') continue;
      const list = this.byMethod.get(request.method) ?? [];
      list.push(message);
      this.byMethod.set(request.method, list);
    }
  }

  /** The next recorded answer to `method` as its result; a recorded error, or none, is thrown as an error. */
  next<T>(method: string): T {
    const answer = this.byMethod.get(method)?.shift();
    if (!answer) throw new acp.RequestError(-32603, `Replay: the recording holds no answer to this ${method}, and nothing is run in a replay.`);
    if (answer.kind === 'error') throw new acp.RequestError(answer.code ?? -32603, answer.message);
    return answer.result as T;
  }
}

/** `fs/*` answered from the recording: a replay reads nothing and writes nothing. */
export function replayFs(answers: RecordedAnswers): FsPort {
  return {
    readTextFile: async () => answers.next<acp.ReadTextFileResponse>('fs/read_text_file'),
    writeTextFile: async () => answers.next<acp.WriteTextFileResponse>('fs/write_text_file') ?? {},
  };
}

/** `terminal/*` answered from the recording: a replay runs no command. */
export function replayTerminals(answers: RecordedAnswers): TerminalPort {
  return {
    create: async () => answers.next<acp.CreateTerminalResponse>('terminal/create'),
    output: async () => answers.next<acp.TerminalOutputResponse>('terminal/output'),
    waitForExit: async () => answers.next<acp.WaitForTerminalExitResponse>('terminal/wait_for_exit'),
    kill: async () => answers.next<acp.KillTerminalResponse>('terminal/kill') ?? {},
    release: async () => answers.next<acp.ReleaseTerminalResponse>('terminal/release') ?? {},
  };
}
