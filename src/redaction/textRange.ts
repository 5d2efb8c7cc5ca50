/** A span of text found to hold a secret: `start` inclusive, `end` exclusive. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}
