import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as vscode from 'vscode';
import { STORAGE_KEYS } from '../../src/util/ids';
import { MementoList } from '../../src/permissions/vscode/mementoList';

/** globalState as an extension sees it, holding what earlier versions saved there. */
function globalState(initial: Record<string, unknown> = {}): vscode.Memento & { values: Map<string, unknown> } {
  const values = new Map(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, defaultValue?: T) => (values.has(key) ? (values.get(key) as T) : defaultValue),
    update: (key: string, value: unknown) => Promise.resolve(void values.set(key, value)),
  } as vscode.Memento & { values: Map<string, unknown> };
}

interface Grant { id: string; kind: string }
const isGrant = (item: unknown): item is Grant => Boolean(item) && typeof (item as Grant).id === 'string';

describe('a list kept in a Memento', () => {
  test('what an earlier version stored under the key is read back, entries of another shape dropped', () => {
    const saved = [{ id: 'g1', kind: 'read' }, null, { kind: 'edit' }, 'x', { id: 'g2', kind: 'execute' }];
    const list = new MementoList(globalState({ [STORAGE_KEYS.permissionGrants]: saved }), STORAGE_KEYS.permissionGrants, isGrant);
    assert.deepEqual(list.load(), [{ id: 'g1', kind: 'read' }, { id: 'g2', kind: 'execute' }]);
  });

  test('nothing stored, or not a list, reads as an empty list', () => {
    assert.deepEqual(new MementoList(globalState(), 'key', isGrant).load(), []);
    assert.deepEqual(new MementoList(globalState({ key: { id: 'g1' } }), 'key', isGrant).load(), []);
  });

  test('a save stores the list itself under the key, as the plain JSON array', () => {
    const state = globalState({ other: 1 });
    new MementoList(state, STORAGE_KEYS.permissionGrants, isGrant).save([{ id: 'g1', kind: 'read' }]);
    assert.deepEqual(Object.fromEntries(state.values), { other: 1, [STORAGE_KEYS.permissionGrants]: [{ id: 'g1', kind: 'read' }] });
  });
});
