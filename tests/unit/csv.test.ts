import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/server/console/csv.ts';

describe('CSV exports', () => {
  it('quotes what needs quoting and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });

  it('never lets a text cell run as a spreadsheet formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+31 6 1234')).toBe("'+31 6 1234");
    expect(csvCell('@sum')).toBe("'@sum");
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes a header line and CRLF rows after a byte-order mark', () => {
    const text = toCsv([{ a: 1, b: 'x' }], [
      { header: 'A', value: (r) => r.a },
      { header: 'B', value: (r) => r.b },
    ]);
    expect(text).toBe('\uFEFFA,B\r\n1,x\r\n');
  });
});
