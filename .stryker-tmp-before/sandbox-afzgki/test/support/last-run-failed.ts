// @ts-nocheck
// The shipped rules' BackupLastRunFailed alert as a real Prometheus reports it, for the alert tests of both paths
// (scraped jobs, and jobs that push to a Pushgateway).
import { expect, vi } from 'vitest';
import type { PromAlert, PrometheusServer } from './prometheus.js';

/** The `BackupLastRunFailed` alerts pending or firing on `prometheus` now. */
export async function lastRunFailed(prometheus: PrometheusServer): Promise<PromAlert[]> {
  return (await prometheus.alerts()).filter((alert) => alert.labels.alertname === 'BackupLastRunFailed');
}

/** Waits (30 s at most) until `BackupLastRunFailed` fires, and no other instance of it is pending; returns it. */
export function lastRunFailedFiring(prometheus: PrometheusServer): Promise<PromAlert | undefined> {
  return vi.waitFor(
    async () => {
      const alerts = await lastRunFailed(prometheus);
      expect(alerts.map((alert) => alert.state)).toEqual(['firing']);
      return alerts[0];
    },
    { timeout: 30_000, interval: 250 },
  );
}
