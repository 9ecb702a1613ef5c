import * as diagnostics from 'node:diagnostics_channel';
import { HttpOperation } from '../api/http-operation.js';
import { Component } from '../api/labels.js';
import type { Stats } from '../api/stats.js';
import { optionsOf, requireStats } from '../base/arguments.js';
import { describeValue, ERROR_CODES, notAccepted, notAcceptedArgument } from '../base/errors.js';
import { declaredLength, FAILED, type HttpOutcome, outcomeOfStatus, THROTTLED } from '../base/http-outcome.js';
import { noop } from '../base/noop.js';
import { byteLengthOf, isObject } from '../base/values.js';
import { portOfRequest, type Target, targetsOf } from './origins.js';

/** The options of {@link meterHttpRequests}. */
export interface MeterHttpRequestsOptions {
  /**
   * The origin whose requests are metered: scheme, host and port (`https://storage.googleapis.com`,
   * `http://127.0.0.1:10000`), compared exactly with the request's; or an array of origins.
   */
  readonly origin: string | readonly string[];
}

/** The `implementation` label when the caller set none. */
const HTTP_IMPLEMENTATION = 'HTTP';

// The channels Node.js publishes every client request on: node:http / node:https and fetch (undici).
const HTTP_START = 'http.client.request.start';
const HTTP_RESPONSE = 'http.client.response.finish';
const HTTP_ERROR = 'http.client.request.error';
const UNDICI_CREATE = 'undici:request:create';
const UNDICI_HEADERS = 'undici:request:headers';
const UNDICI_TRAILERS = 'undici:request:trailers';
const UNDICI_ERROR = 'undici:request:error';

/** The series one attempt records on. */
interface Scopes {
  readonly send: Stats;
  readonly failed: Stats;
  readonly throttled: Stats;
}

/** One request attempt in flight. */
class Attempt {
  /** Bytes of the request body sent. */
  sent: number;
  /** Bytes of the response body received. */
  received = 0;
  /** The response's status, 0 until it came. */
  status = 0;
  /** Recorded already: an attempt ends once, whichever of its ends comes first. */
  done = false;

  constructor(
    readonly start: number,
    sent: number,
  ) {
    this.sent = sent;
  }

  /** Records the attempt on `scopes` as having ended with `outcome`, once. */
  end(scopes: Scopes, outcome: HttpOutcome): void {
    if (this.done) return;
    this.done = true;
    const durationMillis = performance.now() - this.start;
    const bytes = this.sent + this.received;
    scopes.send.timedIncrementBytes(bytes, durationMillis);
    if (outcome === FAILED) scopes.failed.timedIncrementBytes(bytes, durationMillis);
    else if (outcome === THROTTLED) scopes.throttled.timedIncrementBytes(bytes, durationMillis);
  }
}

