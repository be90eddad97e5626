/**
 * The strict form and query decoder (src/asmx/http/input-text.ts) replaced URLSearchParams in the HTTP
 * bindings: it must read every valid form exactly as URLSearchParams does, and differ only by refusing
 * what URLSearchParams would replace with U+FFFD (bytes that are not UTF-8) or characters XML forbids.
 * Property-checked with a fixed seed over arbitrary text and arbitrary bytes.
 */
import fc from 'fast-check';
import { AppError } from '../../src/errors';
import { forbiddenCharacter, readFormPairs } from '../../src/asmx/http/input-text';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = 2000;

/** Text of any Unicode scalar values XML can carry (so the decoder has nothing to refuse). */
const xmlText = fc.string({ unit: 'grapheme', maxLength: 20 }).filter((text) => forbiddenCharacter(text) === undefined);

test('every form URLSearchParams writes is read back exactly', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(xmlText, xmlText), { maxLength: 10 }), (pairs) => {
      const encoded = new URLSearchParams(pairs).toString();
      const expected = [...new URLSearchParams(encoded)];
      expect(readFormPairs(Buffer.from(encoded))).toEqual(expected);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});

/**
 * Arbitrary ASCII, as a query string always is (Node refuses other bytes in the request line) and a
 * form nearly always is: URLSearchParams reads a string, so only ASCII means the same to both.
 */
test('on arbitrary ASCII it reads what URLSearchParams reads, or refuses what URLSearchParams would alter', () => {
  const bytes = fc.oneof(
    fc.uint8Array({ max: 0x7f, maxLength: 40 }),
    fc
      .array(fc.constantFrom('%', '+', '=', '&', 'a', '%FF', '%C3%A9', '%00', '%ED%A0%80', '%EF%BF%BE', '%4', '%zz'), {
        maxLength: 15,
      })
      .map((parts) => Buffer.from(parts.join(''))),
  );
  fc.assert(
    fc.property(bytes, (raw) => {
      const buffer = Buffer.from(raw);
      // A leading '&' only stops URLSearchParams from dropping a leading '?' (the query is cut after it).
      const reference = [...new URLSearchParams(`&${buffer.toString('latin1')}`)];
      let read: [string, string][];
      try {
        read = readFormPairs(buffer);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('INVALID_PARAMETER');
        const altered = reference.some(
          ([n, v]) => `${n}${v}`.includes('\uFFFD') || forbiddenCharacter(`${n}${v}`) !== undefined,
        );
        expect(altered).toBe(true);
        return;
      }
      expect(read).toEqual(reference);
    }),
    { seed: SEED, numRuns: RUNS },
  );
});
