// `backupstats meter`: the bytes out are the bytes in, whatever the size; the ends of a pipeline stage (its output
// closed early, a SIGKILL); the progress line on a terminal. Real processes through `sh`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sampleValue } from '../../../test/support/pushgateway/group-series.js';
import { runShell, startCommand, tempDir, textfileSamples } from './cli-process.js';

const bytesOf = (file: string, operation: string) =>
  sampleValue(textfileSamples(file), 'backup_bytes_total', { operation });

describe('backupstats meter', () => {
  it('copies 0 bytes, 1 byte and 5 MiB unchanged, draws nothing when stderr is not a terminal, and exports alone', async () => {
    const dir = tempDir('meter');
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'one'), 'x');
    const data = randomBytes(5 * 1024 * 1024);
    writeFileSync(join(dir, 'data'), data);
    const ended = await runShell(
      [
        'OTEL_METRICS_EXPORTER=none backupstats meter --operation Source:Read < empty > empty.out',
        'OTEL_METRICS_EXPORTER=none backupstats meter --operation Source:Read < one > one.out',
        'backupstats meter --operation Source:Read < data > data.out',
      ].join(' && '),
      { cwd: dir, env: { OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: join(dir, 'meter.prom') } },
    );
    expect(ended).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(dir, 'empty.out')).length).toBe(0);
    expect(readFileSync(join(dir, 'one.out'), 'utf8')).toBe('x');
    expect(readFileSync(join(dir, 'data.out')).equals(data)).toBe(true);
    // Without a run it exports its own series by itself.
    expect(bytesOf(join(dir, 'meter.prom'), 'Source:Read')).toBe(data.length);
  });

  it('alone with the console exporter: its output is its input, byte for byte, and the metrics go to stderr', async () => {
    const dir = tempDir('meter-console');
    const data = randomBytes(64 * 1024);
    writeFileSync(join(dir, 'data'), data);
    const ended = await runShell('backupstats meter -q --operation Source:Read < data > data.out', {
      cwd: dir,
      env: { OTEL_METRICS_EXPORTER: 'console' },
    });
    expect(ended.code, ended.stderr).toBe(0);
    expect(readFileSync(join(dir, 'data.out')).equals(data)).toBe(true);
    expect(ended.stderr).toContain('backup.bytes');
  });

  // 2 GiB through two meters and cksum: about 6 s of CPU on two cores, so a minute of room on a busy machine.
  it('2 GiB through two meters inside a run: the same checksum out, and every stage exported exactly', {
    timeout: 120_000,
  }, async () => {
    const dir = tempDir('meter');
    // A line of 4093 bytes repeated (`yes LINE`) up to 2 GiB: no chunk size divides it, so a chunk lost, doubled or
    // reordered shows. `cat` makes that stream from an 8 MiB file of 2048 lines, 256 times, and the first 1.5 MiB of
    // it: the same bytes as `yes LINE | head -c 2147483648` for a fifth of the CPU (head copies in 8 KiB pieces).
    const line = '0123456789abcdefghijklmnopqrstuvwxyz'.repeat(114).slice(0, 4092);
    const lines = Buffer.from(`${line}\n`.repeat(2048));
    writeFileSync(join(dir, 'lines'), lines);
    writeFileSync(join(dir, 'rest'), lines.subarray(0, 2147483648 - 256 * lines.length));
    const source = `cat ${'lines '.repeat(256)}rest`;
    const started = performance.now();
    const ended = await runShell(
      `backupstats run -- sh -c '${source} | backupstats meter -q --operation Source:Read | backupstats meter -q --operation Compressor:Write | cksum > sum'`,
      { cwd: dir, env: { OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: join(dir, 'run.prom') } },
    );
    console.log(`2 GiB through two meters in a run: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(ended, ended.stderr).toMatchObject({ code: 0, stderr: '' });
    // `yes LINE | head -c 2147483648 | cksum`, computed once with GNU coreutils.
    expect(readFileSync(join(dir, 'sum'), 'utf8').trim()).toBe('42074425 2147483648');
    const file = join(dir, 'run.prom');
    expect(['Source:Read', 'Compressor:Write', 'Destination:Write'].map((op) => bytesOf(file, op))).toEqual([
      2147483648, 2147483648, 2147483648,
    ]);
  });

  it('its exporter cannot start (its port is taken): exit 2 with the message and code, and not one byte copied', async () => {
    const dir = tempDir('meter');
    writeFileSync(join(dir, 'data'), randomBytes(1024 * 1024));
    // The port is found taken only once the SDK is loaded: the copy, ready by then, must still not have started.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const { port } = taken.address() as AddressInfo;
    const ended = await runShell('backupstats meter -q --operation Source:Read < data > data.out', {
      cwd: dir,
      env: {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      },
    });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain('(BACKUPSTATS_LISTEN_FAILED)');
    expect(statSync(join(dir, 'data.out')).size).toBe(0);
  });

  it('keeps its input and output pipes blocking while it copies: neither set-up nor its thread opens them as streams', async () => {
    const dir = tempDir('meter');
    // The meter's own fds 0 and 1, read from /proc once its first byte came out: its set-up is over and it copies.
    const ended = await runShell(
      [
        'mkfifo in piped',
        'cat piped > out &',
        'backupstats meter -q --operation Source:Read < in > piped &',
        'pid=$!',
        'exec 3> in',
        'printf x >&3',
        'while [ ! -s out ]; do sleep 0.01; done',
        'grep -h ^flags: /proc/$pid/fdinfo/0 /proc/$pid/fdinfo/1',
        'exec 3>&-',
        'wait',
      ].join('\n'),
      { cwd: dir, env: { OTEL_METRICS_EXPORTER: 'none' } },
    );
    expect(ended).toMatchObject({ code: 0, stderr: '' });
    const flags = [...ended.stdout.matchAll(/^flags:\s*([0-7]+)/gm)].map((match) => Number.parseInt(match[1] ?? '', 8));
    expect(flags).toHaveLength(2);
    // O_NONBLOCK is 04000 on Linux.
    expect(flags.map((value) => value & 0o4000)).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('x');
  });

  it('its output closed early (head -c 1): it ends by SIGPIPE as a pipeline stage does, without a stack trace', async () => {
    const ended = await runShell(
      '(yes | backupstats meter -q --operation Source:Read; echo "meter status $?" >&2) | head -c 1 > /dev/null',
      { env: { OTEL_METRICS_EXPORTER: 'none' } },
    );
    expect(ended.code).toBe(0);
    // 128 + 13: killed by SIGPIPE.
    expect(ended.stderr).toBe('meter status 141\n');
  });

  it('killed with SIGKILL inside a run: the run keeps the whole reads it was told of, never more than went through', async () => {
    const dir = tempDir('meter');
    writeFileSync(join(dir, 'data'), randomBytes(1024 * 1024));
    // The meter copies 1 MiB, then waits on a source that stays open (the FIFO's writer, fd 3 of the shell); the
    // test kills it once the 1 MiB is out.
    const script = [
      'mkfifo in',
      'backupstats meter -q --operation Source:Read < in > out & m=$!',
      'exec 3> in',
      'echo $m > meter.pid',
      'cat data >&3',
      'wait $m',
      'echo "meter status $?"',
    ].join('\n');
    const run = startCommand(['backupstats', 'run', '--', 'sh', '-c', script], {
      cwd: dir,
      env: { OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: join(dir, 'run.prom') },
    });
    await expect
      .poll(() => existsSync(join(dir, 'out')) && statSync(join(dir, 'out')).size, { timeout: 20_000 })
      .toBe(1024 * 1024);
    process.kill(Number(readFileSync(join(dir, 'meter.pid'), 'utf8')), 'SIGKILL');
    const ended = await run.ended;
    expect(ended, ended.stderr).toMatchObject({ code: 0 });
    expect(ended.stdout).toContain('meter status 137');
    const exported = bytesOf(join(dir, 'run.prom'), 'Source:Read') ?? 0;
    expect(exported).toBeGreaterThan(0);
    expect(exported).toBeLessThanOrEqual(1024 * 1024);
  });

  it('on a terminal it draws a progress line with bytes, rate, percent and time left; --quiet draws none', async () => {
    // script(1) gives the command a terminal; what the meter draws there comes back on script's stdout.
    const command = (flags: string) =>
      `script -qec "head -c 3000000 /dev/zero | backupstats meter ${flags} --operation Source:Read --size 3000000 > /dev/null" /dev/null`;
    const [shown, quiet] = await Promise.all([
      runShell(command(''), { env: { OTEL_METRICS_EXPORTER: 'none' } }),
      runShell(command('--quiet'), { env: { OTEL_METRICS_EXPORTER: 'none' } }),
    ]);
    expect(shown.code).toBe(0);
    // Redrawn in place (\r), erased to the end of the line (ESC [K), ended with a new line.
    const last = shown.stdout.slice(shown.stdout.lastIndexOf('\rSource:Read'));
    expect(last.replace(String.fromCharCode(27), 'ESC')).toMatch(
      /^\rSource:Read {2}2\.86 MiB {2}\S+ \S+\/s {2}0:\d\d {2}100 % {2}ETA 0:00ESC\[K\r?\n$/,
    );
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
  });
});
