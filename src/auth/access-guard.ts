/**
 * Authentication and rate limiting in front of a service's four bindings (docs/operations.md,
 * "Authentication", "Rate limiting"). Mounted at <basePath><service path>, ahead of the SOAP router
 * and the HTTP bindings. It judges only requests that run an operation: POST on the .asmx (SOAP) and
 * GET/POST on <path>/<op> (HTTP). The WSDL, disco and help documents stay public (they hold no data,
 * and tooling fetches them before it has credentials), as do the 405 answers to other verbs.
 *
 * Order: credentials first, so the rate limiter counts an authenticated user as one client wherever
 * it connects from; then the limit (by user, else by address, so failed attempts count against the
 * address that makes them); then the refusal of a request without valid credentials. Nothing of the
 * request body is read before that.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Settings } from '../config';
import type { UsersTable } from '../db/schema';
import type { Service } from '../services/types';
import { pathInfo } from '../asmx/service-endpoint';
import { parseSoapContentType, unquote } from '../asmx/soap/content-type';
import { annotate } from '../asmx/request-annotation';
import { refuseRateLimited, refuseUnauthorized, refuseUnexpected, type GuardedBinding } from './access-refusals';
import type { Authenticate } from './authenticator';
import { clientAddress } from './client-address';
import { presentedCredentials } from './credentials';
import { setPrincipal } from './principal';
import type { RateLimiter } from './rate-limiter';

export interface AccessControl {
  /** Present when AUTH_MODE is not off. */
  authenticate?: Authenticate;
  /** Present when RATE_LIMIT_PER_MINUTE is above 0; shared by both services (a client is one client). */
  limiter?: RateLimiter;
}

export function accessGuard(service: Service, settings: Settings, control: AccessControl): RequestHandler {
  // Neither authentication nor a rate limit (the defaults): nothing to judge, every request passes.
  if (!control.authenticate && !control.limiter) return (_req, _res, next) => next();
  return (req, res, next) => {
    const binding = guardedBinding(req);
    if (!binding) return next();
    judge(req, res, binding, service, settings, control).then(
      (principal) => {
        if (principal === false) return;
        if (principal) setPrincipal(res, principal);
        next();
      },
      (error: unknown) => {
        annotateGuarded(req, res, binding, service);
        refuseUnexpected(res, binding, error);
      },
    );
  };
}

/** The principal (undefined with authentication off), or false when the request was refused. */
async function judge(req: Request, res: Response, binding: GuardedBinding, service: Service, settings: Settings, control: AccessControl): Promise<UsersTable | undefined | false> {
  const { authenticate, limiter } = control;
  let principal: UsersTable | undefined;
  if (authenticate) {
    const credentials = presentedCredentials(req.headers, settings.authMode, settings.authApiKeyHeader);
    principal = credentials ? await authenticate(credentials) : undefined;
  }
  if (limiter) {
    const decision = await limiter.take(principal ? `user:${principal.id}` : `address:${clientAddress(req, settings.trustProxy)}`);
    if (!decision.allowed) {
      annotateGuarded(req, res, binding, service);
      refuseRateLimited(res, binding, decision.retryAfterSeconds);
      return false;
    }
  }
  if (authenticate && !principal) {
    annotateGuarded(req, res, binding, service);
    refuseUnauthorized(res, binding, settings);
    return false;
  }
  return principal;
}

function guardedBinding(req: Request): GuardedBinding | undefined {
  const rest = pathInfo(req);
  if (rest !== '') return req.method === 'GET' || req.method === 'POST' ? { kind: 'http' } : undefined;
  if (req.method !== 'POST') return undefined;
  // A request without a SOAP media type is answered as SOAP 1.1, as the SOAP binding answers it (415).
  return { kind: 'soap', version: parseSoapContentType(req.headers['content-type'])?.version ?? '1.1' };
}

/**
 * The log line and metrics of a request the guard answers name the binding, and the operation when
 * the request names one that exists (the label values stay bounded, see request-annotation.ts).
 */
function annotateGuarded(req: Request, res: Response, binding: GuardedBinding, service: Service): void {
  if (binding.kind === 'http') {
    const name = pathInfo(req).slice(1);
    annotate(res, { binding: req.method === 'GET' ? 'httpget' : 'httppost', service: service.name });
    if (service.operations.has(name)) annotate(res, { operation: name });
    return;
  }
  annotate(res, { binding: binding.version === '1.2' ? 'soap12' : 'soap11', service: service.name });
  const action = soapAction(req, binding.version);
  const name = action?.startsWith(service.namespace) ? action.slice(service.namespace.length) : undefined;
  if (name && service.operations.has(name)) annotate(res, { operation: name });
}

function soapAction(req: Request, version: '1.1' | '1.2'): string | undefined {
  if (version === '1.2') return parseSoapContentType(req.headers['content-type'])?.action;
  const header = req.headers.soapaction;
  return typeof header === 'string' ? unquote(header) : undefined;
}
