/** `1.5 MiB`, `812 B`: binary units, as backup sizes are usually read. */
// @ts-nocheck

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** `152.3 MiB/s`, or `-` when no time was spent. */
export function formatRate(bytes: number, seconds: number): string {
  if (!(seconds > 0) || bytes === 0) return '-';
  return `${formatBytes(bytes / seconds)}/s`;
}

/** `1.234 s`, `12.3 ms`, `45 µs`. */
export function formatSeconds(seconds: number): string {
  if (seconds >= 1) return `${seconds.toFixed(3)} s`;
  if (seconds >= 0.001) return `${(seconds * 1000).toFixed(1)} ms`;
  return `${Math.round(seconds * 1e6)} µs`;
}

/** `1m05s`, `12s`: for an ETA. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
