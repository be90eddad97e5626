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
const V2_NS = 'http://tempuri.org/v2/';
const mainWsdl = fs.readFileSync(path.join(__dirname, '../../wsdl/MobileAppWebService.wsdl'), 'utf8');
const v2Wsdl = fs.readFileSync(path.join(__dirname, '../../wsdl/v2/MobileAppWebService.wsdl'), 'utf8');

let engine: Engine;
suiteEngine('sqlite', (opened) => (engine = opened));

function mainService(operations: readonly Operation[] = mainServiceOperations, contract: 'legacy' | 'v2' = 'legacy') {
  const context = {
    db: engine.db,
    engine,
    clock: { now: () => new Date() },
    settings: {
      dateOrder: 'DMY' as const,
      fiscalYearStartMonth: 4,
      maxFileBytes: 1,
      maxFilesPerRequest: 1,
      maxRequestFilesBytes: 1,
    },
  };
  return createMobileAppService({ namespace: contract === 'v2' ? V2_NS : NS, context, operations, contract });
}

describe('contract check', () => {
  it('passes for both real services and their WSDL files, legacy and v2', () => {
    const services = createServices({ settings: loadSettings({}), engine });
    expect(services.map((s) => `${s.contract} ${s.name} ${s.path} ${s.wsdlFile}`)).toEqual([
      'legacy MobileAppWebService /API/MobileAppWebService.asmx wsdl/MobileAppWebService.wsdl',
      'legacy SyncCustomers /API/SyncCustomers.asmx wsdl/SyncCustomers.wsdl',
      'v2 MobileAppWebService /API/v2/MobileAppWebService.asmx wsdl/v2/MobileAppWebService.wsdl',
      'v2 SyncCustomers /API/v2/SyncCustomers.asmx wsdl/v2/SyncCustomers.wsdl',
    ]);
    expect(createServices({ settings: loadSettings({ V2_CONTRACT: 'false' }), engine }).map((s) => s.contract)).toEqual(
      ['legacy', 'legacy'],
    );
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
    expect(description.operations.map((op) => op.name).sort()).toEqual(
      mainServiceOperations.map((op) => op.name).sort(),
    );
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
    const drifted = mainWsdl.replace(
      /<wsdl:portType name="MobileAppWebServiceSoap">[\s\S]*?<wsdl:operation name="getPCNList">[\s\S]*?<\/wsdl:operation>/,
      (m) => m.replace(/<wsdl:operation name="getPCNList">[\s\S]*?<\/wsdl:operation>/, ''),
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

  describe('the v2 WSDL against the result declarations (contract-v2.ts)', () => {
    const v2 = (wsdl: string, operations?: readonly Operation[]) =>
      contractDifferences(describeWsdl(wsdl, V2_NS), mainService(operations, 'v2'));

    it("agrees as written, and lists each operation's extension fields after its parameters", () => {
      expect(v2(v2Wsdl)).toEqual([]);
      expect(describeWsdl(v2Wsdl, V2_NS).operations.find((op) => op.name === 'getPCNList')?.params).toEqual([
        'SalesOfficer',
        'Customer',
        'PaymentType',
        'PaymentMethod',
        'PageSize',
        'PageToken',
      ]);
    });

    it('names a field whose type, nullability or place differs, and a field only one side has', () => {
      const drifted = v2Wsdl
        .replace('name="ChequeNo" nillable="true" type="s:string"', 'name="ChequeNo" type="s:string"')
        .replace(
          'name="InvoiceCount" type="s:int" />\n          <s:element minOccurs="1" maxOccurs="1" name="Quantity"',
          'name="InvoiceCount" type="s:long" />\n          <s:element minOccurs="1" maxOccurs="1" name="Quantity"',
        )
        .replace('<s:element minOccurs="1" maxOccurs="1" name="Reason" type="s:string" />\n', '');
      expect(drifted).not.toBe(v2Wsdl);
      expect(v2(drifted)).toEqual([
        'complexType SalesSummaryRecord, element 6: the WSDL declares InvoiceCount: long, the operations answer InvoiceCount: int',
        'complexType PCNCheque, element 8: the WSDL declares ChequeNo: string, the operations answer ChequeNo: string (nillable)',
        'complexType PCNDebitNote, element 4: the WSDL declares nothing, the operations answer Reason: string',
      ]);
    });

    it('names a result element or type that is missing, and an operation without the ServiceError fault', () => {
      const drifted = v2Wsdl
        .replace('<s:element name="GetPCNInvoicesResult" nillable="true" type="tns:GetPCNInvoicesResult" />', '')
        .replace(
          /(<wsdl:operation name="getPCNList">\n      <wsdl:input message="tns:getPCNListSoapIn" \/>\n      <wsdl:output message="tns:getPCNListSoapOut" \/>\n)      <wsdl:fault name="ServiceError" message="tns:ServiceErrorFault" \/>\n/,
          '$1',
        );
      expect(v2(drifted)).toEqual([
        'the schema has no element GetPCNInvoicesResult (the HTTP GET/POST answer of getPCNInvoices)',
        'operation getPCNList declares no ServiceError fault',
      ]);
    });

    it('refuses to start the app on a difference', () => {
      const service = mainService(undefined, 'v2');
      expect(() =>
        assertContract(describeWsdl(v2Wsdl.replace('type="s:date"', 'type="s:string"'), V2_NS), service),
      ).toThrow(ContractMismatchError);
    });
  });

  it('createApp builds for the real services (the server starts only when the check passes)', () => {
    expect(() => createApp({ settings: loadSettings({ LOG_LEVEL: 'silent' }), engine })).not.toThrow();
  });
});
