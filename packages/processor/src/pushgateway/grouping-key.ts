import { hostname } from 'node:os';

/** The labels that name one group in the Pushgateway: what a push replaces, and what it never touches. */
export interface GroupingKey {
  readonly job: string;
  readonly instance: string;
  /** More labels of the group, after job and instance. */
  readonly labels: Readonly<Record<string, string>>;
}

/** Prometheus label names; `__` is reserved for Prometheus's own. */
export const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;
/** The labels the grouping key always has, which other labels may not repeat. */
export const KEY_LABELS: readonly string[] = ['job', 'instance'];

/**
 * The grouping key from what was given, the rest from the resource the metrics come with: job = `service.name`
 * (what `OTEL_SERVICE_NAME` sets; OpenTelemetry's default is `unknown_service:` and the process's name), instance =
 * `service.instance.id`, else the host name. The job and instance of a group then equal what `target_info` says.
 */
export function groupingKeyOf(
  resourceAttributes: Readonly<Record<string, unknown>>,
  given: {
    readonly job?: string | undefined;
    readonly instance?: string | undefined;
    readonly labels: GroupingKey['labels'];
  },
): GroupingKey {
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? value : value === undefined ? undefined : String(value);
  return {
    job: given.job ?? text(resourceAttributes['service.name']) ?? 'unknown_service',
    instance: given.instance ?? text(resourceAttributes['service.instance.id']) ?? hostname(),
    labels: given.labels,
  };
}

/**
 * The path of the group under `/metrics`: `/metrics/job/<job>/instance/<instance>/<name>/<value>…`. A value the
 * path cannot carry as it is (empty, holding `/`, or `.` / `..`, which clients and routers fold away) takes the
 * Pushgateway's `<name>@base64/<URL-safe base64>` form (`=` for the empty value); any other is percent-encoded.
 */
export function groupingPath(key: GroupingKey): string {
  const pairs: Array<[string, string]> = [['job', key.job], ['instance', key.instance], ...Object.entries(key.labels)];
  return `/metrics${pairs.map(([name, value]) => segment(name, value)).join('')}`;
}

function segment(name: string, value: string): string {
  if (value === '') return `/${name}@base64/=`;
  if (value.includes('/') || value === '.' || value === '..') {
    return `/${name}@base64/${Buffer.from(value, 'utf8').toString('base64url')}`;
  }
  return `/${name}/${encodeURIComponent(value)}`;
}
