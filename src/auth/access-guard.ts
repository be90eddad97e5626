/**
 * Authentication and rate limiting in front of a service's bindings (docs/operations.md,
 * "Authentication", "Rate limiting"). Mounted at <basePath><service path>, ahead of the bindings. The
 * bindings tell it which requests run an operation and answer its refusals in their own form
 * (BindingDoor: src/asmx/access-refusals.ts); this module knows no protocol.
 *
 * Order: the failed-login counts of the presented credentials (login-throttle.ts), before any
 * password is verified; then the credentials, so the rate limiter counts an authenticated user as one
 * client wherever it connects from (a failure adds to the failed-login counts); then the limit (by
 * user, else by address, so failed attempts count against the address that makes them); then the
 * refusal of a request without valid credentials. Nothing of the request body is read before that.
 * A 401 carries the Basic challenge whenever Basic credentials are accepted; a 429 carries
 * Retry-After, and so does the 503 of a password check that found the verification gate full
 * (verification-gate.ts).
 */
import type { Settings } from '../config';
import type { UsersTable } from '../db/schema';
import { FAULT_TEXT } from '../protocol-texts';
import { annotate } from '../request-context/annotation';
import type { BindingRequest, BindingResponse } from '../request-context/exchange';
import { setPrincipal } from '../request-context/principal';
import type { Authenticate } from './authenticator';
import { clientAddress } from './client-address';
import { presentedCredentials } from './credentials';
import type { LoginThrottle } from './login-throttle';
import type { RateLimiter } from './rate-limiter';
import { Busy, BUSY_RETRY_AFTER_SECONDS } from './verification-gate';

export interface AccessControl {
  /** Present when AUTH_MODE is not off. */
  authenticate?: Authenticate;
  /** Present with authenticate: the failed logins, counted whatever RATE_LIMIT_PER_MINUTE says. */
  throttle?: LoginThrottle;
  /** Present when RATE_LIMIT_PER_MINUTE is above 0; shared by both services (a client is one client). */
  limiter?: RateLimiter;
}

/** A request the guard judges, as its binding answers it. */
export interface GuardedRequest {
  /** Names the binding, the service and (when it exists) the operation on the request's log line and metrics. */
  annotate(): void;
  /** A refusal with this status and text, in the binding's form. */
  refuse(status: 401 | 429 | 503, message: string): void;
  /** The credential check itself failed (database unreachable): the server's fault, without internals. */
  fail(error: unknown): void;
}

export interface BindingDoor {
  /** The request as its binding answers it, or undefined for a request that runs no operation (it passes unjudged). */
  guarded(req: BindingRequest, res: BindingResponse): GuardedRequest | undefined;
}

/** Node's request and response with the shared fields, so Express's serve too (request-context/exchange.ts). */
type AccessGuard = (req: BindingRequest, res: BindingResponse, next: () => void) => void;

export function accessGuard(door: BindingDoor, settings: Settings, control: AccessControl): AccessGuard {
  // Neither authentication nor a rate limit (the defaults): nothing to judge, every request passes.
  if (!control.authenticate && !control.limiter) return (_req, _res, next) => next();
  return (req, res, next) => {
    const guarded = door.guarded(req, res);
    if (!guarded) return next();
    judge(req, res, guarded, settings, control).then(
      (principal) => {
        if (principal === false) return;
        if (principal) setPrincipal(res, principal);
        next();
      },
      (error: unknown) => {
        guarded.annotate();
        guarded.fail(error);
      },
    );
  };
}

/** The principal (undefined with authentication off), or false when the request was refused. */
async function judge(req: BindingRequest, res: BindingResponse, guarded: GuardedRequest, settings: Settings, control: AccessControl): Promise<UsersTable | undefined | false> {
  const { authenticate, throttle, limiter } = control;
  let principal: UsersTable | undefined;
  const credentials = authenticate && presentedCredentials(req.headers, settings.authMode, settings.authApiKeyHeader);
  if (authenticate && credentials) {
    const address = clientAddress(req, settings.trustProxy);
    const admitted = await throttle?.admits(address, credentials);
    if (admitted && !admitted.allowed) return tooManyRequests(res, guarded, admitted.retryAfterSeconds);
    try {
      principal = await authenticate(credentials);
    } catch (error) {
      if (!(error instanceof Busy)) throw error;
      guarded.annotate();
      annotate(res, { outcome: 'busy' });
      res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      guarded.refuse(503, FAULT_TEXT.serverBusy(BUSY_RETRY_AFTER_SECONDS));
      return false;
    }
    if (!principal) await throttle?.failed(address, credentials);
  }
  if (limiter) {
    const decision = await limiter.take(principal ? `user:${principal.id}` : `address:${clientAddress(req, settings.trustProxy)}`);
    if (!decision.allowed) return tooManyRequests(res, guarded, decision.retryAfterSeconds);
  }
  if (authenticate && !principal) {
    guarded.annotate();
    annotate(res, { outcome: 'unauthorized' });
    if (settings.authMode === 'basic' || settings.authMode === 'any') {
      res.setHeader('WWW-Authenticate', `Basic realm="${settings.authRealm}", charset="UTF-8"`);
    }
    guarded.refuse(401, FAULT_TEXT.accessDenied());
    return false;
  }
  return principal;
}

function tooManyRequests(res: BindingResponse, guarded: GuardedRequest, retryAfterSeconds: number): false {
  guarded.annotate();
  annotate(res, { outcome: 'rate_limited' });
  res.setHeader('Retry-After', String(retryAfterSeconds));
  guarded.refuse(429, FAULT_TEXT.tooManyRequests(retryAfterSeconds));
  return false;
}
