/** Plain-text tables for the benchmark output. */
import { stableFigures, type Figure, type Figures } from './figures';

export type Align = 'left' | 'right';

export interface Column {
  title: string;
  align?: Align;
}

export function table(columns: Column[], rows: string[][]): string {
  const widths = columns.map((column, index) => Math.max(column.title.length, ...rows.map((row) => (row[index] ?? '').length)));
  const cell = (text: string, index: number) => {
    const width = widths[index] ?? text.length;
    return columns[index]?.align === 'right' ? text.padStart(width) : text.padEnd(width);
  };
  const line = (cells: string[]) => cells.map(cell).join('  ').trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(columns.map((column) => column.title)), rule, ...rows.map(line)].join('\n');
}

export function ms(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(1)} ms`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}

export function perSecond(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(2)} M/s`;
  if (value >= 1_000) return `${(value / 1_000).toFixed(1)} k/s`;
  return `${value.toFixed(0)} /s`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

function figureText(figure: Figure): string {
  switch (figure.unit) {
    case 'ms':
      return ms(figure.value);
    case 'x':
      return ratio(figure.value);
    case 'bytes':
      return `${count(figure.value)} bytes`;
    default:
      return `${figure.value} ${figure.unit}`;
  }
}

/** The stable figures of this run, one row each; a section that did not run says so instead of a number. */
export function stableTable(figures: Figures): string {
  const rows = Object.entries(stableFigures(figures)).map(([key, figure]) => {
    if (!figure) return [key, 'not measured in this run', ''];
    const spread = figure.min !== undefined && figure.max !== undefined ? `${figureText({ ...figure, value: figure.min })}..${figureText({ ...figure, value: figure.max })} (${figure.runs ?? 1} runs)` : '';
    return [key, figureText(figure), spread];
  });
  return table([{ title: 'stable key' }, { title: 'median', align: 'right' }, { title: 'min..max' }], rows);
}

/** A figure's spread as its report prints it: `min / median / max`, each with `format`. */
export function minMedianMax(figure: Figure, format: (value: number) => string): string {
  return `${format(figure.min ?? figure.value)} / ${format(figure.value)} / ${format(figure.max ?? figure.value)}`;
}
