// meterWritable refuses, at the call, what is not a stream.Writable (it would never call _write / _writev, so
// nothing would be recorded), naming what it got and what to use instead.
import { meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';

const meter =
  (stream: unknown): (() => unknown) =>
  () =>
    meterWritable(stream as never, createRecordingStats());

describe('meterWritable on something that is not a stream.Writable', () => {
  it('says what it got, why nothing would be recorded, and what to do instead', () => {
    class Uploader {}
    expect(meter(new Uploader())).toThrow(
      new TypeError(
        'backupstats: meterWritable stream is an instance of Uploader (it is not a stream.Writable and never calls _write / ' +
          '_writev, so metering it in place would record nothing; http.ClientRequest and ServerResponse are such ' +
          'streams); accepted: a stream.Writable; to meter an upload, meter the data on its way in instead: pipe it ' +
          'through meterTransform(new PassThrough(), stats), or meter the source with meterReadable; for S3 uploads ' +
          "with the AWS SDK, use meterS3Client from 'backupstats/s3'",
      ),
    );
  });

  it.each([
    ['a plain object', {}, 'an object'],
    ['an instance of an anonymous class', new (class {})(), 'an object'],
    ['an object without a prototype', Object.create(null), 'an object'],
    ['null', null, 'null'],
    ['a string', 'upload', '"upload"'],
    ['undefined', undefined, 'undefined'],
    ['an http.ClientRequest', new (class ClientRequest {})(), 'an http\\.ClientRequest'],
  ])('%s is named by its class, or as a value when it has no class name', (_case, stream, what) => {
    expect(meter(stream)).toThrow(
      new RegExp(`^backupstats: meterWritable stream is ${what} \\(it is not a stream\\.Writable `),
    );
  });
});
