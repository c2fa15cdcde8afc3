import { describe, expect, it } from 'vitest';
import { crc16ccitt, hasValidCrc, parseBrCode, pixCopyPaste } from './pix-code.js';

describe('crc16ccitt', () => {
  it('is CRC-16/CCITT-FALSE (check value of "123456789" is 29B1)', () => {
    expect(crc16ccitt('123456789')).toBe('29B1');
  });

  it("matches the Banco Central's BR Code manual example", () => {
    const example =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
      '5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    expect(hasValidCrc(example)).toBe(true);
    expect(crc16ccitt(example.slice(0, -4))).toBe('1D3D');
  });
});

describe('pixCopyPaste', () => {
  const input = {
    key: '5f0c2a8e-1b7d-4c39-9e64-0a3d7b51c2f8',
    amount: 149.9,
    txid: 'INV42abc',
    merchantName: 'BALCAO SANDBOX',
    city: 'SAO PAULO',
  };

  it('builds the EMV TLV fields of a Pix BR Code, ending with a correct CRC', () => {
    const code = pixCopyPaste(input);
    expect(hasValidCrc(code)).toBe(true);
    expect(code.slice(-8, -4)).toBe('6304');
    expect(code.slice(-4)).toBe(crc16ccitt(code.slice(0, -4)));
    expect(parseBrCode(code)).toEqual({
      '00': '01',
      '26': '0014br.gov.bcb.pix01365f0c2a8e-1b7d-4c39-9e64-0a3d7b51c2f8',
      '26.00': 'br.gov.bcb.pix',
      '26.01': input.key,
      '52': '0000',
      '53': '986',
      '54': '149.90',
      '58': 'BR',
      '59': 'BALCAO SANDBOX',
      '60': 'SAO PAULO',
      '62': '0508INV42abc',
      '62.05': 'INV42abc',
      '63': code.slice(-4),
    });
  });

  it('reproduces the manual example field for field', () => {
    const code = pixCopyPaste({
      key: '123e4567-e12b-12d1-a456-426655440000',
      amount: 10,
      txid: '***',
      merchantName: 'Fulano de Tal',
      city: 'BRASILIA',
    });
    expect(code).toBe(
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.00' +
        `5802BR5913Fulano de Tal6008BRASILIA62070503***6304${code.slice(-4)}`,
    );
    expect(hasValidCrc(code)).toBe(true);
  });

  it('a changed character breaks the CRC', () => {
    const code = pixCopyPaste(input);
    expect(hasValidCrc(code.replace('149.90', '149.99'))).toBe(false);
  });

  it('drops accents and cuts the name (25) and city (15) to their limits, without a trailing blank', () => {
    const fields = parseBrCode(
      pixCopyPaste({ ...input, merchantName: 'Balcão Atendimento Ótimo e Rápido Ltda', city: 'São José dos Campos' }),
    );
    expect(fields['59']).toBe('Balcao Atendimento Otimo');
    expect(fields['60']).toBe('Sao Jose dos Ca');
  });

  it('refuses what a BR Code cannot carry', () => {
    expect(() => pixCopyPaste({ ...input, amount: 0 })).toThrow(RangeError);
    expect(() => pixCopyPaste({ ...input, amount: Number.NaN })).toThrow(RangeError);
    expect(() => pixCopyPaste({ ...input, txid: 'has-dash' })).toThrow(RangeError);
    expect(() => pixCopyPaste({ ...input, txid: 'x'.repeat(26) })).toThrow(RangeError);
    expect(() => pixCopyPaste({ ...input, key: '' })).toThrow(RangeError);
  });
});
