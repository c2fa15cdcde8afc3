import { isLocationBody, locationBody, mapsLink, parseLocation } from '@balcao/shared';
import { describe, expect, it } from 'vitest';

// The shared location body both providers store and the web client reads (spec part 1 §3).
describe('location body', () => {
  it('builds image|link|description with name and address joined', () => {
    expect(
      locationBody({ latitude: -23.5505, longitude: -46.6333, name: 'Praça da Sé', address: 'Sé, São Paulo' }),
    ).toBe('|https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17|Praça da Sé, Sé, São Paulo');
    expect(locationBody({ latitude: 1, longitude: 2 })).toBe('|https://maps.google.com/maps?q=1%2C2&z=17|');
    expect(locationBody({ latitude: 1, longitude: 2, address: 'Rua B' })).toBe(`|${mapsLink(1, 2)}|Rua B`);
  });

  it('keeps three parts: pipes and line breaks in the texts are replaced, a repeated name is said once', () => {
    const body = locationBody({ latitude: 0, longitude: 0, name: 'Bar | Café\nCentro', address: 'Bar | Café\nCentro' });
    expect(body.split('|')).toHaveLength(3);
    expect(parseLocation(body).description).toBe('Bar / Café Centro');
  });

  it('keeps an image URL, drops anything else, and gives no link without coordinates', () => {
    const withImage = locationBody({ latitude: 1, longitude: 2, image: 'data:image/jpeg;base64,/9j/' });
    expect(parseLocation(withImage).image).toBe('data:image/jpeg;base64,/9j/');
    expect(parseLocation(locationBody({ latitude: 1, longitude: 2, image: 'javascript:alert(1)' })).image).toBe('');
    expect(parseLocation(locationBody({ latitude: 1, longitude: 2, image: 'https://x/a|b' })).image).toBe('');
    expect(locationBody({ latitude: null, longitude: undefined, name: 'Casa' })).toBe('||Casa');
    expect(locationBody({ latitude: Number.NaN, longitude: 2 })).toBe('||');
  });

  it('parses a body back, with an optional description', () => {
    const body = locationBody({ latitude: 1, longitude: 2, name: 'Loja' });
    expect(parseLocation(body)).toEqual({ image: '', link: mapsLink(1, 2), description: 'Loja' });
    expect(parseLocation('img|https://maps.google.com/?q=1,2')).toEqual({
      image: 'img',
      link: 'https://maps.google.com/?q=1,2',
      description: '',
    });
    expect(parseLocation('')).toEqual({ image: '', link: '', description: '' });
  });

  it('tells a location body from typed text', () => {
    expect(isLocationBody(locationBody({ latitude: 1, longitude: 2, name: 'Loja' }))).toBe(true);
    expect(isLocationBody(locationBody({ latitude: 1, longitude: 2, image: 'data:image/jpeg;base64,AA' }))).toBe(true);
    expect(isLocationBody('|https://maps.google.com/maps?q=1,2')).toBe(true);
    expect(isLocationBody('Olá | tudo bem?')).toBe(false);
    expect(isLocationBody('veja https://maps.google.com/maps?q=1,2')).toBe(false);
    expect(isLocationBody('a|https://x.y|z')).toBe(false);
  });
});
