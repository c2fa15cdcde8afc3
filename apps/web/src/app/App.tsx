import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './AppRoutes';
import { AuthProvider } from './AuthContext';
import { ColorModeProvider } from './ColorModeProvider';
import { createQueryClient } from './queryClient';
import { RealtimeProvider } from './RealtimeProvider';
import { Toasts } from './Toasts';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <ColorModeProvider>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AuthProvider>
            <RealtimeProvider>
              <AppRoutes />
            </RealtimeProvider>
          </AuthProvider>
          {/* Inside the router: a toast's duration follows the screen it shows on. */}
          <Toasts />
        </BrowserRouter>
      </QueryClientProvider>
    </ColorModeProvider>
  );
}
