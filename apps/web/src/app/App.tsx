import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { FullPageLoader } from '../components/FullPageLoader';
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
              {/* While a lazy screen (the login page…) or the chosen language's translations load. */}
              <Suspense fallback={<FullPageLoader />}>
                <AppRoutes />
              </Suspense>
            </RealtimeProvider>
          </AuthProvider>
          {/* Inside the router: a toast's duration follows the screen it shows on. */}
          <Toasts />
        </BrowserRouter>
      </QueryClientProvider>
    </ColorModeProvider>
  );
}
