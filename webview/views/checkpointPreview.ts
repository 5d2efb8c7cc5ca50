import type { CheckpointActionMessage, CheckpointPreviewView, MessageCheckpointView, RestoreFileView, RestoreScope } from '../../src/contract/checkpointView';
import { button, el, icon, textWithCode } from '../dom';

export type CheckpointPost = (message: CheckpointActionMessage) => void;

const actionLetters: Record<RestoreFileView['action'], string> = { restore: 'M', create: 'A', delete: 'D' };
const actionWords: Record<RestoreFileView['action'], string> = { restore: 'restored', create: 'created again', delete: 'deleted' };

/** Whether `checkpointActions` draws the same under both states: what its buttons show and say. */
export function sameCheckpointActions(was: MessageCheckpointView | undefined, redoWas: string | null, now: MessageCheckpointView | undefined, redoNow: string | null): boolean {
  if (!was || !now) return was === now;
  const redoShown = (checkpoint: MessageCheckpointView, redo: string | null) => (checkpoint.lastRestored ? redo : null);
  return was.restorable === now.restorable && was.reason === now.reason && redoShown(was, redoWas) === redoShown(now, redoNow);
}

/** "Restore to here" (and "Redo restore" on the message the last restore went back to) under a user message. */
export function checkpointActions(entryId: string, checkpoint: MessageCheckpointView | undefined, redo: string | null, post: CheckpointPost): HTMLElement | null {
  if (!checkpoint) return null;
  const restore = button('Restore to here', {
    icon: 'history',
    secondary: true,
    title: checkpoint.restorable ? 'Show what going back to before this message would change, then choose' : `The files cannot be restored: ${checkpoint.reason ?? ''}`,
    onClick: () => post({ type: 'checkpointAction', action: { kind: 'preview', entryId } }),
  });
  const actions = el('div', { class: 'checkpoint-actions' }, restore);
  if (checkpoint.lastRestored && redo) {
    actions.append(button('Redo restore', { icon: 'redo', secondary: true, title: redo, onClick: () => post({ type: 'checkpointAction', action: { kind: 'previewRedo' } }) }));
  }
  return actions;
}

function fileRow(file: RestoreFileView): HTMLElement {
  const stats = file.binary
    ? el('span', { class: 'diff-stats' }, 'not text')
    : el('span', { class: 'diff-stats' }, el('span', { class: 'stat-added' }, `+${file.added}`), ' ', el('span', { class: 'stat-removed' }, `−${file.removed}`));
  return el('li', { class: 'change-row', 'data-path': file.path, title: `${file.path}: ${actionWords[file.action]}` },
    el('span', { class: `change-status status-${file.action === 'create' ? 'created' : file.action === 'delete' ? 'deleted' : 'modified'}` }, actionLetters[file.action]),
    el('span', { class: 'change-file' }, file.label),
    stats,
    file.handEdit ? el('span', { class: 'checkpoint-hand-edit' }, icon('warning'), ` ${file.handEdit}`) : null,
    file.note ? el('span', { class: 'hint' }, ` (${file.note})`) : null);
}

/**
 * What a restore would change, shown under the message it goes back to before anything is
 * written: the files, the ones holding the user's own changes (kept unless the user ticks the
 * box), the files left alone, and a choice of code, conversation or both.
 */
export class CheckpointPreviewPanel {
  private element: HTMLElement | null = null;

  constructor(private readonly container: HTMLElement, private readonly post: CheckpointPost) {}

  show(preview: CheckpointPreviewView | null): void {
    this.element?.remove();
    this.element = null;
    if (!preview) return;
    const element = this.render(preview);
    const row = preview.entryId === null ? null : [...this.container.querySelectorAll<HTMLElement>('[data-entry-id]')].find((candidate) => candidate.dataset.entryId === preview.entryId);
    if (row) row.after(element);
    else this.container.append(element);
    this.element = element;
    element.scrollIntoView({ block: 'nearest' });
    element.querySelector<HTMLElement>('vscode-button')?.focus();
  }

  private render(preview: CheckpointPreviewView): HTMLElement {
    const handEdited = preview.files.filter((file) => file.handEdit !== null);
    const alsoMine = el('input', { type: 'checkbox', id: `restore-mine-${preview.previewId}` });
    const restore = (scope: RestoreScope) => this.post({
      type: 'checkpointAction',
      action: { kind: 'restore', previewId: preview.previewId, scope, keepMine: alsoMine.checked ? [] : handEdited.map((file) => file.path) },
    });
    const buttons = this.buttons(preview, restore);
    const nothing = preview.error === null && preview.files.length === 0 ? el('p', {}, 'Every file is as it was then: there is nothing to write.') : null;
    return el('section', { class: 'entry notice severity-info checkpoint-preview', role: 'region', 'aria-label': preview.title },
      el('div', { class: 'notice-text' },
        el('strong', {}, preview.title),
        preview.error ? el('p', { role: 'alert' }, icon('warning'), ' ', textWithCode(preview.error)) : null,
        nothing,
        preview.files.length > 0 ? el('ul', { class: 'checkpoint-files' }, ...preview.files.map(fileRow)) : null,
        preview.problems.length > 0 ? el('ul', { class: 'checkpoint-problems' }, ...preview.problems.map((problem) => el('li', {}, icon('warning'), ' ', textWithCode(problem)))) : null,
        handEdited.length > 0 ? el('p', {}, alsoMine, el('label', { for: alsoMine.id },
          ` Also restore the ${handEdited.length === 1 ? 'file' : `${handEdited.length} files`} marked with a warning. Unticked, ${handEdited.length === 1 ? 'it keeps' : 'they keep'} your changes; ticked, "Redo restore" brings them back.`)) : null,
        preview.conversation ? el('p', { class: 'hint' }, preview.conversation) : null,
        buttons));
  }

  private buttons(preview: CheckpointPreviewView, restore: (scope: RestoreScope) => void): HTMLElement {
    const codeReady = preview.error === null && preview.files.length > 0;
    const conversation = preview.conversation !== null;
    return el('div', { class: 'notice-actions' },
      codeReady ? button(preview.entryId === null ? 'Redo restore' : 'Restore code', { icon: 'history', onClick: () => restore('code') }) : null,
      conversation ? button('Restore conversation', { icon: 'comment-discussion', secondary: codeReady, onClick: () => restore('conversation') }) : null,
      codeReady && conversation ? button('Restore both', { secondary: true, onClick: () => restore('both') }) : null,
      button('Cancel', { secondary: true, onClick: () => this.post({ type: 'checkpointAction', action: { kind: 'dismiss', previewId: preview.previewId } }) }));
  }
}
