import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { localizedManifest, manifestPlaceholders, manifestTexts } from '../support/manifest';
import { repoRoot } from '../support/scriptedAgentSpec';
import { COMMANDS, CONTEXT_KEYS, FOCUS_CHAT_COMMAND, SETTINGS, VIEWS } from '../../src/util/ids';
import { toolKinds } from '../../src/acp/toolKinds';

interface Manifest {
  icon: string;
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    keybindings: { command: string; when?: string }[];
    views: Record<string, { id: string; name: string }[]>;
    walkthroughs: {
      id: string;
      title: string;
      description: string;
      steps: { id: string; title: string; description: string; media: { markdown: string }; completionEvents: string[] }[];
    }[];
    configuration: {
      properties: Record<string, {
        description?: string;
        markdownDescription?: string;
        enumDescriptions?: string[];
        additionalProperties?: { items?: { enum?: string[] } };
      }>;
    };
  };
}

const manifest = localizedManifest<Manifest>();
const sources = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts')).map((file) => readFileSync(join(repoRoot, 'src', file), 'utf8'));

/**
 * The ids `call(...)` is given across src, as the id lists of src/util/ids.ts name them (`COMMANDS.keepHunk`
 * is 'tandem.keepHunk'); an argument spelled any other way is kept as written, so it shows in a failure.
 */
