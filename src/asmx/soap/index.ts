/**
 * The SOAP 1.1 and SOAP 1.2 bindings of one service (contract.md, "SOAP").
 *
 * export function soapRouter(service: Service, wsdlXml: string, settings: Settings): express.Router
 *
 * Mount at the application root, once per service: app.use(soapRouter(service, wsdlXml, settings)).
 * The router answers only requests to exactly settings.basePath + service.path (no path info):
 * POST -> SOAP; HEAD, PUT, DELETE, OPTIONS -> 405. Everything else (GET, POST <path>/<op>) falls through.
 * wsdlXml is the service's WSDL text with the namespace already filled in.
 */
import { Router } from 'express';
import type { Settings } from '../../config';
import type { Service } from '../../services/types';

export function soapRouter(service: Service, wsdlXml: string, settings: Settings): Router {
  void service;
  void wsdlXml;
  void settings;
  return Router();
}
