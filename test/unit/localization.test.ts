import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { BUNDLE_PATH, bundleText } from '../../scripts/l10n.mjs';
import { englishPanelStrings } from '../../src/contract/panelStrings';
import { repoRoot } from '../support/scriptedAgentSpec';

/** The VS Code adapters: src/extension.ts, src/vscode and every feature's vscode/ folder. */
const adapters = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && (file === 'extension.ts' || file.split(/[\\/]/).includes('vscode')));

const isWritten = (node: ts.Node) => ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);

/** Texts written in place where a notification or modal shows them: its message, its `detail`, its buttons. */
function unlocalizedNotifications(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(repoRoot, 'src', file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && /\.show(Information|Warning|Error)Message$/.test(node.expression.getText(source))) {
      const shown = node.arguments.flatMap((argument) => (ts.isObjectLiteralExpression(argument)
        ? argument.properties.filter(ts.isPropertyAssignment).map((property) => property.initializer)
        : [argument]));
      found.push(...shown.filter(isWritten).map((text) => `${file}: ${text.getText(source)}`));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('localization', () => {
  test('the adapters show no notification or modal text written in place: each goes through vscode.l10n.t', () => {
    assert.ok(adapters.length > 10);
    assert.deepEqual(adapters.flatMap(unlocalizedNotifications), []);
  });

  test('package.json points VS Code at the l10n bundle, which holds every message of the code and the panel as scripts/l10n.mjs writes it', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(join(repoRoot, manifest.l10n ?? '', 'bundle.l10n.json'), BUNDLE_PATH);
    const bundle = readFileSync(BUNDLE_PATH, 'utf8');
    assert.equal(bundle, bundleText(), 'run node scripts/l10n.mjs');
    const messages = Object.keys(JSON.parse(bundle) as Record<string, string>);
    assert.deepEqual(Object.values(englishPanelStrings).filter((text) => !messages.includes(text)), []);
    assert.ok(messages.includes('Sign out of {0}?'));
  });
});
