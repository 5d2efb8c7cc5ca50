// Writes l10n/bundle.l10n.json, the English bundle translators start from (VS Code's `l10n`
// folder, read through `vscode.l10n.t`): every `l10n.t('…')` message of src, plus the panel's
// texts, which the host translates from src/contract/panelStrings.ts and hands to the webview.
// It is what `npx @vscode/l10n-dev export src` would write for the first part; that tool is not
// a dependency, so the TypeScript compiler already in node_modules reads the source instead.
// `node scripts/l10n.mjs` rewrites the file; test/unit/localization.test.ts checks it is current.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE_PATH = join(root, 'l10n', 'bundle.l10n.json');
const PANEL_STRINGS = join('contract', 'panelStrings.ts');

function sourceFile(file) {
  return ts.createSourceFile(file, readFileSync(join(root, 'src', file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const isLiteral = (node) => node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node));

/** The first arguments of `….l10n.t(…)` calls that are written as literals, in source order. */
function messagesOf(source) {
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.getText(source).endsWith('l10n.t') && isLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The English texts of the panel's strings: the string values of the object literals in panelStrings.ts. */
function panelTexts() {
  const found = [];
  const visit = (node) => {
    if (ts.isPropertyAssignment(node) && isLiteral(node.initializer)) found.push(node.initializer.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile(PANEL_STRINGS));
  return found;
}

/** The bundle as it should be on disk: each message once, as its own key and English text. */
export function bundleText() {
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).sort();
  const messages = new Set([...files.flatMap((file) => messagesOf(sourceFile(file))), ...panelTexts()]);
  return `${JSON.stringify(Object.fromEntries([...messages].sort().map((message) => [message, message])), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(BUNDLE_PATH, bundleText());
