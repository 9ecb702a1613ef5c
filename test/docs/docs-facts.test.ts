// Facts the docs state about other software, checked against it: the default service name, which
// docs/configuration.md and docs/production.md both give, and where Debian's Pushgateway persists by default.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultResource } from '@opentelemetry/resources';
import { describe, expect, it } from 'vitest';
import { pushgatewayBinary } from '../support/pushgateway/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = (name: string) => readFileSync(join(root, 'docs', name), 'utf8');

describe('what the docs say of OpenTelemetry and Debian', () => {
  it('the default service name is unknown_service: and argv0, on both pages that give it', () => {
    expect(defaultResource().attributes['service.name']).toBe(`unknown_service:${process.argv0}`);
    for (const name of ['configuration.md', 'production.md']) {
      expect(page(name), name).toContain('`unknown_service:node`');
      expect(page(name), name).toMatch(/`unknown_service:` (\+|and the process's) `(process\.)?argv0`/);
    }
  });

  it.skipIf(pushgatewayBinary === undefined)(
    "Debian's Pushgateway persists where docs/production.md says, by default",
    () => {
      const help = spawnSync(pushgatewayBinary as string, ['--help'], { encoding: 'utf8' });
      const persistence = /--persistence\.file="([^"]*)"/.exec(`${help.stdout}${help.stderr}`)?.[1];
      expect(persistence).toBe('/var/lib/prometheus/pushgateway.data');
      expect(page('production.md')).toContain(`persists to \`${persistence}\` by default`);
      expect(page('production.md')).not.toMatch(/Without `--persistence\.file` a restart\s+empties it/);
    },
  );
});
