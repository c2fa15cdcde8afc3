import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/mockApi';
import { renderWithProviders } from '../test/render';
import { initialsOf, PersonAvatar } from './PersonAvatar';

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Maria da Silva')).toBe('MS');
    expect(initialsOf('  ana  ')).toBe('A');
    expect(initialsOf('5511999990000')).toBe('5');
    expect(initialsOf('Érica Ôliveira')).toBe('ÉÔ');
    expect(initialsOf('')).toBe('?');
  });
});

describe('PersonAvatar', () => {
  // jsdom has no object URLs: each blob gets a name of its own here.
  const { createObjectURL, revokeObjectURL } = URL;
  let created = 0;
  beforeEach(() => {
    created = 0;
    URL.createObjectURL = () => `blob:picture-${++created}`;
    URL.revokeObjectURL = () => {};
  });
  afterEach(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    vi.unstubAllGlobals();
  });

  const img = (testId: string) => screen.getByTestId(testId).querySelector('img');

  it('shows the initials when there is no picture', () => {
    mockApi({});
    renderWithProviders(<PersonAvatar name="Bruno Lima" src="" data-testid="avatar" />);
    expect(screen.getByTestId('avatar').textContent).toBe('BL');
    expect(img('avatar')).toBeNull();
  });

  it('fetches a stored picture with the token once, however many places show it', async () => {
    const api = mockApi({ 'GET /media/1/0f8fad5b-d9cb-469f-a165-70867728950e.jpg': () => 'jpeg bytes' });
    const src = '/media/1/0f8fad5b-d9cb-469f-a165-70867728950e.jpg';
    renderWithProviders(
      <>
        <PersonAvatar name="Carla Dias" src={src} data-testid="first" />
        <PersonAvatar name="Carla Dias" src={src} size={96} data-testid="second" />
      </>,
    );
    await waitFor(() => expect(img('first')?.getAttribute('src')).toMatch(/^blob:picture-/));
    await waitFor(() => expect(img('second')?.getAttribute('src')).toMatch(/^blob:picture-/));
    expect(img('first')?.getAttribute('alt')).toBe('Carla Dias');
    expect(api.calls(`GET ${src}`)).toHaveLength(1);
  });

  it('keeps the initials when the picture cannot be read', async () => {
    const api = mockApi({});
    renderWithProviders(<PersonAvatar name="Davi" src="/media/1/gone.jpg" data-testid="avatar" />);
    await waitFor(() => expect(api.calls('GET /media/1/gone.jpg')).toHaveLength(1));
    expect(screen.getByTestId('avatar').textContent).toBe('D');
    expect(img('avatar')).toBeNull();
  });
});
