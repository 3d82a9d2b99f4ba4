/**
 * Last resort when the error page itself fails: no translations, no router, no context, so it
 * cannot fail in turn. The text is the spec's (2.5).
 */
export function ErrorFallback({ lang: given }: { lang?: string }) {
  const lang =
    given ?? (typeof window === 'undefined' ? 'en' : window.location.pathname.split('/')[1] || 'en');
  return (
    <div className="error-fallback" role="alert" data-testid="error-fallback">
      <p>an error occurred while showing the error page</p>
      <a href={`/${/^[a-zA-Z-]{2,5}$/.test(lang) ? lang : 'en'}`}>go back to home</a>
    </div>
  );
}
