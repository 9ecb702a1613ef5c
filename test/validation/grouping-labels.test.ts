// Grouping labels that would clash with what the pushes carry are refused, at set-up
// (BACKUPSTATS_PUSHGATEWAY_GROUPING) and by createPushgatewayExporter: the Pushgateway gives every series of a group
// the group's labels over their own, so `le` on a histogram's buckets makes a real Prometheus refuse the whole
// target, a scope or run label renames series (and makes pushes 400s), a resource attribute's label renames
// target_info's. Also a key given twice, and any name that is not a Prometheus label name.
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

const ACCEPTED =
  'accepted: comma-separated name=value pairs with Prometheus label names ([a-zA-Z_][a-zA-Z0-9_]*) that no pushed series carries';

/** Every label a pushed series carries or Prometheus reads, with why it is refused. */
const CLASHING: readonly [string, string][] = [
  ['le', 'Prometheus reads "le" as a histogram bucket\'s bound'],
  ['quantile', 'Prometheus reads "quantile" as a summary\'s quantile'],
  ['component', 'the pushed series carry "component"'],
  ['implementation', 'the pushed series carry "implementation"'],
  ['operation', 'the pushed series carry "operation"'],
  ['outcome', 'the pushed series carry "outcome"'],
  ['reason', 'the pushed series carry "reason"'],
  ['error_type', 'the pushed series carry "error_type"'],
  ['family', 'the pushed series carry "family"'],
  ['otel_scope_name', '"otel_scope_name" is an OpenTelemetry label of the pushed series'],
  ['otel_scope_version', '"otel_scope_version" is an OpenTelemetry label of the pushed series'],
  ['otel_metric_overflow', '"otel_metric_overflow" is an OpenTelemetry label of the pushed series'],
  ['service_name', '"service_name" is a label of target_info, from a resource attribute'],
  ['telemetry_sdk_version', '"telemetry_sdk_version" is a label of target_info, from a resource attribute'],
  ['job', '"job" is already in every grouping key'],
  ['instance', '"instance" is already in every grouping key'],
  ['data_center-1', '"data_center-1" is not a Prometheus label name'],
];

describe('grouping labels that clash', () => {
  it.each(CLASHING)('BACKUPSTATS_PUSHGATEWAY_GROUPING with %s: refused, saying why', async (name, why) => {
    const value = `region=eu,${name}=x`;
    const error = await setUpError({ OTEL_METRICS_EXPORTER: 'pushgateway', BACKUPSTATS_PUSHGATEWAY_GROUPING: value });
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(
      `backupstats: BACKUPSTATS_PUSHGATEWAY_GROUPING is "${value}" (${why}); ${ACCEPTED}: not job or instance (set through OTEL_SERVICE_NAME and service.instance.id), not "__*", "le" or "quantile", "otel_*", "component", "implementation", "operation", "outcome", "reason", "error_type", "family", "otel_metric_overflow" or a resource attribute's label (such as "service_name")`,
    );
  });

  it.each(CLASHING)('createPushgatewayExporter grouping with %s: refused, saying why', (name, why) => {
    expect(() => createPushgatewayExporter({ grouping: { region: 'eu', [name]: 'x' } })).toThrow(
      new TypeError(
        `backupstats: createPushgatewayExporter option grouping is an object (it has the label name "${name}": ${why}); accepted: an object of Prometheus label names ([a-zA-Z_][a-zA-Z0-9_]*) that no pushed series carries: not job or instance (set through OTEL_SERVICE_NAME and service.instance.id), not "__*", "le" or "quantile", "otel_*", "component", "implementation", "operation", "outcome", "reason", "error_type", "family", "otel_metric_overflow" or a resource attribute's label (such as "service_name"), to non-empty strings`,
      ),
    );
  });

  it("a resource attribute's label from OTEL_RESOURCE_ATTRIBUTES is refused", async () => {
    const error = await setUpError({
      OTEL_METRICS_EXPORTER: 'pushgateway',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod',
      BACKUPSTATS_PUSHGATEWAY_GROUPING: 'deployment_environment_name=prod',
    });
    expect(error.message).toContain(
      'BACKUPSTATS_PUSHGATEWAY_GROUPING is "deployment_environment_name=prod" ("deployment_environment_name" is a label of target_info, from a resource attribute)',
    );
  });

  it('a key given twice is refused rather than the last one kept', async () => {
    const error = await setUpError({
      OTEL_METRICS_EXPORTER: 'pushgateway',
      BACKUPSTATS_PUSHGATEWAY_GROUPING: 'a=1,a=2',
    });
    expect(error.message).toBe(
      'backupstats: BACKUPSTATS_PUSHGATEWAY_GROUPING is "a=1,a=2" (entry 2 of 2, "a=2", repeats the key "a"); accepted: comma-separated key=value pairs with label names not starting with "__" and percent-encoded values, e.g. "region=eu-west-1,tier=db"',
    );
  });

  it('an empty value is refused by the variable and by the exporter alike (an empty label is no label in Prometheus)', async () => {
    const error = await setUpError({
      OTEL_METRICS_EXPORTER: 'pushgateway',
      BACKUPSTATS_PUSHGATEWAY_GROUPING: 'region=',
    });
    expect(error).toMatchObject({ code: 'BACKUPSTATS_INVALID_ENV' });
    expect(error.message).toMatch(/^backupstats: BACKUPSTATS_PUSHGATEWAY_GROUPING is "region=" \(.*"region="/);
    let thrown: unknown;
    try {
      createPushgatewayExporter({ grouping: { region: '' } });
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toMatchObject({
      code: 'BACKUPSTATS_INVALID_OPTION',
      message: 'backupstats: createPushgatewayExporter option grouping.region is ""; accepted: a non-empty string',
    });
  });

  it('labels that clash with nothing are accepted', () => {
    const exporter = createPushgatewayExporter({ grouping: { region: 'eu', tier: 'db', shard: '7', le_site: 'x' } });
    return exporter.shutdown();
  });
});
