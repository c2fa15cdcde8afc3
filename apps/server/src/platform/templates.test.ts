import { describe, expect, it } from 'vitest';
import { greetingOf, renderTemplate } from './templates.js';

const ctx = (iso: string, timeZone = 'America/Sao_Paulo') => ({
  contact: { name: '  Maria  da Silva ' },
  ticket: { id: 42 },
  now: new Date(iso),
  timeZone,
});

describe('renderTemplate (DOMAIN §6)', () => {
  it('fills the contact, protocol, date and hour in the company time zone', () => {
    // 02:30 UTC on the 1st is still 23:30 on the previous day in São Paulo (UTC−3).
    const text = '{{ms}}, {{firstName}}! ({{name}}) Protocolo {{protocol}} em {{date}} às {{hour}}';
    expect(renderTemplate(text, ctx('2026-03-01T02:30:00Z'))).toBe(
      'Boa noite, Maria! (Maria  da Silva) Protocolo 2026022842 em 28/02/2026 às 23:30',
    );
  });

  it('greets by the local hour: 05–11 morning, 12–17 afternoon, otherwise night', () => {
    const at = (utcHour: string) => renderTemplate('{{ms}}', ctx(`2026-05-10T${utcHour}:00:00Z`));
    expect(at('07')).toBe('Boa noite'); // 04:00 local
    expect(at('08')).toBe('Bom dia'); // 05:00
    expect(at('14')).toBe('Bom dia'); // 11:59 is still morning; 11:00 here
    expect(at('15')).toBe('Boa tarde'); // 12:00
    expect(at('20')).toBe('Boa tarde'); // 17:00
    expect(at('21')).toBe('Boa noite'); // 18:00
    expect([4, 5, 11, 12, 17, 18, 0].map(greetingOf)).toEqual([
      'Boa noite',
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
    ]);
  });

  it('uses another time zone when the company has one, and the default for an unknown zone', () => {
    const now = '2026-05-10T10:05:00Z';
    expect(renderTemplate('{{hour}} {{ms}}', ctx(now, 'Europe/Lisbon'))).toBe('11:05 Bom dia');
    expect(renderTemplate('{{hour}} {{ms}}', ctx(now, 'Mars/Olympus'))).toBe('07:05 Bom dia');
  });

  it('leaves unknown variables and plain text untouched', () => {
    expect(renderTemplate('Olá {{nome}} {{ name }}', ctx('2026-05-10T12:00:00Z'))).toBe('Olá {{nome}} Maria  da Silva');
    expect(renderTemplate('sem variáveis', ctx('2026-05-10T12:00:00Z'))).toBe('sem variáveis');
  });
});
