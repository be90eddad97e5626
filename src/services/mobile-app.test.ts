/**
 * The service object's part of the parameter conventions (domain.md): names match case-insensitively,
 * the first occurrence wins, unknown names are dropped, files reach only operations that accept them,
 * and a write operation with no input at all does nothing. The operations below record what they
 * receive; they are the input of this test, the matching under test is the real code.
 */
import type { Operation, OperationContext, OperationRequest } from '../operations/types';
import { createMobileAppService, NO_INPUT_MESSAGE } from './mobile-app';
import { createSyncCustomersService } from './sync-customers';

const context = {} as OperationContext;

function recorder(overrides: Partial<Operation>): { op: Operation; seen: OperationRequest[] } {
  const seen: OperationRequest[] = [];
  const op: Operation = {
    name: 'Recorded',
    params: ['SalesOfficer', 'FromDate'],
    fields: ['AsOf'],
    acceptsFiles: false,
    kind: 'read',
    async run(request) {
      seen.push(request);
      return { data: [request.fields] };
    },
    ...overrides,
  };
  return { op, seen };
}

const file = { field: 'photo', fileName: 'a.jpg', declaredType: 'image/jpeg', content: Buffer.from([0xff, 0xd8, 0xff]) };

describe('MobileAppWebService service object', () => {
  it('matches names case-insensitively, keeps the first occurrence and drops unknown names', async () => {
    const { op, seen } = recorder({});
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [op] });
    const outcome = await service.invoke('Recorded', {
      values: [
        ['salesofficer', 'SO1'],
        ['SALESOFFICER', 'SO2'],
        ['asof', '2026-01-31'],
        ['Nope', 'x'],
      ],
      files: [file],
    });
    expect(seen).toEqual([{ fields: { SalesOfficer: 'SO1', AsOf: '2026-01-31' }, files: [] }]);
    expect(outcome).toEqual({ kind: 'report', result: { data: [{ SalesOfficer: 'SO1', AsOf: '2026-01-31' }] } });
  });

  it('passes files only to an operation that accepts them', async () => {
    const { op, seen } = recorder({ acceptsFiles: true });
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [op] });
    await service.invoke('Recorded', { values: [], files: [file] });
    expect(seen[0].files).toEqual([file]);
  });

  it('does nothing for a write operation without input and says so', async () => {
    const { op, seen } = recorder({ kind: 'write' });
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [op] });
    const outcome = await service.invoke('Recorded', { values: [['SalesOfficer', ' '], ['Unknown', 'value']], files: [file] });
    expect(seen).toEqual([]);
    expect(outcome).toEqual({ kind: 'report', result: { data: null, message: NO_INPUT_MESSAGE } });
  });

  it('runs a write operation that carries one value, or a file when it accepts files', async () => {
    const { op, seen } = recorder({ kind: 'write' });
    const withFiles = recorder({ kind: 'write', name: 'WithFiles', acceptsFiles: true });
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [op, withFiles.op] });
    await service.invoke('Recorded', { values: [['fromdate', '2026-01-01']], files: [] });
    await service.invoke('WithFiles', { values: [], files: [file] });
    expect(seen).toHaveLength(1);
    expect(withFiles.seen).toHaveLength(1);
  });

  it('describes every registry operation for the bindings', () => {
    const service = createMobileAppService({ namespace: 'urn:x', context });
    expect(service.name).toBe('MobileAppWebService');
    expect(service.path).toBe('/API/MobileAppWebService.asmx');
    expect(service.operations.size).toBe(19);
    expect([...service.operations.values()].every((op) => op.result === 'report')).toBe(true);
  });

  it('rejects a name it does not have', async () => {
    const service = createMobileAppService({ namespace: 'urn:x', context, operations: [] });
    await expect(service.invoke('HelloWorld', { values: [], files: [] })).rejects.toThrow('HelloWorld is not an operation of MobileAppWebService');
  });
});

describe('SyncCustomers service object', () => {
  it('answers HelloWorld with "Hello World"', async () => {
    const service = createSyncCustomersService({ namespace: 'http://tempuri.org/' });
    expect(service.path).toBe('/API/SyncCustomers.asmx');
    expect([...service.operations.keys()]).toEqual(['HelloWorld']);
    await expect(service.invoke('HelloWorld', { values: [['x', 'y']], files: [] })).resolves.toEqual({ kind: 'string', value: 'Hello World' });
  });
});