/** The parts of an `http.ClientRequest` read here. */
interface NodeRequest {
  readonly host?: unknown;
  readonly socket?: { readonly bytesWritten?: unknown; readonly remotePort?: unknown } | null;
  readonly reusedSocket?: unknown;
  readonly _header?: unknown;
  readonly protocol?: unknown;
  readonly method?: unknown;
  getHeader(name: string): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/** The parts of an `http.IncomingMessage` read here. */
interface NodeResponse {
  readonly statusCode?: number | undefined;
  readonly complete: boolean;
  push(chunk: unknown, encoding?: string): boolean;
  once(event: 'end' | 'close', listener: () => void): unknown;
}

/** The parts of an undici request read here. */
interface UndiciRequest {
  readonly origin?: unknown;
  readonly contentLength?: unknown;
  onBodySent?: (chunk: unknown) => unknown;
  onData?: (chunk: unknown) => unknown;
}

/**
 * Meters every HTTP request attempt that any client of this process sends to `origin`, through `node:http` /
 * `node:https` (the AWS SDK, `@azure/storage-blob`, gaxios) and through `fetch`, from Node.js's
 * `diagnostics_channel`. On `stats` scoped to `BackupStorage` / `HTTP` (labels already set on `stats` win, so
 * `stats.backup.scope({ implementation: Implementation.GCS })` records under `BackupStorage/GCS`):
 * - each attempt, retries included, is one `HTTP:Request:Send` with its duration (from the request handed to
 *   Node to the end of its response body, or its error) and the bytes of its request and response bodies;
 * - an attempt that ended in a network error, a time-out, an abort, a 4xx or a 5xx is also one
 *   `HTTP:Request:Failed`, or `HTTP:Request:Throttled` for 429 and 503 (see {@link HttpOperation}).
 *
 * A request to another origin costs one comparison; once removed, nothing.
 *
 * @returns a function that removes the subscriptions (calls after the first do nothing); attempts in flight are
 * still recorded when they end.
 * @throws TypeError when `stats` is not a {@link Stats} or has its `operation` set, or `origin` is not an origin;
 * TypeError `BACKUPSTATS_UNSUPPORTED_RUNTIME` on a runtime without `diagnostics_channel.subscribe`.
 */
export function meterHttpRequests(stats: Stats, options: MeterHttpRequestsOptions): () => void {
  const fn = 'meterHttpRequests';
  requireStats(ERROR_CODES.INVALID_ARGUMENT, fn, stats);
  const example = '{ origin: "https://storage.googleapis.com" }';
  // The options are required (the origin has no default): refused here, before optionsOf offers to leave them out.
  if (!isObject(options)) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${fn} options`,
      describeValue(options),
      `an object such as ${example}`,
    );
  }
  const { origin } = optionsOf(fn, options, example, ['origin']);
  const targets = targetsOf(fn, origin);
  if (typeof diagnostics.subscribe !== 'function') {
    throw notAccepted(
      ERROR_CODES.UNSUPPORTED_RUNTIME,
      `${fn}: this runtime (Node.js ${process.versions.node})`,
      'without diagnostics_channel.subscribe',
      `Node.js 20.6 or later, which publishes the channels ${HTTP_START}, ${HTTP_RESPONSE} and undici:request:*`,
    );
  }

  const storage = stats.scope({ component: Component.BackupStorage, implementation: HTTP_IMPLEMENTATION });
  const scopes: Scopes = {
    send: storage.scope({ operation: HttpOperation.RequestSend }),
    failed: storage.scope({ operation: HttpOperation.RequestFailed }),
    throttled: storage.scope({ operation: HttpOperation.RequestThrottled }),
  };
  // The first value of a label wins: two operations giving one handle means `stats` has its operation set.
  if (stats.timedIncrement !== noop && scopes.send === scopes.failed) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      fn,
      'stats',
      stats,
      'a Stats whose operation is unset, such as backupStats.backup or backupStats.backup.scope({ implementation }): meterHttpRequests sets HTTP:Request:Send, … itself',
      'its operation is set, so every attempt would be recorded under that one',
    );
  }

  // Only the first comparison runs for a request to another origin: the host (node:http) or the origin (fetch)
  // against one string, or a Set of them when there are several. The Set would give one origin the same answers, so
  // a mutant that takes the Set path where `single !== undefined` is tested survives, equivalent.
  // Stryker disable next-line ConditionalExpression: the Set path gives one origin the same answer: this spares lookups
  const single = targets.length === 1 ? (targets[0] as Target) : undefined;
  const hosts = new Set(targets.map((target) => target.host));
  const origins = new Set(targets.map((target) => target.origin));
  const attempts = new WeakMap<object, Attempt>();
  // Per socket, its bytes written when the last metered request on it started: a keep-alive socket carries one
  // request after another, and the difference is the next request's.
  const written = new WeakMap<object, number>();

  // The port: the socket's peer once connected; before (a new socket at the start), the one the Host header
  // names, which the response confirms (a proxy forwarding with the client's Host header is to another port).
  const isTargetRequest = (request: NodeRequest, remotePort?: unknown): boolean => {
    const port =
      typeof remotePort === 'number' ? remotePort : portOfRequest(request.getHeader('host'), String(request.protocol));
    // The path below gives one origin the same answer: its host was compared before.
    // Stryker disable next-line ConditionalExpression,BlockStatement: see above
    if (single !== undefined) {
      return port === single.port && request.protocol === single.protocol;
    }
    return targets.some(
      (target) => target.host === request.host && target.protocol === request.protocol && target.port === port,
    );
  };

  const onHttpStart = (message: unknown): void => {
    const request = (message as { request: NodeRequest }).request;
    if (single !== undefined ? request.host !== single.host : !hosts.has(request.host as string)) return;
    // Stryker disable next-line OptionalChaining: Node publishes the start with the request on its socket
    if (!isTargetRequest(request, request.socket?.remotePort)) return;
    const attempt = new Attempt(performance.now(), sentBodyBytes(request, written));
    attempts.set(request, attempt);
    // An attempt that ends without a response and without an error (destroyed quietly) ends here.
    // (It closes after its response ended or closed, which ended the attempt: `true` for the check is equivalent.)
    request.once('close', () => {
      if (attempt.status === 0) attempt.end(scopes, FAILED);
    });
  };

  const onHttpResponse = (message: unknown): void => {
    const { request, response } = message as { request: NodeRequest; response: NodeResponse };
    const attempt = attempts.get(request);
    if (attempt === undefined) return;
    // Stryker disable next-line OptionalChaining: a response came over the request's socket
    if (!isTargetRequest(request, request.socket?.remotePort)) {
      // Sent to another port than its Host header said: not a request to the origin after all. The attempt stays
      // in the map, ended without a record, so that an error of the request later is not taken for one that failed
      // before its start.
      attempt.done = true;
      return;
    }
    attempt.status = response.statusCode ?? 0;
    // The body flows after this message: count what the parser pushes, as it came over the wire.
    const push = response.push;
    response.push = function countedPush(this: NodeResponse, chunk: unknown, encoding?: string): boolean {
      // byteLengthOf counts null (the end) as 0: the check only spares the call.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
      if (chunk !== null && chunk !== undefined) attempt.received += byteLengthOf(chunk, encoding);
      return push.call(this, chunk, encoding);
    };
    // Stryker disable next-line CallExpression,StringLiteral,ArrowFunction: the close after the end records the same
    response.once('end', () => attempt.end(scopes, outcomeOfStatus(attempt.status)));
    // Closed before its end: reset, aborted or destroyed mid-body.
    response.once('close', () => attempt.end(scopes, response.complete ? outcomeOfStatus(attempt.status) : FAILED));
  };

  const onHttpError = (message: unknown): void => {
    const request = (message as { request: NodeRequest }).request;
    const attempt = attempts.get(request);
    if (attempt !== undefined) {
      // Stryker disable next-line CallExpression: the request's close, right after its error, ends it the same way
      attempt.end(scopes, FAILED);
      return;
    }
    // An attempt that failed before Node published its start (aborted while its body was being written): it is
    // counted, with no time known (weight 0 keeps it out of the latency histogram) and no bytes.
    if (single !== undefined ? request.host !== single.host : !hosts.has(request.host as string)) return;
    // Its socket's peer when it has one: a request on a socket to another port (its start was left out) is not one.
    if (!isTargetRequest(request, request.socket?.remotePort)) return;
    scopes.send.timedIncrementBytes(0, 0, 0);
    scopes.failed.timedIncrementBytes(0, 0, 0);
  };

  const onUndiciCreate = (message: unknown): void => {
    const request = (message as { request: UndiciRequest }).request;
    if (single !== undefined ? request.origin !== single.origin : !origins.has(request.origin as string)) return;
    const attempt = new Attempt(performance.now(), 0);
    attempts.set(request, attempt);
    // undici hands each chunk of the body it wrote, and of the body it received, to these two methods of the
    // request; without them the declared length is all there is.
    const bodySent = request.onBodySent;
    // Stryker disable next-line ConditionalExpression,BlockStatement: the undici of Node.js 20 and 22 has both methods
    if (typeof bodySent !== 'function') {
      attempt.sent = declaredLength(request.contentLength);
    } else {
      request.onBodySent = function countedBodySent(this: UndiciRequest, chunk: unknown): unknown {
        attempt.sent += byteLengthOf(chunk);
        return bodySent.call(this, chunk);
      };
    }
    const onData = request.onData;
    // Stryker disable next-line ConditionalExpression: see above
    if (typeof onData === 'function') {
      request.onData = function countedData(this: UndiciRequest, chunk: unknown): unknown {
        attempt.received += byteLengthOf(chunk);
        return onData.call(this, chunk);
      };
    }
  };

  const onUndiciHeaders = (message: unknown): void => {
    const { request, response } = message as { request: object; response: { statusCode?: number } };
    const attempt = attempts.get(request);
    if (attempt !== undefined) attempt.status = response.statusCode ?? 0;
  };

  const onUndiciTrailers = (message: unknown): void => {
    const attempt = attempts.get((message as { request: object }).request);
    if (attempt !== undefined) attempt.end(scopes, outcomeOfStatus(attempt.status));
  };

  const onUndiciError = (message: unknown): void => {
    const attempt = attempts.get((message as { request: object }).request);
    if (attempt !== undefined) attempt.end(scopes, FAILED);
  };

  const subscriptions: [string, (message: unknown) => void][] = [
    [HTTP_START, onHttpStart],
    [HTTP_RESPONSE, onHttpResponse],
    [HTTP_ERROR, onHttpError],
    [UNDICI_CREATE, onUndiciCreate],
    [UNDICI_HEADERS, onUndiciHeaders],
    [UNDICI_TRAILERS, onUndiciTrailers],
    [UNDICI_ERROR, onUndiciError],
  ];
  for (const [name, listener] of subscriptions) diagnostics.subscribe(name, listener);
  let removed = false;
  return () => {
    // Unsubscribing a listener already gone does nothing: the flag only spares the calls.
    // Stryker disable next-line ConditionalExpression: see above
    if (removed) return;
    // Stryker disable next-line BooleanLiteral: see above
    removed = true;
    for (const [name, listener] of subscriptions) diagnostics.unsubscribe(name, listener);
  };
}

/**
 * The bytes of a node:http request's body. Node publishes the start once `end()` was called and the request is on
 * its socket, so the whole body has been handed to the socket by then. A body of declared length (what storage
 * clients send) is that length. A chunked body (gaxios streams its uploads) is what the socket took for this
 * request after its header: the body as it goes over the wire, its chunk framing included (a few bytes per chunk).
 * That difference is known when this request is the socket's first, or when the request before it on the socket
 * was metered; otherwise the body counts 0.
 */
function sentBodyBytes(request: NodeRequest, written: WeakMap<object, number>): number {
  const socket = request.socket;
  // Node publishes the start with the request on its socket, a net.Socket whose bytesWritten is a number, and its
  // header written: the checks of the next three lines and of `total` and `header` below guard other requests.
  // Stryker disable next-line ConditionalExpression,OptionalChaining: see above
  const total = typeof socket?.bytesWritten === 'number' ? socket.bytesWritten : undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
  const before = socket === null || socket === undefined ? undefined : written.get(socket);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
  if (socket !== null && socket !== undefined && total !== undefined) written.set(socket, total);
  const declared = request.getHeader('content-length');
  if (declared !== undefined) return declaredLength(declared);
  const header = request._header;
  const since = before ?? (request.reusedSocket === true ? undefined : 0);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
  if (total === undefined || typeof header !== 'string') return 0;
  if (since === undefined) return 0;
  return Math.max(0, total - since - Buffer.byteLength(header, 'latin1'));
}
