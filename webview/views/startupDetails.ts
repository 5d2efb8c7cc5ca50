import { startupStageLabels, type StageStateView, type StartupView } from '../../src/contract/startupView';
import { button, el, icon, spinner } from '../dom';
import type { PostToHost } from '../vscodeApi';

const stageIcons: Record<StageStateView, string> = {
  waiting: 'circle-large-outline', running: 'loading', done: 'pass', failed: 'error', stalled: 'watch',
};

/** The stages of a start as a short list: done, the one waited for, the one that failed or stalled. */
export function stageList(startup: StartupView): HTMLElement {
  return el('ol', { class: 'startup-stages', 'aria-label': 'Start-up stages' }, ...startup.stages.map((stage) => {
    const seconds = stage.ms !== null && stage.state !== 'waiting' ? ` ${(stage.ms / 1000).toFixed(1)} s` : '';
    return el('li', { class: `startup-stage stage-${stage.state}`, 'data-stage': stage.stage },
      (stage.state === 'running' ? spinner : icon)(stageIcons[stage.state]),
      ` ${startupStageLabels[stage.stage]}`, el('span', { class: 'stage-time' }, seconds));
  }));
}

/**
 * Under a failed start's or a lost agent's sentence: the stages and the agent's last log lines,
 * folded (a sentence, not ten lines over the panel), and "Copy report" for a bug report.
 */
export function failureDetails(startup: StartupView, post: PostToHost): HTMLElement[] {
  const report = startup.report;
  const lines = startup.stderrTail;
  const details = el('details', { class: 'startup-details' },
    el('summary', {}, lastLineSummary(lines)),
    stageList(startup),
    lines.length > 0 ? el('pre', { class: 'startup-log' }, lines.join('\n')) : el('p', { class: 'hint' }, 'The agent logged nothing on stderr.'));
  const copy = report ? button('Copy report', { icon: 'copy', secondary: true, title: 'Copy a report of this start (secrets removed) for a bug report', onClick: () => post({ type: 'copyText', text: report }) }) : null;
  return copy ? [details, copy] : [details];
}

/** The folded details' own line: the agent's last log line (often the reason), the rest one click away. */
function lastLineSummary(lines: readonly string[]): string {
  const last = lines.at(-1);
  if (last === undefined) return 'Details';
  const shown = last.length > 140 ? `${last.slice(0, 140)}…` : last;
  return lines.length > 1 ? `Last log line: ${shown} (${lines.length} lines)` : `Last log line: ${shown}`;
}
