/** A render waits at least this many times the last one's cost after it. */
const SPACING = 3;

/**
 * Streamed text is drawn at most about thirty times a second (every second frame at 60 Hz). A
 * render costs far more than the script timed here: the style, layout and paint after it, and the
 * editor compositing the frame. Measured in code-server on a 50 KB answer (6 alternated turns a
 * side), drawing every second frame instead of every frame took 22-24% less of the renderer's
 * CPU, which the agent, on the same cores, used to finish sooner.
 */
const MIN_INTERVAL_MS = 30;

/** Beyond this, a render is never put off (the newest text is never more than this late). */
const MAX_WAIT_MS = 100;

/**
 * How often streamed text is drawn. Every other frame while drawing is cheap; while an agent
 * floods the panel each render costs more (more text per frame, the editor's own frames on the
 * same thread), and spacing renders by their measured cost leaves most of the thread to the
 * editor and the agent. Nothing is dropped: a render put off draws everything that arrived meanwhile.
 */
export class RenderCadence {
  private renderedAt = Number.NEGATIVE_INFINITY;
  private costMs = 0;
  private behind = false;

  /**
   * Whether the frame at `now` (requestAnimationFrame's clock) should render. A backlog the last
   * render left is worked off every frame (each such render is bounded by its own budget), or it
   * could grow faster than spaced renders commit it.
   */
  due(now: number): boolean {
    return this.behind || now - this.renderedAt >= Math.max(MIN_INTERVAL_MS, Math.min(MAX_WAIT_MS, this.costMs * SPACING));
  }

  /** Runs a render in the frame at `now`, timing it (the layout it forces included); `draw` says whether it left work. */
  render(now: number, draw: () => boolean): void {
    const started = performance.now();
    this.behind = draw();
    this.costMs = performance.now() - started;
    this.renderedAt = now;
  }
}
