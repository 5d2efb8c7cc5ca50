import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import type { activate } from '../../src/extension';
import { repoRoot } from '../support/scriptedAgentSpec';

// Whatever activate returns, VS Code hands to every other extension. src/extension.ts imports
// `vscode`, so it cannot be loaded here: the compiler checks the type, and the test reads the source.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const activateReturnsVoid: Same<ReturnType<typeof activate>, void> = true;

const source = ts.createSourceFile('extension.ts', readFileSync(join(repoRoot, 'src', 'extension.ts'), 'utf8'), ts.ScriptTarget.ES2022, true);

function exported(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

/** `return <value>` statements of a function body, not of the functions nested in it. */
function valueReturns(body: ts.Block): ts.ReturnStatement[] {
  const found: ts.ReturnStatement[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression) found.push(node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

describe('what the extension offers other extensions', () => {
  test('activate is declared to return void and returns no value', () => {
    assert.equal(activateReturnsVoid, true);
    const declaration = source.statements.find((statement): statement is ts.FunctionDeclaration => ts.isFunctionDeclaration(statement) && statement.name?.text === 'activate');
    assert.ok(declaration?.body, 'src/extension.ts declares function activate');
    assert.equal(declaration.type?.kind, ts.SyntaxKind.VoidKeyword, 'activate(): void');
    assert.deepEqual(valueReturns(declaration.body).map((statement) => statement.getText(source)), []);
  });

  test('the module exports only activate and deactivate', () => {
    const names = source.statements.filter(exported).map((statement) => (ts.isFunctionDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isTypeAliasDeclaration(statement) ? statement.name?.text : statement.getText(source).slice(0, 40)));
    assert.deepEqual(names.sort(), ['activate', 'deactivate']);
  });
});
