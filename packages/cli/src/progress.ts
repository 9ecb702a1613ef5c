// The progress line `meter` shows on a terminal, as pv does: bytes, rate, and with a size the percentage and time left.

/** Bytes in binary units with three significant digits: `512 B`, `1.50 MiB`, `12.3 GiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${value} B`;
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${units[unit]}`;
}

/** Seconds as `m:ss`, or `h:mm:ss` from an hour. */
export function formatSeconds(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const s = whole % 60;
  const m = Math.floor(whole / 60) % 60;
  const h = Math.floor(whole / 3600);
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * One progress line: what moved, its rate over the last interval, and with `size` the percentage and the time left at
 * that rate (`--:--` while the rate is 0).
 */
export function progressLine(
  operation: string,
  bytes: number,
  bytesPerSecond: number,
  elapsedSeconds: number,
  size: number | undefined,
): string {
  const parts = [operation, formatBytes(bytes), `${formatBytes(bytesPerSecond)}/s`, formatSeconds(elapsedSeconds)];
  if (size !== undefined && size > 0) {
    const percent = Math.min(100, Math.floor((bytes / size) * 100));
    const left = bytesPerSecond > 0 ? formatSeconds(Math.max(0, size - bytes) / bytesPerSecond) : '--:--';
    parts.push(`${String(percent).padStart(3)} %`, `ETA ${left}`);
  }
  return parts.join('  ');
}
