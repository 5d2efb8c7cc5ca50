/**
 * A line on an agent's stdio as Tandem saw it, before any layer read it: the unit the traffic
 * log, the inspector, redaction and recordings all work on.
 */

/** `in` = agent -> Tandem, `out` = Tandem -> agent. */
export type FrameDirection = 'in' | 'out';

export interface Frame {
  at: number;
  direction: FrameDirection;
  text: string;
  /**
   * The connection (one agent process) the line went over, numbered in the order connections
   * opened in this window; absent in frames read from older recordings.
   */
  connection?: number;
}

export type FrameListener = (frame: Frame) => void;
