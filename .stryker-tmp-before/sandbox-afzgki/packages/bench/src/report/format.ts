/** Number formats and the Markdown table of the benchmark's report. */
// @ts-nocheck


export const MiB = 1024 * 1024;

export const fixed = (value: number, digits: number): string => value.toFixed(digits);
export const percent = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(1)} %`;
export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
/** A small share in percent with two significant digits (0.016 %), which `percent` would round to 0.0 %. */
export const share = (value: number): string => `${value >= 0.1 ? value.toFixed(1) : value.toPrecision(2)} %`;
export const ns = (value: number): string => (value < 100 ? fixed(value, 2) : fixed(value, 0));

/** A Markdown table; `|` in a cell is escaped. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
