import { stringify } from 'csv-stringify/sync';
import type { UsageEntry } from './usageEntry';

const COLUMNS: readonly (keyof UsageEntry)[] = [
  'at', 'day', 'project', 'agent', 'agentLabel', 'model', 'conversation', 'sessionId', 'stopReason',
  'inputTokens', 'outputTokens', 'totalTokens', 'cost', 'currency',
];

/**
 * The ledger as CSV, one row per turn with a header row; a count the agent did not report is an
 * empty cell, not 0. Cells that a spreadsheet would run as a formula (=, +, -, @ first) are quoted
 * with a leading apostrophe: project and model names come from files and agents.
 */
export function usageCsv(entries: readonly UsageEntry[]): string {
  const rows = entries.map((entry) => COLUMNS.map((column) => cell(entry[column])));
  return stringify([[...COLUMNS], ...rows]);
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
