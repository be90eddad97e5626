/** Authentication and rate limiting ahead of the bindings; it knows no protocol (its refusals' form: src/asmx/access-refusals.ts). */
import type { Settings } from '../config';
import type { UsersTable } from '../db/schema';
import { FAULT_TEXT } from '../protocol-texts';
import { annotate, type RequestOutcome } from '../request-context/annotation';
import { setPrincipal, type BindingRequest, type BindingResponse } from '../request-context/exchange';
import type { Authenticate } from './authenticator';
import { clientAddress } from '../request-context/client-address';
import { presentedCredentials } from './credentials';
import { Throttled, type Counter } from './rate-limiter';
import { Busy, BUSY_RETRY_AFTER_SECONDS } from './verification-gate';

export interface AccessControl {
  /** Present when AUTH_MODE is not off; it counts the failed logins whatever RATE_LIMIT_PER_MINUTE says. */
  authenticate?: Authenticate;
  /** Present when RATE_LIMIT_PER_MINUTE is above 0; shared by both services (a client is one client). */
  limiter?: Counter;
  /** Which authenticated users the guarded requests are for; by default every one. */
  admits?: (user: UsersTable) => boolean;
}

/** A request the guard judges, as its binding answers it. */
export interface GuardedRequest {
  /** A refusal with this status and text, in the binding's form. */
  refuse(status: 401 | 429 | 503, message: string): void;
  /** The credential check itself failed (database unreachable): the server's fault, without internals. */
  fail(error: unknown): void;
}

/** Judges a request that runs an operation (the caller decides which do), answering a refusal in `guarded`'s form. */
export type AccessGuard = (
  req: BindingRequest,
  res: BindingResponse,
  guarded: GuardedRequest,
  next: () => void,
) => void;

/** Undefined when there is nothing to check (authentication off, no rate limit). */
export function accessGuard(settings: Settings, control: AccessControl): AccessGuard | undefined {
  if (!control.authenticate && !control.limiter) return undefined;
  return (req, res, guarded, next) => {
    judge(req, res, guarded, settings, control).then(
      (principal) => {
        if (principal === false) return;
        if (principal) setPrincipal(res, principal);
        next();
      },
      (error: unknown) => guarded.fail(error),
    );
  };
}

/**
 * The principal (undefined with authentication off), or false when the request was refused. The
 * failed-login counts come before any password check, and the credentials before the rate limit, so
 * that a user is one client wherever it connects from; nothing of the body is read before.
 */
async function judge(
  req: BindingRequest,
  res: BindingResponse,
  guarded: GuardedRequest,
  settings: Settings,
  control: AccessControl,
): Promise<UsersTable | undefined | false> {
  const { authenticate, limiter, admits } = control;
  let principal: UsersTable | undefined;
  const credentials = authenticate && presentedCredentials(req.headers, settings.authMode, settings.authApiKeyHeader);
  if (authenticate && credentials) {
    try {
      principal = await authenticate(credentials, clientAddress(req, settings.trustProxy));
    } catch (error) {
      if (error instanceof Throttled) return tooManyRequests(res, guarded, error.retryAfterSeconds);
      if (!(error instanceof Busy)) throw error;
      res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      return refuse(res, guarded, 'busy', 503, FAULT_TEXT.serverBusy(BUSY_RETRY_AFTER_SECONDS));
    }
  }
  if (limiter) {
    const decision = await limiter.take(
      principal ? `user:${principal.id}` : `address:${clientAddress(req, settings.trustProxy)}`,
    );
    if (!decision.allowed) return tooManyRequests(res, guarded, decision.retryAfterSeconds);
  }
  // Another user's credentials get the answer of wrong ones: the refusal tells nothing about them.
  if (authenticate && (!principal || (admits && !admits(principal)))) {
    if (settings.authMode === 'basic' || settings.authMode === 'any') {
      res.setHeader('WWW-Authenticate', `Basic realm="${settings.authRealm}", charset="UTF-8"`);
    }
    return refuse(res, guarded, 'unauthorized', 401, FAULT_TEXT.accessDenied());
  }
  return principal;
}

function tooManyRequests(res: BindingResponse, guarded: GuardedRequest, retryAfterSeconds: number): false {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return refuse(res, guarded, 'rate_limited', 429, FAULT_TEXT.tooManyRequests(retryAfterSeconds));
}

function refuse(
  res: BindingResponse,
  guarded: GuardedRequest,
  outcome: RequestOutcome,
  status: 401 | 429 | 503,
  message: string,
): false {
  annotate(res, { outcome });
  guarded.refuse(status, message);
  return false;
}
