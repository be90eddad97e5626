/**
 * The service object's part of the parameter conventions (docs/behaviour.md): names match case-insensitively,
 * the first occurrence wins, unknown names are dropped, files reach only operations that accept them,
 * and a write operation with no input at all does nothing. The operations below record what they
 * receive; they are the input of this test, the matching under test is the real code.
 */
import { field, recordType, rows } from '../operations/results';
import { readOperation, type Operation, type OperationContext, type OperationRequest } from '../operations/types';
import type { Engine } from '../db/engine';
import { freshEngine, temporarySqlite } from '../../test/support/engines';
import { createMobileAppService, createSyncCustomersService, NO_INPUT_MESSAGE } from './mobile-app';
import { mainServiceOperations } from './registry';

const context = {} as OperationContext;
/** What the recorders answer: the fields they received. */
const RECORDED = rows(
  recordType('Received', { SalesOfficer: field.string, FromDate: field.string, AsOf: field.string }),
);
const afterAllClose: Engine[] = [];
afterAll(() => Promise.all(afterAllClose.map((engine) => engine.close())));

interface RecorderOptions {
  name?: string;
  kind?: Operation['kind'];
  acceptsFiles?: boolean;
}

/** A read records what it was prepared with (prepared) and what it read (seen); a write what it ran with (seen). */
function recorder(options: RecorderOptions): { op: Operation; seen: OperationRequest[]; prepared: OperationRequest[] } {
  const seen: OperationRequest[] = [];
  const prepared: OperationRequest[] = [];
  const shape = {
    name: options.name ?? 'Recorded',
    params: ['SalesOfficer', 'FromDate'],
    fields: ['AsOf'],
    acceptsFiles: options.acceptsFiles ?? false,
    returns: RECORDED,
  };
  const answer = (request: OperationRequest) => {
    seen.push(request);
    return Promise.resolve({ data: [request.fields] });
  };
  const op: Operation =
    options.kind === 'write'
      ? { ...shape, kind: 'write', run: answer }
      : readOperation({
          ...shape,
          reads: ['customers'],
          // The plan is the request's place in `prepared`: a plan is plain data (planKey), and a file is not.
          prepare(request): number {
            prepared.push(request as unknown as OperationRequest);
            return prepared.length - 1;
          },
          read: (index) => answer(prepared[index]),
        });
  return { op, seen, prepared };
}

const file = {
  field: 'photo',
  fileName: 'a.jpg',
  declaredType: 'image/jpeg',
  content: Buffer.from([0xff, 0xd8, 0xff]),
};

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
    expect(outcome).toEqual({ kind: 'result', result: { data: [{ SalesOfficer: 'SO1', AsOf: '2026-01-31' }] } });
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
    const outcome = await service.invoke('Recorded', {
      values: [
        ['SalesOfficer', ' '],
        ['Unknown', 'value'],
      ],
      files: [file],
    });
    expect(seen).toEqual([]);
    expect(outcome).toEqual({ kind: 'result', result: { data: null, message: NO_INPUT_MESSAGE } });
  });

  it('runs a write operation that carries one value, or a file when it accepts files', async () => {
    const { op, seen } = recorder({ kind: 'write' });
    const withFiles = recorder({ kind: 'write', name: 'WithFiles', acceptsFiles: true });
    const service = createMobileAppService({
      namespace: 'http://tempuri.org/',
      context,
      operations: [op, withFiles.op],
    });
    await service.invoke('Recorded', { values: [['fromdate', '2026-01-01']], files: [] });
    await service.invoke('WithFiles', { values: [], files: [file] });
    expect(seen).toHaveLength(1);
    expect(withFiles.seen).toHaveLength(1);
  });

  it('prepares a read without reading it when the binding discards the result, and runs a write whole', async () => {
    const read = recorder({});
    const write = recorder({ kind: 'write', name: 'Written' });
    // The discarded read still asks the database whether it is there.
    const engine = temporarySqlite();
    afterAllClose.push(engine);
    const service = createMobileAppService({
      namespace: 'http://tempuri.org/',
      context: { ...context, db: engine.db, engine },
      operations: [read.op, write.op],
    });
    const discarded = await service.invoke('Recorded', {
      values: [['SalesOfficer', 'SO1']],
      files: [],
      resultDiscarded: true,
    });
    expect(read.prepared).toEqual([{ fields: { SalesOfficer: 'SO1' }, files: [] }]);
    expect(read.seen).toEqual([]);
    expect(discarded).toEqual({ kind: 'result', result: { data: null } });
    await service.invoke('Written', { values: [['SalesOfficer', 'SO1']], files: [], resultDiscarded: true });
    expect(write.seen).toEqual([{ fields: { SalesOfficer: 'SO1' }, files: [] }]);
    await service.invoke('Recorded', { values: [['SalesOfficer', 'SO2']], files: [] });
    expect(read.seen).toEqual([{ fields: { SalesOfficer: 'SO2' }, files: [] }]);
  });

  it('asks the database once for the discarded reads of one turn of the event loop, and again in a later turn', async () => {
    const read = recorder({});
    const engine = await freshEngine('sqlite');
    afterAllClose.push(engine);
    // The engine's own table versions, their reads counted.
    const version = engine.dataVersion!;
    let looks = 0;
    const counted = {
      ...engine,
      dataVersion: { read: () => ((looks += 1), version.read()), close: () => version.close() },
    };
    const service = createMobileAppService({
      namespace: 'http://tempuri.org/',
      context: { ...context, db: engine.db, engine: counted },
      operations: [read.op],
    });
    const discardedRead = () =>
      service.invoke('Recorded', { values: [['SalesOfficer', 'SO1']], files: [], resultDiscarded: true });
    // As the requests of one turn arrive: each in its own callback, the microtasks of one run before the next.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => new Promise((resolve) => setImmediate(() => resolve(discardedRead())))),
    );
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ kind: 'result', result: { data: null } })));
    expect(looks).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    await discardedRead();
    expect(looks).toBe(2);
    expect(read.seen).toEqual([]);
  });

  it('describes every registry operation for the bindings', () => {
    const service = createMobileAppService({ namespace: 'urn:x', context });
    expect(service.name).toBe('MobileAppWebService');
    expect(service.path).toBe('/API/MobileAppWebService.asmx');
    expect([...service.operations.keys()]).toEqual(mainServiceOperations.map((op) => op.name));
    expect([...service.operations.values()].map((op) => op.returns)).toEqual(
      mainServiceOperations.map((op) => op.returns),
    );
    expect([...service.operations.values()].filter((op) => op.returns.kind === 'text')).toEqual([]);
  });

  it('rejects a name it does not have', async () => {
    const service = createMobileAppService({ namespace: 'urn:x', context, operations: [] });
    await expect(service.invoke('HelloWorld', { values: [], files: [] })).rejects.toThrow(
      'HelloWorld is not an operation of MobileAppWebService',
    );
  });
});

describe('SyncCustomers service object', () => {
  it('answers HelloWorld with "Hello World"', async () => {
    const service = createSyncCustomersService({ namespace: 'http://tempuri.org/' });
    expect(service.path).toBe('/API/SyncCustomers.asmx');
    expect([...service.operations.keys()]).toEqual(['HelloWorld']);
    await expect(service.invoke('HelloWorld', { values: [['x', 'y']], files: [] })).resolves.toEqual({
      kind: 'string',
      value: 'Hello World',
    });
  });
});
