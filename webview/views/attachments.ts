import { promptImageTypes, type MentionView, type PromptImageView } from '../../src/contract/conversationView';
import type { ConversationStore } from '../conversationStore';
import { el, icon } from '../dom';

const imageTypes: ReadonlySet<string> = new Set(promptImageTypes);
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export interface PromptContext {
  mentions: MentionView[];
  images: PromptImageView[];
}

function readImage(file: File): Promise<PromptImageView | null> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      const comma = url.indexOf(',');
      resolve(comma > 0 ? { mimeType: file.type as PromptImageView['mimeType'], data: url.slice(comma + 1) } : null);
    };
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(file);
  });
}

/**
 * What goes with the next message beside its text: `@` mentions and pasted or dropped images,
 * shown as removable chips. Images are taken only when the agent accepts them.
 */
export class Attachments {
  readonly element = el('div', { class: 'attachments', id: 'attachments', hidden: '' });
  readonly status = el('div', { class: 'composer-status', id: 'composer-status', role: 'status', hidden: '' });
  private mentions: MentionView[] = [];
  private images: PromptImageView[] = [];

  constructor(private readonly conversation: ConversationStore) {}

  addMention(mention: MentionView): void {
    if (!this.mentions.some((existing) => existing.path === mention.path && existing.startLine === mention.startLine && existing.kind === mention.kind)) this.mentions.push(mention);
    this.render();
  }

  /** Pasted or dropped files; true when any was an image (handled here). */
  async addFiles(files: readonly File[]): Promise<boolean> {
    const images = files.filter((file) => imageTypes.has(file.type));
    if (images.length === 0) return false;
    if (!this.conversation.view.prompt.image) {
      this.say('This agent cannot take images, so the image was not attached.');
      return true;
    }
    for (const file of images) {
      if (file.size > MAX_IMAGE_BYTES) {
        this.say(`${file.name || 'The image'} is larger than 10 MB and was not attached.`);
        continue;
      }
      const image = await readImage(file);
      if (image) this.images.push(image);
    }
    this.render();
    return true;
  }

  /** Hands over what is attached and clears it. */
  take(): PromptContext {
    const context = { mentions: this.mentions, images: this.images };
    this.mentions = [];
    this.images = [];
    this.render();
    return context;
  }

  restore(context: PromptContext): void {
    this.mentions = [...context.mentions];
    this.images = [...context.images];
    this.render();
  }

  say(text: string | null): void {
    this.status.hidden = !text;
    this.status.textContent = text ?? '';
  }

  private render(): void {
    this.element.hidden = this.mentions.length + this.images.length === 0;
    const chips = [
      ...this.mentions.map((mention, index) => this.chip(mention.kind === 'folder' ? 'folder' : mention.kind === 'selection' ? 'selection' : 'file',
        mention.kind === 'selection' ? `${mention.label}:${mention.startLine}-${mention.endLine}` : mention.label, mention.detail, () => this.mentions.splice(index, 1))),
      ...this.images.map((image, index) => {
        const chip = this.chip('file-media', `image ${index + 1}`, image.mimeType, () => this.images.splice(index, 1));
        chip.prepend(el('img', { class: 'attachment-thumb', alt: '', src: `data:${image.mimeType};base64,${image.data}` }));
        return chip;
      }),
    ];
    this.element.replaceChildren(...chips);
  }

  private chip(iconName: string, label: string, title: string, remove: () => void): HTMLElement {
    const removeButton = el('button', { class: 'chip-remove', title: `Remove ${label}`, 'aria-label': `Remove ${label}` }, icon('close'));
    removeButton.addEventListener('click', () => {
      remove();
      this.render();
    });
    return el('span', { class: 'attachment-chip', title }, icon(iconName), el('span', { class: 'chip-label' }, label), removeButton);
  }
}
