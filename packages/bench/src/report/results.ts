import type { DemoResult } from '../demo/demo.js';
import type { FlushResult } from '../flush/flush-cost.js';
import type { MemoryResult } from '../memory/memory.js';
import type { PipelineResult } from '../pipeline/pipeline.js';
import type { PushgatewayResult } from '../pushgateway/pushgateway-push.js';
import type { RecordCostResult } from '../record/record-cost.js';
import type { S3RequestResult } from '../s3/s3-request.js';
import type { ScrapeResult } from '../scrape/scrape.js';
import type { ShellResult } from '../shell/shell-pipeline.js';
import type { AzureUploadResult } from '../storage/azure-upload.js';
import type { HttpRequestResult } from '../storage/http-request.js';
import type { TextfileResult } from '../textfile/textfile-write.js';
import type { TimelineResult } from '../timeline/timeline-cost.js';
import type { WorkersResult } from '../workers/workers.js';
import type { Machine } from './machine.js';

/** Everything one run measured; a benchmark that crashed has an error message instead of a result. */
export interface RunResults {
  readonly machine: Machine;
  /** ISO 8601 start of the run, UTC. */
  readonly date: string;
  readonly quick: boolean;
  readonly record?: RecordCostResult | undefined;
  readonly workers?: WorkersResult | undefined;
  readonly pipeline?: PipelineResult | undefined;
  readonly flush?: FlushResult | undefined;
  readonly memory?: MemoryResult | undefined;
  readonly demo?: DemoResult | undefined;
  /** The same demo backup with `--workers 2`: compression and checksums in worker threads. */
  readonly demoWorkers?: DemoResult | undefined;
  /** The same demo backup into S3 (s3rver on 127.0.0.1). */
  readonly demoS3?: DemoResult | undefined;
  readonly s3Request?: S3RequestResult | undefined;
  /** Requests metered by meterHttpRequests next to unmetered ones, to a local server. */
  readonly httpRequest?: HttpRequestResult | undefined;
  /** A 200 MiB upload to Azurite through a client metered by meterBlobClient and one that is not. */
  readonly azureUpload?: AzureUploadResult | undefined;
  /** Pushes of one job to the Pushgateway (or a sink), by number of scopes. */
  readonly pushgateway?: PushgatewayResult | undefined;
  /** One write of a job's textfile, next to the Pushgateway push of the same, by number of scopes. */
  readonly textfile?: TextfileResult | undefined;
  /** The timeline's cost per flush, and the report page's size and writing time. */
  readonly timeline?: TimelineResult | undefined;
  /** Prometheus scrapes of series with histograms, by number of series. */
  readonly scrape?: ScrapeResult | undefined;
  /** The `backupstats` command: meter next to cat and pv, a gzip pipeline bare and metered, run's start-up. */
  readonly shell?: ShellResult | undefined;
  /** Benchmark name → why it crashed. */
  readonly errors: Readonly<Record<string, string>>;
}
