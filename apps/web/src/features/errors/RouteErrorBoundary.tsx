import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from './ErrorPage';
import { ErrorPageGuard } from './ErrorPageGuard';
import { NotFoundView } from './NotFoundPage';

export function RouteErrorBoundary(_props: { fallbackLang?: string }) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorPageGuard>
      {notFound ? <NotFoundView withShell /> : <ErrorView error={error} withShell />}
    </ErrorPageGuard>
  );
}
