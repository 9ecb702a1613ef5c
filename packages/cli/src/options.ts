// What the commands' options share: the usage error, labels, sizes.

/** A command line the command cannot run: said on stderr with the command's usage line, exit status 2. */
export class UsageError extends Error {
  readonly code = 'BACKUPSTATS_INVALID_ARGUMENT';
  override readonly name = 'UsageError';
}

/** The labels `--label` may set; `operation` is each stage's own (the run's is its family's). */
export const LABEL_NAMES = ['component', 'implementation'] as const;

/** The labels of a shell job's series unless `--label` says otherwise. */
export const DEFAULT_LABELS = Object.freeze({ component: 'BackupEngine', implementation: 'Shell' });

export interface Labels {
  component?: string;
  implementation?: string;
}

/** `--label name=value`, repeated; the first value given for a label wins, as with `scope()`. */
export function parseLabels(values: readonly string[] | undefined): Labels {
  const labels: Labels = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    const name = at === -1 ? value : value.slice(0, at);
    const text = at === -1 ? '' : value.slice(at + 1);
    if (!(LABEL_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--label ${JSON.stringify(value)} is not accepted: the label names are ${LABEL_NAMES.join(' and ')} (each stage's operation comes from its meter's --operation)`,
      );
    }
    if (text === '') {
      throw new UsageError(`--label ${JSON.stringify(value)} is not accepted: give a value, as in ${name}=MySQL`);
    }
    labels[name as keyof Labels] ??= text;
  }
  return labels;
}

/** A byte count from `--expected-bytes` / `--size`: a whole number, with an optional K, M, G, T (1024-based) suffix. */
export function parseBytes(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)([KMGT]i?B?)?$/i.exec(value.trim());
  const unit = match?.[2]?.[0]?.toUpperCase();
  const bytes =
    match === null ? Number.NaN : Number(match[1]) * 1024 ** (unit === undefined ? 0 : 'KMGT'.indexOf(unit) + 1);
  if (!Number.isSafeInteger(bytes)) {
    throw new UsageError(
      `${option} ${JSON.stringify(value)} is not accepted: a whole number of bytes, optionally with K, M, G or T (1024-based), e.g. 512M`,
    );
  }
  return bytes;
}
