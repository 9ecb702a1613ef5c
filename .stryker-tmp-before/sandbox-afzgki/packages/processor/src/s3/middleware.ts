// @ts-nocheck
// The slice of the AWS SDK v3 middleware stack (smithy) these middlewares use, typed here so that only the
// public entry names @aws-sdk/client-s3.

/** What a handler receives: the command's input and, from the build step on, the HTTP request. */
export interface HandlerArguments {
  readonly input?: unknown;
  readonly request?: unknown;
}

/** What a handler resolves to: the command's output and, below the initialize step, the HTTP response. */
export interface HandlerOutput {
  readonly output?: unknown;
  readonly response?: unknown;
}

/** A handler of one step. */
export type Handler = (args: HandlerArguments) => Promise<HandlerOutput>;

/** Per command invocation, shared by every step; `commandName` is e.g. `PutObjectCommand`. */
export interface HandlerContext {
  readonly commandName?: string;
  [key: string]: unknown;
}

/** A middleware: called once per command invocation with the next handler. */
export type Middleware = (next: Handler, context: HandlerContext) => Handler;

/** The stack operations used to add and remove the middlewares. */
export interface MiddlewareStackLike {
  add(middleware: Middleware, options: { step: string; priority: string; name: string; tags: string[] }): void;
  remove(name: string): boolean;
  identify(): string[];
}
