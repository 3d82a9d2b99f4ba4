import '@broker/ui/theme.css';
import '@broker/ui/components.css';
import './styles.css';
import './kit/kit.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { I18nProvider } from './i18n';
import { router } from './router';
import { SessionProvider } from './session';
import { applyTheme, initialTheme, ThemeProvider } from './theme';

// The remembered theme before the first paint.
applyTheme(initialTheme());

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <ThemeProvider>
      <I18nProvider>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </I18nProvider>
    </ThemeProvider>
  </StrictMode>,
);
