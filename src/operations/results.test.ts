/** The result declarations themselves: each record type named once (test/support/result-check.test.ts checks the check). */
import { mainServiceOperations } from '../services/registry';
import type { RecordType } from './results';

describe('the declarations', () => {
  it('name each record type once: one name, one shape', () => {
    const shapes = new Map<string, string>();
    const visit = (type: RecordType) => {
      const shape = JSON.stringify(type.fields);
      expect(shapes.get(type.name) ?? shape).toBe(shape);
      shapes.set(type.name, shape);
      for (const member of Object.values(type.fields)) {
        if ('list' in member) visit(member.list);
        if ('record' in member) visit(member.record);
      }
    };
    for (const op of mainServiceOperations) {
      const returns = op.returns;
      if (returns.kind === 'rows') {
        visit(returns.row);
        if (returns.totals) visit(returns.totals);
      }
      if (returns.kind === 'record') visit(returns.type);
    }
    expect(shapes.size).toBeGreaterThan(20);
  });
});
