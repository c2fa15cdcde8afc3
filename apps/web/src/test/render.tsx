import type { SessionUser } from '@balcao/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AuthContext, type AuthContextValue } from '../app/AuthContext';
import { ColorModeProvider } from '../app/ColorModeProvider';
import { sessionUser } from './fixtures';

export function authValue(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  const user: SessionUser | null = overrides.user === undefined ? sessionUser() : overrides.user;
  return {
    status: user ? 'authenticated' : 'anonymous',
    token: user ? 'token' : null,
    login: vi.fn(),
    logout: vi.fn(),
    reloadUser: vi.fn(),
    updateUser: vi.fn(),
    ...overrides,
    user,
  };
}

interface Options {
  path?: string;
  auth?: AuthContextValue;
  queryClient?: QueryClient;
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders `ui` inside the app's providers, with a given session and location. */
export function renderWithProviders(ui: ReactNode, options: Options = {}) {
  const auth = options.auth ?? authValue();
  const queryClient = options.queryClient ?? testQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <AuthContext value={auth}>
          <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
        </AuthContext>
      </ColorModeProvider>
    </QueryClientProvider>,
  );
  return { ...result, auth, queryClient };
}
