import { describe, expect, it } from 'vitest';
import { quickMessage } from '../tickets/testing';
import { quickReplyLabel, quickReplySuggestions, signedBody, storedSignOption, storeSignOption } from './compose';
import { formatText, parseLocation, parseVcard } from './content';

describe('quick replies', () => {
  const quick = [
    quickMessage({ id: 1, shortcode: 'saudacao', message: 'Olá! Seja muito bem-vindo ao nosso atendimento online.' }),
    quickMessage({ id: 2, shortcode: 'pix', message: 'Nossa chave PIX é 123' }),
  ];

  it('suggests only after "/" and more than one character, matching the shortcode', () => {
    expect(quickReplySuggestions('/', quick)).toEqual([]);
    expect(quickReplySuggestions('sau', quick)).toEqual([]);
    expect(quickReplySuggestions('/SAU', quick).map((o) => o.id)).toEqual([1]);
    expect(quickReplySuggestions('/p', quick).map((o) => o.id)).toEqual([2]);
  });

  it('cuts the label at 35 characters plus "..." and inserts the whole message', () => {
    const [option] = quickReplySuggestions('/sa', quick);
    expect(option.label).toBe('/saudacao - Olá! Seja muito bem-vindo ao nosso ...');
    expect(option.label.slice('/saudacao - '.length, -3)).toHaveLength(35);
    expect(option.value).toBe(quick[0].message);
    expect(quickReplyLabel(quick[1])).toBe('/pix - Nossa chave PIX é 123');
  });
});

describe('sign option', () => {
  it('prefixes the body with the name in bold and a line break', () => {
    expect(signedBody('Bom dia', 'Ana Souza', true)).toBe('*Ana Souza:*\nBom dia');
    expect(signedBody('Bom dia', 'Ana Souza', false)).toBe('Bom dia');
  });

  it('is on by default and remembered in signOption', () => {
    expect(storedSignOption()).toBe(true);
    storeSignOption(false);
    expect(localStorage.getItem('signOption')).toBe('false');
    expect(storedSignOption()).toBe(false);
  });
});

describe('message content', () => {
  it('splits a location body on the pipe', () => {
    expect(parseLocation('data:image/png;base64,AA|https://maps.google.com/?q=1,2|Praça da Sé')).toEqual({
      image: 'data:image/png;base64,AA',
      link: 'https://maps.google.com/?q=1,2',
      description: 'Praça da Sé',
    });
    expect(parseLocation('img|link')).toEqual({ image: 'img', link: 'link', description: '' });
  });

  it('reads the name and numbers of a vCard', () => {
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Lima\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD';
    expect(parseVcard(vcard)).toEqual({ name: 'João Lima', numbers: ['+55 11 98888-7777'] });
  });

  it('formats WhatsApp emphasis', () => {
    expect(formatText('*Ana:*\nOlá _você_ ~x~')).toEqual([
      { text: 'Ana:', style: 'bold' },
      { text: '\nOlá ' },
      { text: 'você', style: 'italic' },
      { text: ' ' },
      { text: 'x', style: 'strike' },
    ]);
    expect(formatText('2*3*4')).toEqual([{ text: '2*3*4' }]);
  });
});
