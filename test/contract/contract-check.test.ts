/**
 * The start-up check (docs/architecture.md): the WSDL and the implementation can never drift. The check
 * passes for the real WSDL files and services, and names every difference of a drifted one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createApp, createServices } from '../../src/app';
import { loadSettings } from '../../src/config';
import {
  assertContract,
  ContractMismatchError,
  contractDifferences,
  describeWsdl,
  loadServiceDescription,
} from '../../src/asmx/contract';
import { createMobileAppService } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';
import type { Operation } from '../../src/operations/types';
import { suiteEngine } from '../support/engines';
import type { Engine } from '../../src/db/engine';

const NS = 'http://tempuri.org/';
const mainWsdl = fs.readFileSync(path.join(__dirname, '../../wsdl/MobileAppWebService.wsdl'), 'utf8');

let engine: Engine;
suiteEngine('sqlite', (opened) => (engine = opened));

function mainService(operations: readonly Operation[] = mainServiceOperations) {
  const context = {
    db: engine.db,
    engine,
    clock: { now: () => new Date() },
    settings: { dateOrder: 'DMY' as const, fiscalYearStartMonth: 4, maxFileBytes: 1, maxFilesPerRequest: 1, maxRequestFilesBytes: 1 },
  };
  return createMobileAppService({ namespace: NS, context, operations });
}

describe('contract check', () => {
  it('passes for both real services and their WSDL files', () => {
    const services = createServices({ settings: loadSettings({}), engine });
    expect(services.map((s) => s.name)).toEqual(['MobileAppWebService', 'SyncCustomers']);
    for (const service of services) {
      const description = loadServiceDescription(service);
      expect(contractDifferences(description, service)).toEqual([]);
      expect(() => assertContract(description, service)).not.toThrow();
    }
  });

  it('reads the operations of the main WSDL, in WSDL order, with their parameters', () => {
    const description = describeWsdl(mainWsdl, NS);
    expect(description.serviceName).toBe('MobileAppWebService');
    expect(description.targetNamespace).toBe(NS);
    expect(description.operations.map((op) => op.name).sort()).toEqual(mainServiceOperations.map((op) => op.name).sort());
    expect(description.operations[0].name).toBe('getSalesSummaryRecords');
    expect(description.operations.find((op) => op.name === 'getPCNList')?.params).toEqual([
      'SalesOfficer',
      'Customer',
      'PaymentType',
      'PaymentMethod',
    ]);
    expect(description.operations.find((op) => op.name === 'CreateWarrantyRequest')?.params).toEqual([]);
  });

  it('fills the namespace everywhere and keeps the address placeholder', () => {
    const description = describeWsdl(mainWsdl, 'urn:example:api/');
    expect(description.wsdlTemplate).not.toContain('{{namespace}}');
    expect(description.wsdlTemplate).toContain('soapAction="urn:example:api/getPCNList"');
    expect(description.wsdlTemplate).toContain('{{address}}');
  });

  it('names an operation of the WSDL that has no implementation', () => {
    const service = mainService(mainServiceOperations.filter((op) => op.name !== 'getPCNInvoices'));
    expect(contractDifferences(describeWsdl(mainWsdl, NS), service)).toEqual([
      'operation getPCNInvoices of the WSDL has no implementation',
    ]);
  });

  it('names an implementation that has no WSDL operation', () => {
    const drifted = mainWsdl.replace(/<wsdl:portType name="MobileAppWebServiceSoap">[\s\S]*?<wsdl:operation name="getPCNList">[\s\S]*?<\/wsdl:operation>/, (m) =>
      m.replace(/<wsdl:operation name="getPCNList">[\s\S]*?<\/wsdl:operation>/, ''),
    );
    expect(contractDifferences(describeWsdl(drifted, NS), mainService())).toEqual([
      'operation getPCNList is implemented but not in the WSDL',
    ]);
  });

  it('names a parameter list that differs in order, case or content, and every difference at once', () => {
    const drifted = mainWsdl
      .replace(
        '<s:element minOccurs="0" maxOccurs="1" name="PaymentType" type="s:string" />\n            <s:element minOccurs="0" maxOccurs="1" name="PaymentMethod" type="s:string" />',
        '<s:element minOccurs="0" maxOccurs="1" name="PaymentMethod" type="s:string" />\n            <s:element minOccurs="0" maxOccurs="1" name="PaymentType" type="s:string" />',
      )
      .replace('name="PCNNO" type="s:string"', 'name="PcnNo" type="s:string"');
    expect(drifted).not.toBe(mainWsdl);
    const differences = contractDifferences(describeWsdl(drifted, NS), mainService());
    expect(differences).toEqual([
      'operation getPCNList: the WSDL lists parameters (SalesOfficer, Customer, PaymentMethod, PaymentType), the implementation (SalesOfficer, Customer, PaymentType, PaymentMethod)',
      'operation getPCNDebitNotes: the WSDL lists parameters (PcnNo), the implementation (PCNNO)',
    ]);
  });

  it('refuses with an error naming every difference', () => {
    const extra: Operation = { ...mainServiceOperations[0], name: 'getSomethingNew' };
    const service = mainService([...mainServiceOperations.filter((op) => op.name !== 'FillAreaManagers'), extra]);
    let thrown: unknown;
    try {
      assertContract(describeWsdl(mainWsdl, NS), service);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ContractMismatchError);
    const message = (thrown as Error).message;
    expect(message).toContain('MobileAppWebService');
    expect(message).toContain('operation FillAreaManagers of the WSDL has no implementation');
    expect(message).toContain('operation getSomethingNew is implemented but not in the WSDL');
  });

  it('createApp builds for the real services (the server starts only when the check passes)', () => {
    expect(() => createApp({ settings: loadSettings({ LOG_LEVEL: 'silent' }), engine })).not.toThrow();
  });
});
