import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDateTime } from './string-formats.js';

const ajvDateTime = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const oneOf = fc.oneof;

/** Date-times near and across every rule's edge: months, days, leap years, hours, leap seconds, zones. */
const dateTimes = fc
  .tuple(
    oneOf(pick(['2024', '2023', '1900', '2000', '0000', '9999']), fc.integer({ min: 0, max: 9999 }).map(String)),
    oneOf(pick(['01', '02', '12', '00', '13']), twoDigits),
    oneOf(pick(['28', '29', '30', '31', '00', '32']), twoDigits),
    pick(['T', 't', ' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff', 'x', '', 'TT', 'T ']),
    oneOf(pick(['23', '00', '24']), twoDigits),
    oneOf(pick(['59', '00', '60']), twoDigits),
    oneOf(pick(['59', '60', '61', '00']), twoDigits),
    pick(['', '.', '.5', '.000', '.123456789012', '.9999999999999', '.99999999999999999999', '.1a']),
    pick([
      'Z',
      'z',
      '',
      '+00:00',
      '-00:00',
      '+01:00',
      '-01:00',
      '+23:59',
      '+24:00',
      '+05:60',
      '+0530',
      '+05',
      '-05',
      '+05:',
      '+5',
      '+05:3',
      'ZZ',
      'Z ',
      '+01:00x',
      '-23:59',
    ]),
  )
  .map(
    ([year, month, day, separator, hour, minute, second, fraction, zone]) =>
      `${year.padStart(4, '0')}-${month}-${day}${separator}${hour}:${minute}:${second}${fraction}${zone}`,
  );

describe('date-time, as ajv-formats decides it', () => {
  it('accepts and refuses exactly what ajv-formats does, near every edge of the format', () => {
    fc.assert(
      fc.property(dateTimes, (text) => {
        expect(isDateTime(text)).toBe(ajvDateTime(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with ajv-formats on arbitrary strings too', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(isDateTime(text)).toBe(ajvDateTime(text));
      }),
      {
        numRuns: 5_000,
      },
    );
  });

  it('reads the examples the seeds and Baton write', () => {
    expect(isDateTime('2024-05-20T14:35:10Z')).toBe(true);
    expect(isDateTime(new Date(0).toISOString())).toBe(true);
    expect(isDateTime('2024-02-29T23:59:60.5Z')).toBe(true); // a leap day and a leap second
    expect(isDateTime('2023-02-29T10:00:00Z')).toBe(false);
    expect(isDateTime('2024-05-20T14:35:10')).toBe(false); // no time zone
  });
});
