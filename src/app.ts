/**
 * App assembly without listen (style.md): the two services, each at
 * <basePath>/API/<Service>.asmx with its documents (GET), SOAP (POST) and HTTP GET/POST bindings
 * (<path>/<op>). No global body parser: every binding reads its own body with its own limits.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Settings } from './config';
import type { Engine } from './db/engine';
import { systemClock, type Clock, type OperationContext } from './operations/types';
import type { Service } from './services/types';
import { createMobileAppService } from './services/mobile-app';
import { createSyncCustomersService } from './services/sync-customers';
import { assertContract, loadServiceDescription, type ServiceDescription } from './asmx/contract';
import { serviceEndpoint } from './asmx/service-endpoint';
import { soapRouter } from './asmx/soap';
import { sendPlainError } from './asmx/plain-error';

export interface AppOptions {
  settings: Settings;
  engine: Engine;
  clock?: Clock;
}

export function createServices(options: AppOptions): Service[] {
  const { settings, engine } = options;
  const context: OperationContext = {
    db: engine.db,
    engine,
    clock: options.clock ?? systemClock,
    settings: {
      dateOrder: settings.dateOrder,
      fiscalYearStartMonth: settings.fiscalYearStartMonth,
      maxFileBytes: settings.maxFileBytes,
      maxFilesPerRequest: settings.maxFilesPerRequest,
      maxRequestFilesBytes: settings.maxRequestFilesBytes,
    },
  };
  return [
    createMobileAppService({ namespace: settings.apiNamespace, context }),
    createSyncCustomersService({ namespace: settings.syncNamespace }),
  ];
}

/**
 * Throws ContractMismatchError when a WSDL and its service object differ (architecture.md: the
 * server refuses to start), so an app that exists always serves what its WSDL promises.
 */
export function createApp(options: AppOptions): Express {
  const { settings } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  for (const service of createServices(options)) {
    const description = checkedDescription(service);
    app.use(soapRouter(service, description.wsdlTemplate, settings));
    app.use(settings.basePath + service.path, serviceEndpoint(service, description, settings));
  }
  app.use(notFound);
  app.use(unexpectedError);
  return app;
}

function checkedDescription(service: Service): ServiceDescription {
  const description = loadServiceDescription(service);
  assertContract(description, service);
  return description;
}

function notFound(_req: Request, res: Response): void {
  res.status(404).type('text/plain; charset=utf-8').send('Not Found\r\n');
}

/** Last resort: never a stack trace or an internal message to the client (style.md). */
function unexpectedError(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const status = (err as { status?: number }).status;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (status === 400 || status === 413) {
    sendPlainError(res, status, status === 413 ? 'Request entity too large.' : 'Bad request.');
    return;
  }
  sendPlainError(res, 500, 'Server was unable to process request.');
}
