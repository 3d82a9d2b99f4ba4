import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import {
  pickInitialTheme,
  readStorage,
  type TAdminTheme,
  THEME_STORAGE_KEY,
  writeStorage,
} from './lib/preferences';

interface TThemeContext {
  theme: TAdminTheme;
  setTheme(theme: TAdminTheme): void;
}

const ThemeContext = createContext<TThemeContext | null>(null);

export function initialTheme(): TAdminTheme {
  return pickInitialTheme(readStorage(THEME_STORAGE_KEY));
}

/** Applies a theme to <html> (the tokens of theme.css switch on data-theme). */
export function applyTheme(theme: TAdminTheme): void {
  document.documentElement.dataset.theme = theme;
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<TAdminTheme>(initialTheme);

  useEffect(() => applyTheme(theme), [theme]);

  const setTheme = useCallback((next: TAdminTheme) => {
    writeStorage(THEME_STORAGE_KEY, next);
    setThemeState(next);
  }, []);

  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): TThemeContext {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme outside ThemeProvider');
  return value;
}