function idsPassedTo(call: string, lists: Record<string, Record<string, string>>): string[] {
  const argument = new RegExp(`${call}\\(\\s*([^,)]+)`, 'g');
  return sources.flatMap((source) => [...source.matchAll(argument)].map((match) => {
    const written = match[1]?.trim() ?? '';
    const [list, key] = written.split('.');
    return (list && key && lists[list]?.[key]) || written;
  }));
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

describe('package.json contributions', () => {
  test('the commands, views and settings contributed are the ones src/util/ids.ts names, each command in the Tandem category', () => {
    assert.deepEqual(sorted(manifest.contributes.commands.map((command) => command.command)), sorted(Object.values(COMMANDS)));
    assert.deepEqual(sorted(Object.values(manifest.contributes.views).flat().map((view) => view.id)), sorted(Object.values(VIEWS)));
    assert.deepEqual(sorted(Object.keys(manifest.contributes.configuration.properties)), sorted(Object.values(SETTINGS)));
    assert.ok(manifest.contributes.commands.every((command) => command.category === 'Tandem'));
  });

  test('every contributed command is registered once, and every contributed view has its provider', () => {
    assert.deepEqual(sorted(idsPassedTo('registerCommand', { COMMANDS })), sorted(Object.values(COMMANDS)));
    assert.deepEqual(sorted(idsPassedTo('registerWebviewViewProvider', { VIEWS })), sorted(Object.values(VIEWS)));
  });

  test('one "+": New Conversation in the view\'s title bar, the word the panel uses, and no other command with that icon', () => {
    const adds = manifest.contributes.commands.filter((command) => command.icon === '$(add)');
    assert.deepEqual(adds.map((command) => [command.command, command.title]), [[COMMANDS.newSession, 'New Conversation']]);
    assert.equal(manifest.contributes.menus['view/title']?.filter((item) => item.command === COMMANDS.newSession && item.when === `view == ${VIEWS.chat}`).length, 1);
  });

  test('menus and keybindings only name contributed commands', () => {
    const known = new Set(manifest.contributes.commands.map((command) => command.command));
    const used = [...Object.values(manifest.contributes.menus).flat(), ...manifest.contributes.keybindings].map((item) => item.command);
    assert.deepEqual(used.filter((command) => !known.has(command)), []);
  });

  test('the context keys `when` clauses read are the ones Tandem sets', () => {
    const clauses = [...Object.values(manifest.contributes.menus).flat(), ...manifest.contributes.keybindings].map((item) => item.when ?? '');
    const views = new Set<string>(Object.values(VIEWS));
    const read = new Set(clauses.flatMap((clause) => clause.match(/\btandem\.[\w.]+/g) ?? []).filter((name) => !views.has(name)));
    assert.deepEqual(sorted(read), sorted(Object.values(CONTEXT_KEYS)));
    const set = sources.flatMap((source) => [...source.matchAll(/'setContext', CONTEXT_KEYS\.(\w+)/g)].map((match) => match[1] ?? ''));
    assert.deepEqual(sorted(new Set(set)), sorted(Object.keys(CONTEXT_KEYS)));
  });

  test('the auto-allow setting offers exactly the tool kinds the code knows', () => {
    const offered = manifest.contributes.configuration.properties[SETTINGS.autoAllow]?.additionalProperties?.items?.enum;
    assert.deepEqual(offered, [...toolKinds]);
  });

  test('the Getting Started walkthrough links each step to a command Tandem contributes, and ships its pages', () => {
    const [walkthrough, ...others] = manifest.contributes.walkthroughs;
    assert.equal(others.length, 0);
    const steps = walkthrough?.steps ?? [];
    assert.deepEqual(steps.map((step) => step.id), ['pickAgent', 'installAgent', 'signIn', 'tour', 'reviewChanges']);
    const runnable = new Set<string>([...manifest.contributes.commands.map((command) => command.command), FOCUS_CHAT_COMMAND]);
    const views = new Set(Object.values(manifest.contributes.views).flat().map((view) => view.id));
    const linked = steps.map((step) => [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((match) => match[1]));
    assert.deepEqual(linked, [[COMMANDS.selectAgent], [COMMANDS.addAgentFromRegistry], [FOCUS_CHAT_COMMAND], [FOCUS_CHAT_COMMAND], [COMMANDS.reviewChanges]]);
    assert.ok(linked.flat().every((command) => runnable.has(command ?? '')));
    const events = steps.flatMap((step) => step.completionEvents);
    assert.deepEqual(events.filter((event) => {
      const [kind, id = ''] = event.split(':');
      return !(kind === 'onCommand' ? runnable.has(id) : kind === 'onView' && views.has(id));
    }), []);
    assert.deepEqual(steps.map((step) => step.media.markdown).filter((page) => !page.startsWith('media/walkthrough/') || !existsSync(join(repoRoot, page))), []);
  });

  test('the texts users read are localizable: each a package.nls.json key, and each key used', () => {
    const used = manifestPlaceholders();
    const texts = manifestTexts();
    assert.deepEqual(used.filter((key) => typeof texts[key] !== 'string'), []);
    assert.deepEqual(Object.keys(texts).filter((key) => !used.includes(key)), []);
    const raw = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest & { description: string };
    const literal = [raw.description, ...raw.contributes.commands.map((command) => command.title), ...Object.values(raw.contributes.views).flat().map((view) => view.name),
      ...raw.contributes.walkthroughs.flatMap((walkthrough) => [walkthrough.title, walkthrough.description, ...walkthrough.steps.flatMap((step) => [step.title, step.description])]),
      ...Object.values(raw.contributes.configuration.properties).flatMap((setting) => [setting.description, setting.markdownDescription, ...(setting.enumDescriptions ?? [])])]
      .filter((text) => text !== undefined && !/^%[^%\s]+%$/.test(text));
    assert.deepEqual(literal, []);
  });

  test('the gallery icon is a 128 x 128 PNG that ships', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = readFileSync(join(repoRoot, manifest.icon));
    // The signature, then the IHDR chunk: its length (13), its type, then width and height, big-endian.
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.toString('latin1', 12, 16), 'IHDR');
    assert.deepEqual({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }, { width: 128, height: 128 });
  });

  test('.vscodeignore ships only dist, media, the manifest\'s and the code\'s texts, README, LICENSE and CHANGELOG', () => {
    const lines = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    assert.equal(lines[0], '**');
    assert.deepEqual(lines.slice(1).sort(), ['!CHANGELOG.md', '!LICENSE', '!README.md', '!dist/**', '!l10n/**', '!media/**', '!package.nls.json'].sort());
  });
});
