/**
 * A request and its response as every layer before a binding sees them: Node's own objects with the
 * few fields Express's have too, so that a handler serves both without Express's prototypes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UsersTable } from '../db/schema';

export interface BindingRequest extends IncomingMessage {
  /** A server's request always has its method (Node types it for client responses too). */
  method: string;
  /** The URL as sent. */
  originalUrl: string;
}

export interface BindingResponse extends ServerResponse {
  /** What the layers leave for each other on one request: the principal, the log annotation. */
  locals: Record<string, unknown>;
}

/** Gives a plain Node request and response the fields above. */
export function asBindingExchange(req: IncomingMessage, res: ServerResponse): asserts req is BindingRequest {
  const request = req as Partial<BindingRequest>;
  request.originalUrl ??= req.url ?? '';
  (res as Partial<BindingResponse>).locals ??= Object.create(null) as Record<string, unknown>;
}

/**
 * Calls `fn` once `message` (a request or a response) has closed: at once when it already has, since a
 * 'close' listener added later never runs (the client left while the request waited for something).
 */
export function whenClosed(message: NodeJS.EventEmitter & { readonly closed: boolean }, fn: () => void): void {
  if (message.closed) fn();
  else message.once('close', fn);
}

/** The authenticated user of a request, kept on res.locals from the access guard to the bindings. */
export function setPrincipal(res: BindingResponse, principal: UsersTable): void {
  res.locals.principal = principal;
}

/** undefined when authentication is off (AUTH_MODE=off). */
export function principalOf(res: BindingResponse): UsersTable | undefined {
  return res.locals.principal as UsersTable | undefined;
}
